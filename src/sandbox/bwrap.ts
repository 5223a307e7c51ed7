// The bubblewrap primitives every confined process is started with — an external agent (agent/sandbox.ts)
// and a game's own process (NetHack, game/nethack/confine.ts): whether bwrap can build a sandbox here and
// how, the flags that take a process's privileges away, and the command line of a sandbox that holds only
// what it is given (a tree: no host system behind it).
//
// Root is the dangerous case (most containers): bwrap run by root leaves the sandboxed process every
// capability unless told otherwise, and with CAP_SYS_ADMIN it can unmount the covers and remount / writable.
// So the process always loses every capability (--cap-drop ALL), gets its own pid namespace, and dies with
// the harness. Run by a user, bwrap gives it a user namespace with an unprivileged uid inside, mapped to that
// user outside. Run by root, such a namespace maps the process to root outside, and files are checked against
// the outside uid: it could read every file root owns (/etc/shadow, private keys) with no capability at all.
// So as root the process leaves root for good: bwrap builds the sandbox as root, then `setpriv` (util-linux)
// makes it `nobody` (AGENT_UID_AS_ROOT), with no capabilities and no way back (bwrap sets no_new_privs:
// setuid programs do not raise it).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";

/** What the probe found this bwrap can do here. */
export interface BwrapSupport {
  readonly bin: string;
  /** --unshare-user works (user namespaces are allowed): the process runs as SANDBOX_UID inside. */
  readonly userns: boolean;
  /**
   * The harness runs as root and the process is made AGENT_UID_AS_ROOT by this setpriv (then `userns` is not
   * used: a user namespace made by root maps the process to root outside).
   */
  readonly dropTo?: { readonly setpriv: string; readonly uid: number };
}

/** The uid and gid a process has inside the sandbox's user namespace: not 0, so nothing treats it as root. */
export const SANDBOX_UID = 1000;

/** The uid and gid a confined process gets when the harness runs as root: `nobody`, which owns no file. */
export const AGENT_UID_AS_ROOT = 65534;

/** Where setpriv (the drop from root to nobody) is bound in a tree: off PATH, not a program of the tree's own. */
export const SETPRIV_IN_TREE = "/.prolong/setpriv";

/** How a sandbox is cut off besides its privileges. */
export interface Isolation {
  /** Its own network namespace (no interface but loopback): a game needs no network; a coding CLI needs its model API. */
  readonly offline: boolean;
  /**
   * Its own session (setsid): no TIOCSTI into the harness's terminal. A game on a terminal of its own keeps
   * that terminal as its controlling one instead.
   */
  readonly newSession: boolean;
}

/** An external agent's: its model API reachable, its own session. */
export const AGENT_ISOLATION: Isolation = { offline: false, newSession: true };

