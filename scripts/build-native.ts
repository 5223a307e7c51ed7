// Builds the Rust addon (native/) into native/prolong-native.node, the fixed path src/native.ts requires.
//
// Cargo's crate source is chosen here, per machine: where Debian's crate sources
// (/usr/share/cargo/registry, apt packages librust-*-dev) hold what the crate needs, they replace
// crates.io for this build only (cargo --config + --offline); otherwise cargo builds normally.
// PROLONG_CARGO_SOURCE=crates-io|debian overrides the choice. Nothing is written to cargo's own config.
//
// It also builds the NetHack seeding library (native/nethack-seed/seed.c → native/nethack-seed.so) with the
// system C compiler; src/game/nethack/shim.ts imports it as a file, so the single binary carries it.
//
// usage: bun scripts/build-native.ts [--force]     build (skipped when the .node is newer than the sources)
//        bun scripts/build-native.ts --cargo-test  run the crate's unit tests with the same source choice
import { existsSync, readdirSync, statSync, copyFileSync, rmSync } from "node:fs";
import path from "node:path";
import { err, ok, type Result } from "neverthrow";
import { formatError, prolongError, type ProlongError } from "../src/errors.ts";

const ROOT = path.resolve(import.meta.dir, "..");
const CRATE = path.join(ROOT, "native");
const OUTPUT = path.join(CRATE, "prolong-native.node");
const DEBIAN_REGISTRY = "/usr/share/cargo/registry";
/** Crates (name prefixes of Debian's versioned directories) the crate needs, directly or through blake3. */
const NEEDED_CRATES = [
  "memchr-2.",
  "xxhash-rust-0.8.",
  "blake3-1.",
  "arrayref-",
  "arrayvec-",
  "constant_time_eq-",
  "cfg-if-1.",
  "cc-1.",
  "digest-0.10.",
];

type CargoSource = "crates-io" | "debian";

function sourceFiles(): string[] {
  const src = path.join(CRATE, "src");
  return [path.join(CRATE, "Cargo.toml"), ...readdirSync(src).map((f) => path.join(src, f))];
}

/** True when the built addon is newer than every source file (so building again would change nothing). */
function upToDate(): boolean {
  if (!existsSync(OUTPUT)) return false;
  const built = statSync(OUTPUT).mtimeMs;
  return sourceFiles().every((f) => statSync(f).mtimeMs < built);
}

function debianHasCrates(): boolean {
  if (!existsSync(DEBIAN_REGISTRY)) return false;
  const dirs = readdirSync(DEBIAN_REGISTRY);
  return NEEDED_CRATES.every((prefix) => dirs.some((d) => d.startsWith(prefix)));
}

function chooseSource(): Result<CargoSource, ProlongError> {
  const forced = process.env.PROLONG_CARGO_SOURCE;
  if (forced === undefined || forced === "") return ok(debianHasCrates() ? "debian" : "crates-io");
  if (forced === "crates-io" || forced === "debian") return ok(forced);
  return err(
    prolongError("bad-env", `PROLONG_CARGO_SOURCE is '${forced}', expected 'crates-io' or 'debian'`, {
      fix: "unset PROLONG_CARGO_SOURCE to choose automatically, or set it to crates-io or debian",
    }),
  );
}

/** Extra cargo arguments (passed through napi build after `--`) for the chosen source. */
function cargoArgs(source: CargoSource): string[] {
  if (source === "crates-io") return [];
  return [
    "--config",
    'source.crates-io.replace-with="debian-packages"',
    "--config",
    `source.debian-packages.directory="${DEBIAN_REGISTRY}"`,
    "--offline",
  ];
}

function run(cmd: string[], cwd: string): Result<void, ProlongError> {
  const proc = Bun.spawnSync(cmd, { cwd, stdout: "inherit", stderr: "inherit" });
  if (proc.exitCode === 0) return ok(undefined);
  return err(
    prolongError("native-build", `'${cmd.slice(0, 3).join(" ")} ...' failed with exit code ${proc.exitCode}`, {
      path: CRATE,
      fix: "read cargo's message above; with no internet, install the Debian crate sources: apt-get install librust-memchr-dev librust-xxhash-rust-dev librust-blake3-dev",
    }),
  );
}

