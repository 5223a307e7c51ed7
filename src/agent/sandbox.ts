// Confining an external agent with bubblewrap: the system read-only, the workspace (and the CLI's own HOME)
// read-write, /tmp a fresh tmpfs, and the runs root covered by an empty read-only tmpfs, so the master log,
// index, events and every other game's workspace are invisible; /root and /home are covered too (a process
// mapped to root's own uid would otherwise read them). The network is NOT cut: the coding CLIs need their
// model API. Also here: the `auto` choice (bwrap where it is installed and works).
//
// Root is the dangerous case (most containers): bwrap run by root leaves the sandboxed process every
// capability unless told otherwise, and with CAP_SYS_ADMIN it can unmount the covers and remount / writable.
// So the process always loses every capability (--cap-drop ALL), gets its own user namespace mapped to an
// unprivileged uid where the kernel allows one, its own pid namespace and session (no TIOCSTI into the
// harness's terminal), and dies with the harness.
import { spawnSync } from "node:child_process";
import { realpathSync } from "node:fs";
import { dirname, sep } from "node:path";
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";
import type { RunConfig } from "../config/run-config.ts";
import { findCli } from "./cli-process.ts";

export interface SandboxDirs {
  /** The agent's workspace: its cwd, read-write. */
  readonly workspace: string;
  /** Other directories the agent writes (the CLI's HOME beside the workspace). */
  readonly writable?: readonly string[];
  /** Paths that must stay readable even if they lie under a hidden directory (the CLI's installation). */
  readonly keep?: readonly string[];
  /**
   * Mount the workspace read-only, with only these existing files in it writable (the mini agent's arms that
   * forbid writes: actions.json stays the one way to answer).
   */
  readonly onlyWritableFiles?: readonly string[];
}

export interface Sandbox {
  readonly kind: "bwrap" | "none";
  /** The argv to spawn instead of `argv`. */
  wrap(argv: readonly string[], dirs: SandboxDirs): string[];
  /** The environment the agent gets of `env` (under bwrap only what a backend needs, see AGENT_ENV). */
  environment(env: Readonly<Record<string, string | undefined>>): Record<string, string | undefined>;
}

export const NO_SANDBOX: Sandbox = { kind: "none", wrap: (argv) => [...argv], environment: (env) => ({ ...env }) };

/**
 * What a sandboxed agent keeps of the harness's environment: the basics, the network's proxy and CA
 * settings, and the coding CLIs' own variables (ANTHROPIC_*, CLAUDE_*, OPENAI_*, CODEX_*), plus PROLONG_*
 * and whatever --pass-env names. Everything else (cloud credentials, tokens of other services) stays out.
 * Without a sandbox the agent could read the harness's environment from /proc anyway, so none is filtered.
 */
export const AGENT_ENV = {
  names: [
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "SHELL",
    "LANG",
    "LANGUAGE",
    "TERM",
    "COLORTERM",
    "NO_COLOR",
    "TZ",
    "TMPDIR",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "ALL_PROXY",
    "http_proxy",
    "https_proxy",
    "no_proxy",
    "all_proxy",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "NODE_EXTRA_CA_CERTS",
    "IS_SANDBOX",
    "DISABLE_AUTOUPDATER",
  ],
  prefixes: ["LC_", "PROLONG_", "ANTHROPIC_", "CLAUDE_", "OPENAI_", "CODEX_"],
} as const;

/** `env` limited to AGENT_ENV and the names passed. */
export function agentEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  pass: readonly string[] = [],
): Record<string, string | undefined> {
  const keep = (k: string) =>
    (AGENT_ENV.names as readonly string[]).includes(k) || AGENT_ENV.prefixes.some((p) => k.startsWith(p)) || pass.includes(k);
  return Object.fromEntries(Object.entries(env).filter(([k]) => keep(k)));
}

/** What the probe found this bwrap can do here. */
export interface BwrapSupport {
  readonly bin: string;
  /** --unshare-user works (user namespaces are allowed): the agent runs as SANDBOX_UID inside. */
  readonly userns: boolean;
}

/** The uid and gid the agent has inside the sandbox's user namespace: not 0, so nothing treats it as root. */
export const SANDBOX_UID = 1000;

