// What exists in the sandbox of a restricted tool level: a tree holding only the level's programs (in
// /usr/bin, with /bin pointing there) and exactly the shared libraries and data they load — nothing else of
// the host. A level is then enforced by what can be run at all, not by reading the command: no shell trick
// can start python3 or grep at `--tools read`, because no python3 or grep is there. The mini agent's
// command check (mini/shell-check.ts) stays as an early, friendly refusal; this is what holds.
//
// The programs are the host's own (found in the system directories, never in a home or a pyenv shim),
// bound read-only; their libraries come from the dynamic loader's own list (ldd). Python brings its
// standard library and the system's site packages (numpy): those hold modules, not programs.
import { existsSync, readdirSync, realpathSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";
import { librariesOf } from "../sandbox/elf-needs.ts";
import { programsFor } from "./mini/shell-check.ts";
import type { ToolPolicy } from "./tool-ladder.ts";

/** One read-only bind: the host file `from` (links resolved) seen at `to` in the sandbox. */
export interface TreeBind {
  readonly from: string;
  readonly to: string;
}

export interface ToolTree {
  /** Every file and directory the sandbox holds besides /dev, /proc, /tmp and the workspace. */
  readonly binds: readonly TreeBind[];
  /** The names on PATH (/usr/bin), for messages and tests. */
  readonly programs: readonly string[];
}

/** Where the level's programs are, inside the sandbox (PATH is this alone). */
export const TOOL_DIR = "/usr/bin";

/** The system's program directories, searched in this order: never a home, a shim or the caller's PATH. */
const SYSTEM_DIRS = ["/usr/local/bin", "/usr/bin", "/bin"];

/** The shell every level has (mini runs each command with bash -c; scripts such as egrep name /bin/sh). */
const SHELLS = ["bash", "sh"];

/** Data the loader and the C library read: the library cache, and the C.UTF-8 locale. */
const LOADER_DATA = ["/etc/ld.so.cache", "/usr/lib/locale/C.utf8"];

/** The programs a level holds: a shell and the level's tools; null at level all (the whole system is there). */
export function treePrograms(p: ToolPolicy): readonly string[] | null {
  const listed = programsFor(p);
  return listed === "any" ? null : [...SHELLS, ...listed];
}

const cache = new Map<string, Result<ToolTree, ProlongError>>();

/**
 * The tree of a restricted level (built once per process and level). `extra` are programs the sandbox needs
 * for itself, bound off PATH (setpriv, which drops root; it cannot raise privileges); their libraries come along.
 */
export function toolTree(p: ToolPolicy, extra: readonly TreeBind[] = []): Result<ToolTree, ProlongError> | null {
  const programs = treePrograms(p);
  if (programs === null) return null;
  const key = `${programs.join(",")}|${extra.map((e) => `${e.from}>${e.to}`).join(",")}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const built = buildTree(programs, extra);
  cache.set(key, built);
  return built;
}

function buildTree(programs: readonly string[], extra: readonly TreeBind[]): Result<ToolTree, ProlongError> {
  const binds = new Map<string, string>(); // to -> from
  const elves: string[] = extra.map((e) => e.from);
  const found: string[] = [];
  for (const name of programs) {
    const path = systemProgram(name);
    if (path === null) {
      // A shell and the reading tools must be there; grep or python missing on the host just leaves it out.
      if (SHELLS.includes(name) || name === "cat")
        return err(
          prolongError("no-tools", `the tool level needs ${name}, found in none of ${SYSTEM_DIRS.join(", ")}`, {
            fix: `install it (on Debian: apt-get install coreutils bash), or run with --tools all`,
          }),
        );
      continue;
    }
    const real = realpathSync(path);
    binds.set(join(TOOL_DIR, name), real);
    found.push(name);
    elves.push(real);
  }
  for (const e of extra) binds.set(e.to, realpathSync(e.from));
  // /bin/sh for scripts (egrep, fgrep) and shebangs: the shell already in the tree.
  const sh = binds.get(join(TOOL_DIR, "sh")) ?? binds.get(join(TOOL_DIR, "bash"));
  if (sh) binds.set("/bin/sh", sh);
  const python = found.includes("python3") ? binds.get(join(TOOL_DIR, "python3")) : undefined;
  if (python) {
    for (const dir of pythonDirs(basename(python))) {
      binds.set(dir, dir);
      elves.push(...sharedObjects(dir));
    }
  }
  const libs = librariesOf(elves);
  if (libs.isErr()) return err(libs.error);
  for (const lib of libs.value) binds.set(lib, realpathSync(lib));
  for (const d of LOADER_DATA) if (existsSync(d)) binds.set(d, d);
  return ok({ binds: [...binds].map(([to, from]) => ({ from, to })), programs: found });
}

/** A program's path in the system directories, or null. */
function systemProgram(name: string): string | null {
  for (const d of SYSTEM_DIRS) {
    const p = join(d, name);
    try {
      if (statSync(p).isFile()) return p;
    } catch {
      // not here
    }
  }
  return null;
}

/** Python's standard library and site packages for the interpreter named `version` (python3.11). */
function pythonDirs(version: string): string[] {
  const v = /^python\d+\.\d+$/.test(version) ? version : "python3";
  return [`/usr/lib/${v}`, "/usr/lib/python3/dist-packages", `/usr/local/lib/${v}`].filter((d) => existsSync(d));
}

/** The .so files below a directory (Python's extension modules): their libraries must be in the tree too. */
function sharedObjects(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, depth: number) => {
    if (depth > 12) return;
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const n of names) {
      const p = join(d, n);
      let st: ReturnType<typeof statSync>;
      try {
        st = statSync(p);
      } catch {
        continue;
      }
      if (st.isDirectory()) walk(p, depth + 1);
      else if (n.endsWith(".so") || n.includes(".so.")) out.push(p);
    }
  };
  walk(dir, 0);
  return out;
}

/** `tree` with these host directories bound read-only where they are (the observe server's files). */
export function withDirs(tree: ToolTree, dirs: readonly string[]): ToolTree {
  if (dirs.length === 0) return tree;
  return { ...tree, binds: [...tree.binds, ...dirs.map((d) => ({ from: d, to: d }))] };
}