/** napi build names its output after the platform (prolong-native.linux-x64-gnu.node); find the newest one. */
function builtAddon(): Result<string, ProlongError> {
  const found = readdirSync(CRATE)
    .filter((f) => f.startsWith("prolong-native.") && f.endsWith(".node") && f !== path.basename(OUTPUT))
    .map((f) => path.join(CRATE, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  const first = found[0];
  if (first === undefined) {
    return err(prolongError("native-build", "napi build finished but left no prolong-native.*.node", { path: CRATE }));
  }
  return ok(first);
}

function needCargo(): Result<void, ProlongError> {
  if (Bun.which("cargo") !== null) return ok(undefined);
  return err(
    prolongError("no-cargo", "cargo (the Rust build tool) is not on PATH; it is needed to build the native addon", {
      fix: "install Rust with apt (apt-get install cargo) or with rustup (https://rustup.rs), then run npm run build:native",
    }),
  );
}

function build(): Result<string, ProlongError> {
  return needCargo()
    .andThen(chooseSource)
    .andThen((source) => {
      console.log(`build-native: cargo source ${source}${source === "debian" ? ` (${DEBIAN_REGISTRY}, offline)` : ""}`);
      const napi = path.join(ROOT, "node_modules", "@napi-rs", "cli", "dist", "cli.js");
      const cmd = [
        process.execPath,
        napi,
        "build",
        "--platform",
        "--release",
        "--no-js",
        "--cwd",
        "native",
        "--package-json-path",
        "../package.json",
      ];
      const extra = cargoArgs(source);
      return run(extra.length > 0 ? [...cmd, "--", ...extra] : cmd, ROOT)
        .andThen(builtAddon)
        .map((built) => {
          copyFileSync(built, OUTPUT);
          rmSync(built);
          // napi's --strip did not strip here; strip(1) does (about 400 KB → 330 KB).
          if (Bun.which("strip") !== null) Bun.spawnSync(["strip", "-s", OUTPUT]);
          return OUTPUT;
        });
    });
}

function cargoTest(): Result<void, ProlongError> {
  return needCargo()
    .andThen(chooseSource)
    .andThen((source) => run(["cargo", "test", ...cargoArgs(source)], CRATE));
}

const SHIM_SOURCE = path.join(CRATE, "nethack-seed", "seed.c");
const SHIM_OUTPUT = path.join(CRATE, "nethack-seed.so");

/** The NetHack seeding library, rebuilt when missing or older than its source. */
function buildShim(force: boolean): Result<void, ProlongError> {
  if (!force && existsSync(SHIM_OUTPUT) && statSync(SHIM_OUTPUT).mtimeMs > statSync(SHIM_SOURCE).mtimeMs) return ok(undefined);
  const cc = Bun.which("cc") ?? Bun.which("gcc");
  if (cc === null) {
    return err(
      prolongError("no-cc", "no C compiler (cc) on PATH; it builds the NetHack seeding library", {
        path: SHIM_SOURCE,
        fix: "apt-get install gcc (cargo needs it as its linker too)",
      }),
    );
  }
  return run([cc, "-shared", "-fPIC", "-O2", "-Wall", "-o", SHIM_OUTPUT, SHIM_SOURCE, "-ldl"], ROOT).map(() => {
    console.log(`build-native: wrote ${path.relative(ROOT, SHIM_OUTPUT)} (${statSync(SHIM_OUTPUT).size} bytes)`);
  });
}

function main(argv: string[]): number {
  const shim = buildShim(argv.includes("--force"));
  if (shim.isErr()) {
    console.error(formatError(shim.error));
    return 1;
  }
  if (argv.includes("--cargo-test")) {
    return cargoTest().match(
      () => 0,
      (e) => {
        console.error(formatError(e));
        return 1;
      },
    );
  }
  if (!argv.includes("--force") && upToDate()) {
    console.log(`build-native: ${path.relative(ROOT, OUTPUT)} is newer than every source file; nothing to do (--force rebuilds)`);
    return 0;
  }
  return build().match(
    (out) => {
      console.log(`build-native: wrote ${path.relative(ROOT, out)} (${statSync(out).size} bytes)`);
      return 0;
    },
    (e) => {
      console.error(formatError(e));
      return 1;
    },
  );
}

process.exitCode = main(process.argv.slice(2));
