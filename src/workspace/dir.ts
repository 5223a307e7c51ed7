// THE one primitive through which the harness touches the agent's directory. Every file is reached as
// `/proc/self/fd/<held directory descriptor>/<name>`: the kernel resolves the descriptor to the directory the
// harness opened (whatever the agent did to the path since) and looks up one name in it, so this is
// openat(2) from Bun — no path component the agent controls is ever followed. On top of that: O_NOFOLLOW on
// the name itself, lstat before and fstat after every open (regular files only, one link only), non-blocking
// opens (a FIFO cannot hang the harness), size caps on every read, and writes by a fresh temp file renamed
// over the name (a symlink or hard link at the name is replaced, never written through).
//
// What is found instead of a regular file is reported as a WorkspaceTamper for the caller to record and
// repair; only real I/O failures (disk full, permissions) are errors. Linux only (/proc is required).
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  renameSync,
  rmdirSync,
  unlinkSync,
  writeSync,
  type Stats,
} from "node:fs";
import { randomUUID } from "node:crypto";
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";

/** How a name in the workspace is not what the harness left there. */
export type TamperKind =
  | "appended"
  | "truncated"
  | "edited"
  | "deleted"
  | "symlink"
  | "directory"
  | "read-only"
  | "hardlink"
  | "not-a-file"
  | "fifo"
  | "device"
  | "socket"
  | "oversized"
  /** A logs.txt the harness did not write (the no-log arm, or before the first sync). */
  | "unexpected"
  /** The workspace directory itself was removed, moved or replaced. */
  | "replaced";

export interface WorkspaceTamper {
  /** The name in the workspace ("AGENTS.md", "actions.json"), or "." for the directory itself. */
  readonly file: string;
  readonly kind: TamperKind;
  readonly detail: string;
}

/** What lstat found at a name, without following anything. */
export type Entry =
  | { readonly kind: "missing" }
  | { readonly kind: "file"; readonly size: number; readonly links: number; readonly ino: number; readonly mode: number }
  | {
      readonly kind: Exclude<
        TamperKind,
        "appended" | "truncated" | "edited" | "deleted" | "read-only" | "hardlink" | "oversized" | "unexpected" | "replaced"
      >;
    };

/** A regular file's bytes, or why it was not read. */
export type ReadOutcome =
  | { readonly kind: "missing" }
  | { readonly kind: "read"; readonly bytes: Uint8Array }
  | { readonly kind: "tamper"; readonly tamper: WorkspaceTamper };

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;
const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

export class WorkspaceDir {
  private constructor(
    /** The workspace's path: for the agent's cwd and for messages. Never used to reach a file. */
    readonly path: string,
    private fd: number,
    private ino: number,
    private dev: number,
  ) {}

  /** Opens (creating when missing) the workspace directory and holds it. */
  static open(path: string): Result<WorkspaceDir, ProlongError> {
    const held = holdDir(path);
    return held.map(({ fd, st }) => new WorkspaceDir(path, fd, st.ino, st.dev));
  }

  /** The path that reaches `name` inside the held directory. `name` is one component, never the agent's. */
  at(name: string): string {
    if (name === "" || name === "." || name === ".." || name.includes("/") || name.includes("\0")) {
      throw new Error(`WorkspaceDir.at: '${name}' is not a single file name`);
    }
    return `/proc/self/fd/${this.fd}/${name}`;
  }

  /**
   * Checks that the workspace path still names the held directory; if the agent removed, moved or replaced
   * it, a fresh directory is made at the path (whatever stood there removed, never followed) and held.
   */
  reattach(): Result<WorkspaceTamper | null, ProlongError> {
    let st: Stats | null = null;
    try {
      st = lstatSync(this.path);
    } catch (e) {
      if (code(e) !== "ENOENT") return err(ioError("inspect", this.path, e));
    }
    if (st && st.isDirectory() && st.ino === this.ino && st.dev === this.dev) return ok(null);
    const detail =
      st === null
        ? "the workspace directory was deleted; a fresh one was made"
        : st.isSymbolicLink()
          ? `the workspace was replaced by a symlink to ${safeReadlink(this.path)}; a fresh directory was made`
          : st.isDirectory()
            ? "the workspace was replaced by another directory; the harness now uses that one"
            : "the workspace was replaced by something that is not a directory; a fresh directory was made";
    if (st !== null && !st.isDirectory()) {
      try {
        unlinkSync(this.path);
      } catch (e) {
        return err(ioError("remove", this.path, e));
      }
    }
    const held = holdDir(this.path);
    if (held.isErr()) return err(held.error);
    closeSync(this.fd);
    this.fd = held.value.fd;
    this.ino = held.value.st.ino;
    this.dev = held.value.st.dev;
    return ok({ file: ".", kind: "replaced", detail });
  }

