// NetHack inside a sandbox of its own (the run's --sandbox: bubblewrap when it works here). The game is driven
// by the agent's keys, so it runs as the agent would: as nobody when the harness is root, with no
// capability, no network, and a tree that holds only the game — its binary, the seeding library, their
// shared libraries, its data read-only, a terminfo entry and a sysconf and passwd written here — and its own
// game folder, the one writable place. There is no shell in the tree: the shell escape (!) finds nothing to
// start. Everything is bound at fixed paths inside (GAME_DIR...), never at the real ones: the run directory
// may lie under directories nobody cannot enter (/root).
import { existsSync, lchownSync, lstatSync, readdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { ok, type Result } from "neverthrow";
import type { ProlongError } from "../../errors.ts";
import { type BwrapSupport, confinedUid, SETPRIV_IN_TREE, type TreeMount, treeArgv, uidInside } from "../../sandbox/bwrap.ts";
import { librariesOf } from "../../sandbox/elf-needs.ts";
import { DATA_FILES } from "./install.ts";
import { cachedText } from "./shim.ts";

/** The game folder inside the sandbox: HACKDIR, HOME and the working directory of the game. */
export const GAME_DIR = "/nethack";
/** The game's data (nhdat, symbols, license) inside the sandbox; the game folder's links point here. */
export const DATA_DIR = "/usr/lib/games/nethack";
/** The game binary inside the sandbox; its process is named after it (what the terminal watches). */
const BINARY = "/opt/prolong/nethack";
/** The process name the game has inside the sandbox (/proc/PID/comm). */
export const GAME_COMM = "nethack";
/** The seeding library inside the sandbox (LD_PRELOAD). */
export const SEED_LIBRARY = "/opt/prolong/seed.so";

/** The user the game sees itself as (a name is needed for the WIZARDS check of debug-mode tests). */
const USER = "agent";

/** Where the loader and ncurses look for what they read: the library cache and the terminal's description. */
const LOADER_CACHE = "/etc/ld.so.cache";
const TERMINFO_DIRS = ["/etc/terminfo", "/lib/terminfo", "/usr/share/terminfo"];

/**
 * sysconf, the game's system-wide options (its path is compiled in: /etc/nethack/sysconf), with the values
 * Debian ships but for who may use debug mode: only the sandbox's one user (the harness passes -D for tests;
 * the agent cannot).
 */
function sysconfText(): string {
  return [`WIZARDS=${USER}`, "EXPLORERS=*", "GENERICUSERS=play player game games nethack nethacker", "MAXPLAYERS=10", ""].join(
    "\n",
  );
}

/** What the game is started with inside the sandbox. */
export interface ConfinedGame {
  readonly argv: string[];
  /** Paths as the game sees them. */
  readonly hackdir: string;
  readonly seedLibrary: string;
  /** The uid the game runs as (outside), for the summary. */
  readonly uid: number;
}

/**
 * The sandbox's command line for the game `binary` (its plain copy) with the seeding library `shim`, its data
 * in `hackdir` and its game folder `folder` (prepared with links into DATA_DIR). The folder is handed to the
 * uid the game runs as, so it can write there and nowhere else.
 */
export function confineNethack(
  bwrap: BwrapSupport,
  parts: { readonly binary: string; readonly shim: string; readonly hackdir: string; readonly folder: string },
  args: readonly string[],
): Result<ConfinedGame, ProlongError> {
  const uid = confinedUid(bwrap);
  const setpriv = bwrap.dropTo ? realpathSync(bwrap.dropTo.setpriv) : null;
  const libs = librariesOf([parts.binary, parts.shim, ...(setpriv ? [setpriv] : [])]);
  if (libs.isErr()) return libs.map(() => undefined as never);
  const sysconf = cachedText("sysconf", sysconfText());
  if (sysconf.isErr()) return sysconf.map(() => undefined as never);
  // The game looks its user up by the uid it has inside (in a user namespace, not the one outside).
  const inside = uidInside(bwrap);
  const passwd = cachedText("passwd", `${USER}:x:${inside}:${inside}:${USER}:${GAME_DIR}:/nonexistent\n`);
  if (passwd.isErr()) return passwd.map(() => undefined as never);
  const group = cachedText("group", `${USER}:x:${inside}:\n`);
  if (group.isErr()) return group.map(() => undefined as never);
  const mounts: TreeMount[] = [
    { from: parts.binary, to: BINARY },
    { from: parts.shim, to: SEED_LIBRARY },
    ...(setpriv ? [{ from: setpriv, to: SETPRIV_IN_TREE }] : []),
    ...libs.value.map((l) => ({ from: realpathSync(l), to: l })),
    ...(existsSync(LOADER_CACHE) ? [{ from: LOADER_CACHE, to: LOADER_CACHE }] : []),
    ...terminfo().map((t) => ({ from: realpathSync(t), to: t })),
    { from: sysconf.value, to: "/etc/nethack/sysconf" },
    { from: passwd.value, to: "/etc/passwd" },
    { from: group.value, to: "/etc/group" },
    ...DATA_FILES.map((f) => ({ from: realpathSync(join(parts.hackdir, f)), to: join(DATA_DIR, f) })),
    { from: parts.folder, to: GAME_DIR, writable: true },
  ];
  if (uid !== process.getuid?.()) handTo(parts.folder, uid);
  // No /tmp: the game keeps every file in its folder. Offline; its pty stays its controlling terminal.
  const argv = treeArgv(bwrap, [BINARY, ...args], mounts, {
    chdir: GAME_DIR,
    isolation: { offline: true, newSession: false },
    tmp: false,
  });
  return ok({ argv, hackdir: GAME_DIR, seedLibrary: SEED_LIBRARY, uid });
}

/** xterm's terminfo entry (TERM=xterm), where ncurses looks for it. */
function terminfo(): string[] {
  for (const d of TERMINFO_DIRS) {
    const p = join(d, "x", "xterm");
    if (existsSync(p)) return [p];
  }
  return [];
}

/**
 * The freshly prepared game folder (only the harness's own files: it was wiped and filled just now) given to
 * the game's uid; links are changed themselves, never followed.
 */
function handTo(dir: string, uid: number): void {
  lchownSync(dir, uid, uid);
  if (!lstatSync(dir).isDirectory()) return;
  for (const name of readdirSync(dir)) handTo(join(dir, name), uid);
}

/** The summary's line on where the game ran. */
export function confinementLine(sandbox: BwrapSupport | undefined): string {
  if (sandbox === undefined)
    return `  game       NetHack ran unconfined, as the harness's user (uid ${process.getuid?.() ?? "?"}): --sandbox none, or auto without bubblewrap`;
  return `  game       NetHack ran in bubblewrap as uid ${confinedUid(sandbox)}, no network, only its game folder writable`;
}
