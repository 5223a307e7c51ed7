// THE one way prolong reads and writes a file of a run directory (run.json, events.jsonl, scorecard.json,
// summary.txt, view.html, a plan, the index's own file check): a run directory handed back to a command is
// input like any other, and anything may stand at a name in it. So, as for the agent's workspace
// (workspace/dir.ts): no link is followed (O_NOFOLLOW on the name), only a regular file is read (fstat after a
// non-blocking open: a FIFO cannot hang the command, /dev/zero cannot grow its memory), every read is capped,
// and every write goes to a fresh temp file renamed over the name (a symlink or hard link there is replaced,
// never written through). An append (events.jsonl) opens the name itself, again without following a link.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { basename, dirname, join } from "node:path";
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "./errors.ts";

/** The most prolong reads of each kind of run-directory file: far above what a run writes, far below harm. */
export const FILE_CAPS = {
  /** run.json, a plan's settings, small records. */
  settings: 1 << 20,
  /** scorecard.json: per-level rows of a NetHack lifetime at most. */
  scorecard: 16 << 20,
  /** events.jsonl of the longest run (20,000 NetHack actions, every reply's text). */
  events: 1 << 30,
  /** A plan file (its job cap keeps real plans far below). */
  plan: 64 << 20,
  /**
   * The mini agent's conversation (every reply and command output of the run, until --context-limit drops the
   * oldest) and the stateless arm's plans.txt (every turn's plan): as large as a long run's events.
   */
  conversation: 1 << 30,
  keptPlans: 1 << 30,
} as const;

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

function code(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException).code;
}

/** What stands at a name that is not a regular file, in words. */
function whatIs(st: {
  isDirectory(): boolean;
  isFIFO(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSocket(): boolean;
  isSymbolicLink(): boolean;
}): string {
  if (st.isSymbolicLink()) return "a symlink";
  if (st.isDirectory()) return "a directory";
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isSocket()) return "a socket";
  return "not a regular file";
}

const NOT_REGULAR_FIX =
  "a run directory's files are regular files that prolong wrote; remove what stands there, or restore the file";

/**
 * Is `path` a regular file (a link at the name itself not followed)? Missing is ok(false); a link, FIFO,
 * device or directory is an error naming it (for a file another library opens by name, such as the index).
 */
export function checkRegularFile(path: string, what: string): Result<boolean, ProlongError> {
  try {
    const st = lstatSync(path);
    if (st.isFile()) return ok(true);
    return err(
      prolongError("not-a-regular-file", `${what} is ${whatIs(st)}, not a regular file`, { path, fix: NOT_REGULAR_FIX }),
    );
  } catch (e) {
    if (code(e) === "ENOENT") return ok(false);
    return err(prolongError("unreadable", `cannot inspect ${what}: ${(e as Error).message}`, { path }));
  }
}

/**
 * The bytes of a regular file of at most `cap` bytes, or null when nothing is at the name. A symlink, FIFO,
 * device or directory, or a file over the cap, is an error naming it; the open never blocks.
 */
export function readFileIfPresent(path: string, cap: number, what: string): Result<Uint8Array | null, ProlongError> {
  return readOpened(path, what, (fd) => {
    const size = fstatSync(fd).size;
    if (size > cap) return err(oversized(path, what, size, cap));
    // One byte more than the cap: a file that grows past it while being read is refused, not cut.
    const buf = new Uint8Array(size + 1);
    let got = 0;
    for (;;) {
      if (got === buf.length) {
        if (got > cap) return err(oversized(path, what, got, cap));
        break;
      }
      const n = readSync(fd, buf, got, buf.length - got, null);
      if (n === 0) break;
      got += n;
    }
    return ok(buf.subarray(0, got));
  });
}

/** Part of a file: the bytes from `start` (at most the length asked) and the file's whole size. */
export interface FileRange {
  readonly size: number;
  readonly start: number;
  readonly bytes: Uint8Array;
}

/**
 * Bytes of a regular file from the range `pick` chooses once the file's size is known (a tail, or where an
 * index says a section starts), or null when nothing is at the name. Opened as readFileIfPresent opens
 * (no link followed, never blocking, only a regular file), and never more than `cap` bytes read, whatever
 * the range asks: a multi-GB log costs one bounded read, never a whole-file one.
 */
export function readFileRange(
  path: string,
  cap: number,
  what: string,
  pick: (size: number) => { start: number; length: number },
): Result<FileRange | null, ProlongError> {
  return readOpened(path, what, (fd) => {
    const size = fstatSync(fd).size;
    const want = pick(size);
    const start = Math.min(Math.max(0, Math.floor(want.start)), size);
    const length = Math.min(Math.max(0, Math.floor(want.length)), cap, size - start);
    const buf = new Uint8Array(length);
    let got = 0;
    while (got < length) {
      const n = readSync(fd, buf, got, length - got, start + got);
      if (n === 0) break;
      got += n;
    }
    return ok({ size, start, bytes: buf.subarray(0, got) });
  });
}

/**
 * `read` given the descriptor of the regular file at `path` (openRegular's checks), closed after it whatever
 * happens; null when nothing is at the name, and a failed read an error naming the file.
 */
