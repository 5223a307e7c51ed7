// Which build of prolong is running, so every run can name what produced it and `score` can refuse to pool
// runs of two builds: the version, the git commit of the source tree (when there is one), and a hash of the
// code actually running — the TypeScript, the committed games and the native addon of a source tree, or the
// single binary's own bytes — so a dirty tree or a different binary shows even under one commit.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { blake3, mapFile } from "./native.ts";
import { VERSION } from "./version.ts";

export interface BuildId {
  /** package.json's version. */
  readonly version: string;
  /** The source tree's git commit (40 hex digits); null when unknown (a binary, a tree without git). */
  readonly commit: string | null;
  /** 16 hex digits over the code that runs: equal code, equal hash, on any machine. */
  readonly code: string;
}

/** What a run without provenance (written before it was recorded) is shown as. */
export const UNKNOWN_BUILD = "unknown build";

// The source root, two levels above a file of src/ (a compiled binary serves its files from /$bunfs/).
const ROOT = join(import.meta.dir, "..");
const COMPILED = import.meta.dir.startsWith("/$bunfs") || import.meta.dir.startsWith("B:\\~BUN");

/** The parts of a source tree that decide what a run does: code, committed games and data, the addon. */
const CODE_PARTS = ["src", "data", "native/prolong-native.node", "package.json"] as const;

function filesUnder(path: string, out: string[]): void {
  if (!existsSync(path)) return;
  const entries = readdirSync(path, { withFileTypes: true });
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const p = join(path, e.name);
    if (e.isDirectory()) filesUnder(p, out);
    else if (e.isFile()) out.push(p);
  }
}

function sourceTreeHash(): string {
  const h = createHash("sha256");
  for (const part of CODE_PARTS) {
    const p = join(ROOT, part);
    const files: string[] = [];
    if (existsSync(p) && !p.endsWith(".node") && !p.endsWith(".json")) filesUnder(p, files);
    else if (existsSync(p)) files.push(p);
    for (const f of files) {
      // The path relative to the root, so two checkouts of one tree hash alike.
      h.update(relative(ROOT, f)).update("\0").update(readFileSync(f)).update("\0");
    }
  }
  return h.digest("hex").slice(0, 16);
}

function binaryHash(): string {
  const mapped = mapFile(process.execPath);
  if (mapped instanceof Uint8Array) return blake3(mapped).slice(0, 16);
  return createHash("sha256").update(readFileSync(process.execPath)).digest("hex").slice(0, 16);
}

function gitCommit(): string | null {
  if (COMPILED || !existsSync(join(ROOT, ".git"))) return null;
  const r = spawnSync("git", ["-C", ROOT, "rev-parse", "HEAD"], { encoding: "utf8", timeout: 5_000 });
  const out = (r.stdout ?? "").trim();
  return r.status === 0 && /^[0-9a-f]{40}$/.test(out) ? out : null;
}

let cached: BuildId | undefined;

/** This process's build (computed once: a few milliseconds over the source tree). */
export function buildId(): BuildId {
  cached ??= { version: VERSION, commit: gitCommit(), code: COMPILED ? binaryHash() : sourceTreeHash() };
  return cached;
}

/** A build as one short line: "0.1.0 at 1a2b3c4, code 0f1e2d3c4b5a6978". */
export function buildText(b: BuildId | undefined): string {
  if (!b) return UNKNOWN_BUILD;
  return `${b.version}${b.commit ? ` at ${b.commit.slice(0, 7)}` : ""}, code ${b.code}`;
}