/** The sandbox --sandbox asks for. bwrap that is missing or cannot run is an error; auto then falls back to none. */
export function chooseSandbox(
  kind: RunConfig["sandbox"],
  probe: () => BwrapSupport | null = probeBwrap,
  passEnv: readonly string[] = [],
): Result<Sandbox, ProlongError> {
  if (kind === "none") return ok(NO_SANDBOX);
  const bwrap = probe();
  if (bwrap !== null)
    return ok({
      kind: "bwrap",
      wrap: (argv, dirs) => bwrapArgv(bwrap, argv, dirs),
      environment: (env) => agentEnvironment(env, passEnv),
    });
  if (kind === "auto") return ok(NO_SANDBOX);
  return err(
    prolongError("no-sandbox", "--sandbox bwrap: bubblewrap is not installed or cannot create a sandbox here", {
      fix: "install it (apt-get install bubblewrap; it needs unprivileged user namespaces or root), or pass --sandbox none",
    }),
  );
}

let probed: BwrapSupport | null | undefined;

/** The bwrap executable if it can actually build a sandbox on this machine, and whether with a user namespace (checked once per process). */
export function probeBwrap(): BwrapSupport | null {
  if (probed !== undefined) return probed;
  const bin = findCli("bwrap", { dirs: [] });
  probed = null;
  if (bin !== null) {
    const works = (userns: boolean) => {
      const argv = [...isolationFlags(userns), "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "true"];
      return spawnSync(bin, argv, { stdio: "ignore", timeout: 10_000 }).status === 0;
    };
    if (works(true)) probed = { bin, userns: true };
    else if (works(false)) probed = { bin, userns: false };
  }
  return probed;
}

/** The flags that take the agent's privileges away, whoever runs the harness. */
function isolationFlags(userns: boolean): string[] {
  const user = userns ? ["--unshare-user", "--uid", String(SANDBOX_UID), "--gid", String(SANDBOX_UID)] : [];
  return [...user, "--cap-drop", "ALL", "--unshare-pid", "--unshare-ipc", "--die-with-parent", "--new-session"];
}

/**
 * The bubblewrap command line. Mount order matters: the tmpfs layers first, then the writable binds and the
 * kept paths on top of them, then the hidden layers are made read-only (binds on top keep their own flags),
 * so a write outside the workspace fails instead of landing in a throwaway tmpfs.
 */
export function bwrapArgv(bwrap: BwrapSupport, argv: readonly string[], dirs: SandboxDirs): string[] {
  const hidden = hiddenDirs(dirs.workspace);
  const out = [bwrap.bin, ...isolationFlags(bwrap.userns), "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
  for (const h of hidden) out.push("--tmpfs", h);
  if (dirs.onlyWritableFiles) {
    out.push("--ro-bind", dirs.workspace, dirs.workspace);
    for (const f of dirs.onlyWritableFiles) out.push("--bind", f, f);
  } else out.push("--bind", dirs.workspace, dirs.workspace);
  for (const w of dirs.writable ?? []) out.push("--bind", w, w);
  for (const k of dirs.keep ?? []) {
    if (hidden.some((h) => isInside(k, h))) out.push("--ro-bind", k, k);
  }
  for (const h of hidden) if (h !== "/tmp") out.push("--remount-ro", h);
  out.push("--chdir", dirs.workspace, ...argv);
  return out;
}

/**
 * What the agent must not see: /tmp (other runs and tests live there; it gets a fresh writable one), the
 * home directories, and the runs root, i.e. runs/ above runs/<stamp>/<game>/workspace. Were the runs root
 * `/`, the stamp directory is hidden instead.
 */
export function hiddenDirs(workspace: string): string[] {
  const runDir = dirname(workspace);
  const stampDir = dirname(runDir);
  const root = dirname(stampDir);
  const runs = root === "/" ? stampDir : root;
  // Parents before children: bwrap mounts in order. `/` itself is never covered (a workspace at the top).
  const covers = ["/tmp", ...HOMES];
  return runs === "/" || covers.includes(runs) ? covers : [...covers, runs];
}

/** Home directories: the agent gets its own HOME; other users' (and root's) are not its to read. */
const HOMES = ["/root", "/home"];

/** The directory a CLI is installed in (its node_modules when it came from npm), to keep it visible. */
export function installDir(bin: string): string {
  let real = bin;
  try {
    real = realpathSync(bin);
  } catch {
    // keep the path as given
  }
  const at = real.lastIndexOf(`${sep}node_modules${sep}`);
  return at === -1 ? dirname(real) : real.slice(0, at + `${sep}node_modules`.length);
}

function isInside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}