function readOpened<T>(
  path: string,
  what: string,
  read: (fd: number) => Result<T, ProlongError>,
): Result<T | null, ProlongError> {
  const opened = openRegular(path, what);
  if (opened.isErr()) return err(opened.error);
  if (opened.value === null) return ok(null);
  const fd = opened.value;
  try {
    return read(fd);
  } catch (e) {
    return err(prolongError("unreadable", `cannot read ${what}: ${(e as Error).message}`, { path }));
  } finally {
    closeSync(fd);
  }
}

/** The descriptor of a regular file opened for reading (null when missing); anything else is refused by name. */
function openRegular(path: string, what: string): Result<number | null, ProlongError> {
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch (e) {
    const c = code(e);
    if (c === "ENOENT") return ok(null);
    if (c === "ELOOP")
      return err(
        prolongError("not-a-regular-file", `${what} is a symlink; prolong follows no link in a run directory`, {
          path,
          fix: NOT_REGULAR_FIX,
        }),
      );
    return err(prolongError("unreadable", `cannot open ${what}: ${(e as Error).message}`, { path }));
  }
  try {
    const st = fstatSync(fd);
    if (st.isFile()) return ok(fd);
    closeSync(fd);
    return err(
      prolongError("not-a-regular-file", `${what} is ${whatIs(st)}, not a regular file`, { path, fix: NOT_REGULAR_FIX }),
    );
  } catch (e) {
    closeSync(fd);
    return err(prolongError("unreadable", `cannot inspect ${what}: ${(e as Error).message}`, { path }));
  }
}

function oversized(path: string, what: string, size: number, cap: number): ProlongError {
  return prolongError("file-too-large", `${what} holds ${size} bytes, more than the ${cap} prolong reads`, {
    path,
    fix: "this is not a file prolong wrote (or it was edited); restore it",
  });
}

/** readFileIfPresent for a file that must be there: missing is an error naming it. */
export function readRegularFile(path: string, cap: number, what: string): Result<Uint8Array, ProlongError> {
  return readFileIfPresent(path, cap, what).andThen((b) =>
    b === null ? err(prolongError("missing-file", `${what} is missing`, { path })) : ok(b),
  );
}

const decoder = new TextDecoder();

/** readRegularFile as UTF-8 text. */
export function readRegularText(path: string, cap: number, what: string): Result<string, ProlongError> {
  return readRegularFile(path, cap, what).map((b) => decoder.decode(b));
}

/**
 * Writes `data` as `path`: a fresh temp file beside it (an unguessable name, created exclusively, no link
 * followed) renamed over the name. Whatever stood there — a symlink, a hard link — is replaced, never written
 * through; a crash leaves the old file or the new one, never half of one.
 */
export function writeFileReplacing(path: string, data: Uint8Array | string, mode = 0o644): Result<void, ProlongError> {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const tmp = join(dirname(path), `.${basename(path)}.prolong-${randomUUID()}.tmp`);
  try {
    const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
    try {
      let done = 0;
      while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
    return ok(undefined);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      /* it may not exist */
    }
    const c = code(e);
    const fix =
      c === "EISDIR"
        ? "a directory stands at that name; remove it or choose another output path"
        : c === "ENOTDIR"
          ? "a part of the path that should be a directory is a file; choose another output path"
          : c === "ENOSPC" || c === "EDQUOT"
            ? "the disk is full: free space and try again"
            : "check that the directory exists and is writable";
    return err(prolongError("write-failed", `cannot write: ${(e as Error).message}`, { path, fix }));
  }
}

/**
 * Opens `path` for appending (creating it when `create`): a symlink at the name is refused, never followed,
 * and what is opened must be a regular file with one name (a FIFO or device is closed again and refused).
 * "read-write" also lets the caller read what is there (the trajectory drops a cut last line first); a FIFO then
 * opens without a reader, so it is the fstat below that refuses it.
 */
export function openForAppend(
  path: string,
  what: string,
  create: boolean,
  access: "write" | "read-write" = "write",
): Result<number, ProlongError> {
  let fd: number;
  try {
    fd = openSync(
      path,
      (access === "read-write" ? constants.O_RDWR : constants.O_WRONLY) |
        constants.O_APPEND |
        constants.O_NOFOLLOW |
        constants.O_NONBLOCK |
        constants.O_NOCTTY |
        (create ? constants.O_CREAT : 0),
      0o644,
    );
  } catch (e) {
    if (code(e) === "ELOOP")
      return err(
        prolongError("not-a-regular-file", `${what} is a symlink; prolong appends through no link`, {
          path,
          fix: NOT_REGULAR_FIX,
        }),
      );
    // A FIFO nobody reads refuses a non-blocking open for writing with ENXIO.
    if (code(e) === "ENXIO")
      return err(
        prolongError("not-a-regular-file", `${what} is a FIFO (named pipe), not a regular file`, { path, fix: NOT_REGULAR_FIX }),
      );
    return err(
      prolongError("unwritable", `cannot open ${what}: ${(e as Error).message}`, {
        path,
        fix: "check that the run directory exists and is writable",
      }),
    );
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.nlink > 1) {
      closeSync(fd);
      const is = st.isFile() ? `a file with ${st.nlink} names (hard links)` : whatIs(st);
      return err(
        prolongError("not-a-regular-file", `${what} is ${is}, not a file prolong appends to`, { path, fix: NOT_REGULAR_FIX }),
      );
    }
  } catch (e) {
    closeSync(fd);
    return err(prolongError("unwritable", `cannot inspect ${what}: ${(e as Error).message}`, { path }));
  }
  return ok(fd);
}
