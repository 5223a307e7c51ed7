// Confining an external agent with bubblewrap: the system read-only, the workspace (and the CLI's own HOME)
// read-write, /tmp a fresh tmpfs, and the runs root covered by an empty read-only tmpfs, so the master log,
// index, events and every other game's workspace are invisible; /root and /home are covered too (a process
// mapped to root's own uid would otherwise read them). The network is NOT cut: the coding CLIs need their
// model API. Also here: the `auto` choice (bwrap where it is installed and works).
//
// The privileges themselves (capabilities, the drop from root to nobody, the pid namespace) are taken by the
// primitives in sandbox/bwrap.ts, which the game's own process (NetHack) is confined with too. As root the
// agent runs as `nobody`: the workspace and the agent's HOME are handed to that uid before each turn
// (handOver), so the agent owns them as it would under a harness run by a user.
import { lchownSync, lstatSync, readdirSync, realpathSync, type Stats, statSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { err, ok, type Result } from "neverthrow";
import type { ProlongError } from "../errors.ts";
import type { RunConfig } from "../config/run-config.ts";
import {
  AGENT_UID_AS_ROOT,
  type BwrapSupport,
  confinedUid,
  dropArgv,
  isolationFlags,
  noBwrap,
  probeBwrap,
  SANDBOX_UID,
  SETPRIV_IN_TREE,
  treeArgv as sandboxTreeArgv,
  type TreeMount,
} from "../sandbox/bwrap.ts";
import type { ToolPolicy } from "./tool-ladder.ts";
import { type TreeBind, toolTree, type ToolTree } from "./tool-tree.ts";

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
  /**
   * A restricted tool level's tree (tool-tree.ts): the sandbox then holds only these files, the workspace and
   * the writable directories — not the host's system — so what the level leaves out cannot be run at all.
   */
  readonly tree?: ToolTree;
}

/** The user's directories a sandboxed agent is shown besides its own (run.json's bindRo and bind). */
export interface SandboxBinds {
  /** Read-only: the directory prolong was started in, the --cmd script's directory, --bind-ro DIRs. */
  readonly readOnly: readonly string[];
  /** Read-write: --bind DIRs. */
  readonly readWrite: readonly string[];
}

export const NO_BINDS: SandboxBinds = { readOnly: [], readWrite: [] };

export interface Sandbox {
  readonly kind: "bwrap" | "none";
  /** The argv to spawn instead of `argv`. */
  wrap(argv: readonly string[], dirs: SandboxDirs): string[];
  /** The environment the agent gets of `env` (under bwrap only what a backend needs, see AGENT_ENV). */
  environment(env: Readonly<Record<string, string | undefined>>): Record<string, string | undefined>;
  /**
   * The tree a restricted tool level runs in (null at level all: the whole system, read-only), with `extra`
   * programs bound where they are (a coding CLI itself, off the level's PATH). Without a sandbox there is
   * none to build: a restricted level is refused there (the caller names bwrap).
   */
  treeFor(policy: ToolPolicy, extra?: readonly TreeBind[]): Result<ToolTree | null, ProlongError>;
  /** The uid the agent's processes run as (whose process count its rlimit bounds, rlimits.ts). */
  readonly agentUid: number;
}

export const NO_SANDBOX: Sandbox = {
  kind: "none",
  wrap: (argv) => [...argv],
  environment: (env) => ({ ...env }),
  treeFor: () => ok(null),
  agentUid: process.getuid?.() ?? 0,
};

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

export { AGENT_UID_AS_ROOT, type BwrapSupport, probeBwrap, SANDBOX_UID };

/** The sandbox --sandbox asks for. bwrap that is missing or cannot run is an error; auto then falls back to none. */
export function chooseSandbox(
  kind: RunConfig["sandbox"],
  probe: () => BwrapSupport | null = probeBwrap,
  passEnv: readonly string[] = [],
  binds: SandboxBinds = NO_BINDS,
): Result<Sandbox, ProlongError> {
  if (kind === "none") return ok(NO_SANDBOX);
  const bwrap = probe();
  if (bwrap !== null)
    return ok({
      kind: "bwrap",
      wrap: (argv, dirs) => {
        if (bwrap.dropTo) handOver(dirs, bwrap.dropTo.uid);
        return bwrapArgv(bwrap, argv, dirs, binds);
      },
      // The harness's TMPDIR is hidden with the rest of /tmp (and not the agent's to write): the agent's
      // temporary files go to its own fresh /tmp.
      environment: (env) => ({ ...agentEnvironment(env, passEnv), ...(env["TMPDIR"] !== undefined ? { TMPDIR: "/tmp" } : {}) }),
      // Mapped to the harness's own uid outside a user namespace, or nobody when the harness is root.
      agentUid: confinedUid(bwrap),
      treeFor: (policy, extra = []) =>
        toolTree(policy, [...(bwrap.dropTo ? [{ from: bwrap.dropTo.setpriv, to: SETPRIV_IN_TREE }] : []), ...extra]) ?? ok(null),
    });
  if (kind === "auto") return ok(NO_SANDBOX);
  return err(noBwrap());
}