/** A program on PATH, or null. */
function onPath(name: string): string | null {
  for (const d of (process.env["PATH"] ?? "").split(delimiter)) {
    if (d === "") continue;
    const candidate = join(d, name);
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

let probed: BwrapSupport | null | undefined;

/**
 * The bwrap executable if it can actually build a sandbox on this machine, and how (checked once per process):
 * as root, with the process made `nobody` by setpriv; otherwise with a user namespace where the kernel allows one.
 */
export function probeBwrap(): BwrapSupport | null {
  if (probed !== undefined) return probed;
  const bin = onPath("bwrap");
  probed = null;
  if (bin !== null) {
    // The flags every sandbox uses (--perms needs bwrap 0.5 or later), and the drop to nobody when asked.
    const works = (support: BwrapSupport) => {
      const base = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--perms", "1777", "--tmpfs", "/tmp"];
      const argv = [...isolationFlags(support), ...base, ...(support.dropTo ? dropArgv(support.dropTo) : []), "true"];
      return spawnSync(bin, argv, { stdio: "ignore", timeout: 10_000 }).status === 0;
    };
    const setpriv = process.getuid?.() === 0 ? onPath("setpriv") : null;
    const dropped = setpriv ? { bin, userns: false, dropTo: { setpriv, uid: AGENT_UID_AS_ROOT } } : null;
    if (dropped && works(dropped)) probed = dropped;
    else if (works({ bin, userns: true })) probed = { bin, userns: true };
    else if (works({ bin, userns: false })) probed = { bin, userns: false };
  }
  return probed;
}

/** --sandbox bwrap where bubblewrap cannot build a sandbox: said alike for an agent and a game's own process. */
export function noBwrap(): ProlongError {
  return prolongError("no-sandbox", "--sandbox bwrap: bubblewrap is not installed or cannot create a sandbox here", {
    fix: "install it (apt-get install bubblewrap; it needs unprivileged user namespaces or root), or pass --sandbox none",
  });
}

/**
 * The sandbox a game's own process (NetHack) runs in for a run's --sandbox: bwrap where it works here, none
 * under `none` (and `auto` without it); `bwrap` without it is an error, as for an agent.
 */
export function gameSandbox(
  setting: "auto" | "bwrap" | "none",
  probe: () => BwrapSupport | null = probeBwrap,
): Result<BwrapSupport | null, ProlongError> {
  if (setting === "none") return ok(null);
  const bwrap = probe();
  return bwrap === null && setting === "bwrap" ? err(noBwrap()) : ok(bwrap);
}

/** The uid a sandboxed process runs as, seen from outside: nobody under root, else the harness's own. */
export function confinedUid(bwrap: BwrapSupport): number {
  return bwrap.dropTo ? bwrap.dropTo.uid : (process.getuid?.() ?? 0);
}

/** The uid a sandboxed process sees itself as: nobody under root, SANDBOX_UID in a user namespace, else its own. */
export function uidInside(bwrap: BwrapSupport): number {
  if (bwrap.dropTo) return bwrap.dropTo.uid;
  return bwrap.userns ? SANDBOX_UID : (process.getuid?.() ?? 0);
}

/** The flags that take a sandboxed process's privileges away, whoever runs the harness. */
export function isolationFlags(bwrap: BwrapSupport, how: Isolation = AGENT_ISOLATION): string[] {
  // Dropping to nobody keeps four until setpriv, which loses them (and every other) as it leaves root: two to
  // change ids, one to empty the bounding set, and one to search directories, for bwrap's own chdir into a
  // directory that is now nobody's.
  const user = bwrap.dropTo
    ? [
        "--cap-drop",
        "ALL",
        ...["CAP_SETUID", "CAP_SETGID", "CAP_SETPCAP", "CAP_DAC_READ_SEARCH"].flatMap((c) => ["--cap-add", c]),
      ]
    : [
        ...(bwrap.userns ? ["--unshare-user", "--uid", String(SANDBOX_UID), "--gid", String(SANDBOX_UID)] : []),
        "--cap-drop",
        "ALL",
      ];
  return [
    ...user,
    "--unshare-pid",
    "--unshare-ipc",
    ...(how.offline ? ["--unshare-net"] : []),
    "--die-with-parent",
    ...(how.newSession ? ["--new-session"] : []),
  ];
}

/** setpriv's command line that makes the rest run as `uid`, with no groups and no capabilities, none left to gain. */
export function dropArgv(drop: NonNullable<BwrapSupport["dropTo"]>): string[] {
  const ids = [`--reuid=${drop.uid}`, `--regid=${drop.uid}`, "--clear-groups"];
  return [drop.setpriv, ...ids, "--inh-caps=-all", "--bounding-set=-all", "--"];
}

/** One mount of a tree: the host path `from` seen at `to` in the sandbox, read-only unless `writable`. */
export interface TreeMount {
  readonly from: string;
  readonly to: string;
  readonly writable?: boolean;
}

/**
 * The command line of a sandbox holding only `mounts` (in order: a later mount lies over an earlier one), with
 * /dev, /proc and (unless `tmp` is false) a fresh /tmp; then its root is made read-only, so nothing is
 * writable but the writable mounts. Nothing of the host is there but what the mounts name: no other program,
 * no runs directory, no home. As root the process is dropped to nobody by a setpriv bound at SETPRIV_IN_TREE
 * (the caller puts it among the mounts).
 */
export function treeArgv(
  bwrap: BwrapSupport,
  argv: readonly string[],
  mounts: readonly TreeMount[],
  opts: { readonly chdir: string; readonly isolation?: Isolation; readonly tmp?: boolean },
): string[] {
  const out = [bwrap.bin, ...isolationFlags(bwrap, opts.isolation), "--dev", "/dev", "--proc", "/proc"];
  if (opts.tmp !== false) out.push("--perms", "1777", "--tmpfs", "/tmp");
  // The directories above each mount made first, searchable: the process (nobody, under root) must reach them.
  const made = new Set<string>(["/", "/dev", "/proc", ...(opts.tmp !== false ? ["/tmp"] : [])]);
  const parents = (path: string) => {
    const chain: string[] = [];
    for (let d = dirname(path); !made.has(d); d = dirname(d)) chain.unshift(d);
    for (const d of chain) out.push("--perms", "0755", "--dir", d), made.add(d);
  };
  for (const m of mounts) parents(m.to), out.push(m.writable ? "--bind" : "--ro-bind", m.from, m.to);
  out.push("--remount-ro", "/", "--chdir", opts.chdir);
  if (bwrap.dropTo) out.push(...dropArgv({ ...bwrap.dropTo, setpriv: SETPRIV_IN_TREE }));
  return [...out, ...argv];
}