  /** What is at `name`, by lstat (never followed). */
  entry(name: string): Result<Entry, ProlongError> {
    let st: Stats;
    try {
      st = lstatSync(this.at(name));
    } catch (e) {
      if (code(e) === "ENOENT") return ok({ kind: "missing" });
      return err(ioError("inspect", this.shown(name), e, name));
    }
    return ok(entryOf(st));
  }

  /**
   * Reads `name` when it is a regular file with one link and at most `cap` bytes; anything else is a
   * tamper (nothing is opened that is not a regular file, and the open cannot block).
   */
  read(name: string, cap: number): Result<ReadOutcome, ProlongError> {
    const before = this.entry(name);
    if (before.isErr()) return err(before.error);
    const e = before.value;
    if (e.kind === "missing") return ok({ kind: "missing" });
    if (e.kind !== "file") return ok({ kind: "tamper", tamper: structural(name, e.kind, this.at(name)) });
    if (e.links > 1)
      return ok({
        kind: "tamper",
        tamper: { file: name, kind: "hardlink", detail: `${name} has ${e.links} names (hard links)` },
      });
    if (e.size > cap) return ok({ kind: "tamper", tamper: oversized(name, e.size, cap) });
    let fd: number;
    try {
      fd = openSync(this.at(name), READ_FLAGS);
    } catch (err_) {
      const c = code(err_);
      if (c === "ENOENT") return ok({ kind: "missing" });
      if (c === "ELOOP")
        return ok({
          kind: "tamper",
          tamper: { file: name, kind: "symlink", detail: `${name} became a symlink while being opened` },
        });
      if (c === "EACCES" || c === "EPERM")
        return ok({ kind: "tamper", tamper: { file: name, kind: "read-only", detail: `${name} cannot be read (${c})` } });
      return err(ioError("open", this.shown(name), err_, name));
    }
    try {
      const st = fstatSync(fd);
      // The file opened must be the one inspected: a swap between lstat and open is caught here.
      if (!st.isFile() || st.ino !== e.ino)
        return ok({ kind: "tamper", tamper: { file: name, kind: "not-a-file", detail: `${name} changed while being opened` } });
      if (st.nlink > 1)
        return ok({
          kind: "tamper",
          tamper: { file: name, kind: "hardlink", detail: `${name} has ${st.nlink} names (hard links)` },
        });
      // One byte more than the cap: a file that grows past it while being read is refused, not truncated.
      const buf = new Uint8Array(Math.min(st.size, cap) + 1);
      let got = 0;
      while (got < buf.length) {
        const n = readSync(fd, buf, got, buf.length - got, got);
        if (n === 0) break;
        got += n;
      }
      if (got > cap) return ok({ kind: "tamper", tamper: oversized(name, got, cap) });
      return ok({ kind: "read", bytes: buf.subarray(0, got) });
    } catch (e2) {
      return err(ioError("read", this.shown(name), e2, name));
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Writes `bytes` as `name`: a fresh temp file in the workspace renamed over whatever is there (a
   * directory at the name is removed first). Links at the name are replaced, never written through.
   */
  replace(name: string, bytes: Uint8Array | string, mode = 0o644): Result<void, ProlongError> {
    const data = typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes;
    const cleared = this.removeDirectoryAt(name);
    if (cleared.isErr()) return cleared;
    // An unguessable name, so an agent cannot pre-plant anything there (O_EXCL would refuse it anyway).
    const tmp = this.at(`.${name}.prolong-${randomUUID()}.tmp`);
    try {
      const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
      try {
        let done = 0;
        while (done < data.length) done += writeSync(fd, data, done, data.length - done);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, this.at(name));
    } catch (e) {
      try {
        unlinkSync(tmp);
      } catch {
        /* it may not exist */
      }
      return err(ioError("write", this.shown(name), e, name));
    }
    return ok(undefined);
  }

  /** Removes whatever is at `name` (a directory with everything in it; links themselves, never targets). */
  remove(name: string): Result<boolean, ProlongError> {
    const e = this.entry(name);
    if (e.isErr()) return err(e.error);
    if (e.value.kind === "missing") return ok(false);
    try {
      if (e.value.kind === "directory") removeTree(`/proc/self/fd/${this.fd}`, name);
      else unlinkSync(this.at(name));
    } catch (err_) {
      if (code(err_) !== "ENOENT") return err(ioError("remove", this.shown(name), err_, name));
    }
    return ok(true);
  }

  /** The names in the workspace. */
  list(): Result<string[], ProlongError> {
    try {
      return ok(readdirSync(`/proc/self/fd/${this.fd}`));
    } catch (e) {
      return err(ioError("list", this.path, e));
    }
  }

  /** `name` under the workspace's path, for messages only. */
  shown(name: string): string {
    return `${this.path}/${name}`;
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }

  private removeDirectoryAt(name: string): Result<void, ProlongError> {
    const e = this.entry(name);
    if (e.isErr()) return err(e.error);
    if (e.value.kind !== "directory") return ok(undefined);
    return this.remove(name).map(() => undefined);
  }
}

/**
 * Removes the directory `name` in `parent` (a /proc/self/fd path) and everything in it, in time linear in
 * the tree and with one descriptor open at a time: each directory is opened by the held path plus one name,
 * its files unlinked and its subdirectories renamed up beside it to be emptied in turn, so no lookup walks
 * the tree's depth (a path-based recursive remove resolves every ancestor again for every entry: depth 4000
 * took 86 s). Links are removed, never followed. Runs between turns, when no process of the agent is left.
 */
function removeTree(parent: string, name: string): void {
  const work = [name];
  while (work.length > 0) {
    const n = work.pop()!;
    const fd = openSync(`${parent}/${n}`, DIR_FLAGS);
    try {
      const here = `/proc/self/fd/${fd}`;
      for (const entry of readdirSync(here)) {
        if (!lstatSync(`${here}/${entry}`).isDirectory()) {
          unlinkSync(`${here}/${entry}`);
          continue;
        }
        const moved = `.prolong-removing-${randomUUID()}`;
        renameSync(`${here}/${entry}`, `${parent}/${moved}`);
        work.push(moved);
      }
    } finally {
      closeSync(fd);
    }
    rmdirSync(`${parent}/${n}`);
  }
}

function holdDir(path: string): Result<{ fd: number; st: Stats }, ProlongError> {
  try {
    mkdirSync(path, { recursive: true });
    const fd = openSync(path, DIR_FLAGS);
    return ok({ fd, st: fstatSync(fd) });
  } catch (e) {
    return err(ioError("open", path, e));
  }
}

/** What an lstat result is, in the workspace's terms (also used by `prolong verify <run-dir>`). */
export function entryOf(st: Stats): Entry {
  if (st.isSymbolicLink()) return { kind: "symlink" };
  if (st.isDirectory()) return { kind: "directory" };
  if (st.isFIFO()) return { kind: "fifo" };
  if (st.isCharacterDevice() || st.isBlockDevice()) return { kind: "device" };
  if (st.isSocket()) return { kind: "socket" };
  if (!st.isFile()) return { kind: "not-a-file" };
  return { kind: "file", size: st.size, links: st.nlink, ino: st.ino, mode: st.mode };
}

/** The tamper for a name that is there but is not a regular file. */
export function structural(name: string, kind: Exclude<Entry["kind"], "file" | "missing">, path: string): WorkspaceTamper {
  const what: Record<typeof kind, string> = {
    symlink: `a symlink to ${safeReadlink(path)}`,
    directory: "a directory",
    fifo: "a FIFO (named pipe)",
    device: "a device node",
    socket: "a socket",
    "not-a-file": "something that is not a regular file",
  };
  return { file: name, kind, detail: `${name} is ${what[kind]}` };
}

function oversized(name: string, size: number, cap: number): WorkspaceTamper {
  return { file: name, kind: "oversized", detail: `${name} holds ${size} bytes, more than the ${cap} the harness reads` };
}

function safeReadlink(path: string): string {
  try {
    return JSON.stringify(readlinkSync(path).slice(0, 200));
  } catch {
    return "(unreadable)";
  }
}

function code(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException).code;
}

/** An I/O failure in the workspace: disk full and permissions get their own fix. */
export function ioError(what: string, path: string, e: unknown, name?: string): ProlongError {
  const c = code(e);
  const fix =
    c === "ENOSPC" || c === "EDQUOT"
      ? "the disk is full: free space, then `prolong resume` the run"
      : c === "EROFS" || c === "EACCES" || c === "EPERM"
        ? "make the run directory writable for the harness, then `prolong resume` the run"
        : "check that the workspace exists and the harness can write to it, then `prolong resume` the run";
  return prolongError("workspace-io", `cannot ${what} ${name ?? "the workspace"}: ${(e as Error).message}`, { path, fix });
}