/**
 * What a run says at its start when its external agent will run unconfined (null when it is confined or runs
 * in-process): said then, and not only in the summary, so that nobody finds out after a long run.
 */
export function unconfinedWarning(config: RunConfig, probe: () => BwrapSupport | null = probeBwrap): string | null {
  if (config.agent === "explorer" || config.agent === "human") return null;
  if (config.sandbox === "none")
    return "--sandbox none: the agent runs unconfined; it can read and change whatever you can, the run's master log included";
  if (config.sandbox === "auto" && probe() === null)
    return "bubblewrap is not installed (or cannot build a sandbox here), so the agent runs unconfined; it can read and change whatever you can (fix: apt-get install bubblewrap, or pass --sandbox none to choose this)";
  return null;
}

/**
 * The bubblewrap command line. Mount order matters: the tmpfs layers first, then the writable binds and the
 * kept paths on top of them, then the hidden layers are made read-only (binds on top keep their own flags),
 * so a write outside the workspace fails instead of landing in a throwaway tmpfs.
 */
export function bwrapArgv(
  bwrap: BwrapSupport,
  argv: readonly string[],
  dirs: SandboxDirs,
  binds: SandboxBinds = NO_BINDS,
): string[] {
  // A restricted tool level's sandbox holds only its tree: nothing of the user's directories is shown there.
  if (dirs.tree) return treeArgv(bwrap, argv, dirs, dirs.tree);
  const hidden = hiddenDirs(dirs.workspace, bwrap.dropTo ? closedAncestors : () => []);
  const out = [bwrap.bin, ...isolationFlags(bwrap), "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];
  // A mount inside a cover needs the directories above it made; made searchable, so an agent that is not their
  // owner (nobody, under root) can reach its workspace, HOME and CLI by their paths.
  const made = new Set<string>();
  const parents = (path: string, covers: readonly string[]) => {
    for (const dir of dirsBetween(covers, path)) if (!made.has(dir)) out.push("--perms", "0755", "--dir", dir), made.add(dir);
  };
  // /tmp writable by anyone (with the sticky bit), as on the host: the agent may not be its owner.
  const cover = (h: string, above: readonly string[]) => {
    parents(h, above);
    out.push(...(h === "/tmp" ? ["--perms", "1777"] : []), "--tmpfs", h);
  };
  hidden.forEach((h, i) => cover(h, hidden.slice(0, i)));
  const bind = (how: "--bind" | "--ro-bind" | "--ro-bind-try", path: string) => {
    parents(path, hidden);
    out.push(how, path, path);
  };
  // The user's directories, where a cover hides them: the project (read-only unless --bind), then every cover
  // inside one of them laid again — the runs root above all, so a project holding runs/ never shows the master
  // logs. Nothing inside the runs root itself is shown: that is other runs' (and this run's own) bookkeeping.
  const runs = runsRootOf(dirs.workspace);
  const allowed = (d: string) => !isInside(d, runs);
  // Read-only places are shown only where a cover hides them (the rest of the system is read-only already).
  const readWrite = binds.readWrite.filter(allowed);
  const readOnly = binds.readOnly.filter(
    (d) => allowed(d) && hidden.some((h) => isInside(d, h)) && !readWrite.some((w) => isInside(d, w)),
  );
  for (const d of readOnly) bind("--ro-bind-try", d);
  for (const d of readWrite) bind("--bind", d);
  const again = hidden.filter((h) => [...readOnly, ...readWrite].some((d) => isInside(h, d) && h !== d));
  for (const h of again) {
    for (const m of [...made]) if (isInside(m, h)) made.delete(m);
    cover(
      h,
      hidden.filter((x) => x !== h),
    );
  }
  if (dirs.onlyWritableFiles) {
    bind("--ro-bind", dirs.workspace);
    for (const f of dirs.onlyWritableFiles) out.push("--bind", f, f);
  } else bind("--bind", dirs.workspace);
  for (const w of dirs.writable ?? []) bind("--bind", w);
  for (const k of dirs.keep ?? []) {
    if (hidden.some((h) => isInside(k, h))) bind("--ro-bind", k);
  }
  for (const h of hidden) if (h !== "/tmp") out.push("--remount-ro", h);
  out.push("--chdir", dirs.workspace, ...(bwrap.dropTo ? dropArgv(bwrap.dropTo) : []), ...argv);
  return out;
}

/**
 * The bubblewrap command line of a restricted tool level: the tree's files (read-only), a fresh /tmp, and the
 * workspace as bwrapArgv binds it; nothing of the host besides (sandbox/bwrap.ts's treeArgv).
 */
function treeArgv(bwrap: BwrapSupport, argv: readonly string[], dirs: SandboxDirs, tree: ToolTree): string[] {
  const mounts: TreeMount[] = [...tree.binds];
  if (dirs.onlyWritableFiles) {
    mounts.push({ from: dirs.workspace, to: dirs.workspace });
    for (const f of dirs.onlyWritableFiles) mounts.push({ from: f, to: f, writable: true });
  } else mounts.push({ from: dirs.workspace, to: dirs.workspace, writable: true });
  for (const w of dirs.writable ?? []) mounts.push({ from: w, to: w, writable: true });
  return sandboxTreeArgv(bwrap, argv, mounts, { chdir: dirs.workspace });
}

/** The directories strictly between the innermost cover holding `path` and `path`, outermost first. */
function dirsBetween(hidden: readonly string[], path: string): string[] {
  const cover = hidden.filter((h) => h !== path && isInside(path, h)).sort((a, b) => b.length - a.length)[0];
  if (cover === undefined) return [];
  const out: string[] = [];
  for (let d = dirname(path); d !== cover && d.length > cover.length; d = dirname(d)) out.unshift(d);
  return out;
}

/**
 * The workspace's ancestors that others may not enter (no search bit for others), outermost first: an agent
 * that is not root could not reach its workspace through them, so they are covered too (and what is in them
 * was not others' to see). /tmp and the homes are covered anyway.
 */
export function closedAncestors(workspace: string): string[] {
  const out: string[] = [];
  for (let d = dirname(workspace); d !== dirname(d); d = dirname(d)) {
    try {
      if ((statSync(d).mode & 0o001) === 0) out.unshift(d);
    } catch {
      // a missing ancestor: bwrap reports it
    }
  }
  return out;
}

/**
 * Hands the agent's places to `uid` before a turn (the harness runs as root, the agent as `uid`), so that it
 * owns them as it would under a harness run by a user: the workspace with what the harness wrote in it (the
 * copy of the log stays its to read and, as anywhere, to tamper with: the harness checks it), each writable
 * directory, each single writable file. The roots' entries are looked at every turn (the harness writes new
 * files there); below them only what is not the agent's already is descended (what the agent made is its
 * own). Links are changed themselves and never followed, and a file with a second name (a hard link) is left
 * alone, so nothing the agent planted can point the change elsewhere. Best effort: what cannot be changed the
 * agent finds read-only.
 */
export function handOver(dirs: SandboxDirs, uid: number): void {
  const give = (path: string, root: boolean) => {
    let st: Stats;
    try {
      st = lstatSync(path);
      // A file with another name elsewhere is not handed over: changing its owner would change that file's too
      // (the harness records such a link as a tamper and replaces it).
      if (!st.isDirectory() && st.nlink > 1) return;
      const mine = st.uid === uid && st.gid === uid;
      if (!mine) lchownSync(path, uid, uid);
      if (mine && !root) return;
    } catch {
      return;
    }
    if (!st.isDirectory()) return;
    let names: string[] = [];
    try {
      names = readdirSync(path);
    } catch {
      return;
    }
    for (const name of names) give(join(path, name), false);
  };
  if (dirs.onlyWritableFiles) for (const f of dirs.onlyWritableFiles) give(f, false);
  else give(dirs.workspace, true);
  for (const w of dirs.writable ?? []) give(w, true);
}

/**
 * What the agent must not see: /tmp (other runs and tests live there; it gets a fresh writable one), the
 * home directories, and the runs root, i.e. runs/ above runs/<stamp>/<game>/workspace. Were the runs root
 * `/`, the stamp directory is hidden instead.
 */
export function hiddenDirs(workspace: string, closed: (workspace: string) => string[] = () => []): string[] {
  const runs = runsRootOf(workspace);
  // Parents before children: bwrap mounts in order. `/` itself is never covered (a workspace at the top).
  const covers = ["/tmp", ...HOMES];
  const all = runs === "/" || covers.includes(runs) ? covers : [...covers, runs];
  // Closed ancestors not already inside a cover, before the runs root (they hold it).
  const extra = closed(workspace).filter((d) => !all.some((c) => isInside(d, c)));
  return [...covers, ...extra, ...all.slice(covers.length)].filter((d, i, a) => a.indexOf(d) === i);
}

/** runs/ above runs/<stamp>/<game>/workspace (the stamp directory were that `/`). */
export function runsRootOf(workspace: string): string {
  const stampDir = dirname(dirname(workspace));
  const root = dirname(stampDir);
  return root === "/" ? stampDir : root;
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
