// The verified sync of the agent's copy (workspace/logs.txt), run before every agent call.
//
// The copy must be exactly what the harness last wrote there: for the full log, the master's bytes up to
// the offset the index says the harness OWNS (never the copy's own size — trusting it is the published
// harness's defect, where 32 bytes written by the agent silently cost 32 real log bytes); for a window arm,
// the window it last wrote. If so, the new bytes are appended (full log) or the new window written. If not —
// appended to, truncated, edited, deleted, replaced by a symlink or a directory, hard-linked, made read-only
// — the copy is rewritten from the master (temp file + rename, never through a symlink), a tamper event is
// recorded, and the run goes on. Nothing here ever writes to the master.
import {
  closeSync, constants, fchmodSync, fstatSync, lstatSync, openSync, readlinkSync, readSync, renameSync, rmSync, unlinkSync, writeSync,
  type Stats,
} from "node:fs";
import { randomUUID } from "node:crypto";
import { basename, dirname, join } from "node:path";
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";
import { prefixCheck, xxh3_128 } from "../native.ts";
import type { GridMode } from "./format.ts";
import type { CopyChunk, CopyState, RunIndex } from "./index.ts";
import type { ByteSource } from "./master.ts";
import { sameWindow, windowText, type LogWindow } from "../config/log-window.ts";
import { renderWindow } from "./window.ts";

export type TamperKind =
  | "appended" | "truncated" | "edited" | "deleted" | "symlink" | "directory" | "read-only" | "hardlink" | "not-a-file"
  /** A logs.txt the harness did not write (the no-log arm, or before the first sync). */
  | "unexpected";

export interface TamperEvent {
  readonly kind: TamperKind;
  readonly detail: string;
  /** First byte where the copy differs from what the harness wrote (content cases only). */
  readonly firstDiff?: number;
  readonly expectedBytes: number;
  readonly foundBytes: number;
}

export interface SyncOptions {
  readonly master: ByteSource;
  readonly copyPath: string;
  readonly index: RunIndex;
  readonly window: LogWindow;
  /** The log's grid mode, for the newest-section arm (it rewrites one section). Default ascii. */
  readonly mode?: GridMode;
}

export interface SyncReport {
  readonly window: LogWindow;
  /** The master offset the copy was owned up to before and after this sync. */
  readonly ownedBefore: number;
  readonly ownedAfter: number;
  /** append: new bytes added to a verified copy; rewrite: whole file written; remove: no-log arm; none: nothing new. */
  readonly write: "append" | "rewrite" | "remove" | "none";
  readonly bytesWritten: number;
  /** Size of the copy after the sync (0 when there is none). */
  readonly copyBytes: number;
  readonly tamper: TamperEvent | null;
}

/** Past this many chunks the copy's checksums are folded into one (keeps the index row count per sync small). */
const MAX_CHUNKS = 32;

/** Brings the agent's copy up to date under its window, repairing it first if it is not what was written. */
export function syncAgentCopy(o: SyncOptions): Result<SyncReport, ProlongError> {
  const mode = o.mode ?? "ascii";
  const target = o.index.lastEnd();
  if (o.master.size < target) {
    return err(prolongError("master-short", `the master log has ${o.master.size} bytes but the index records sections up to ${target}`, { fix: "the master was truncated outside prolong; the run cannot continue safely" }));
  }
  const stored = o.index.copyState();
  if (stored.isErr()) return err(stored.error);
  const prev = stored.value;
  // What the harness last wrote to the copy; nothing at the first sync and under the no-log arm.
  const wrote = prev && prev.window.kind !== "none" ? prev : null;
  const expected = wrote?.size ?? 0;

  const seen = inspectCopy(o.copyPath, wrote, wrote && wrote.window.kind === "full" && o.window.kind === "full" ? target : 0);
  if (seen.isErr()) return err(seen.error);
  let { tamper } = seen.value;
  const { fd, content } = seen.value;
  const closeFd = () => { if (fd !== undefined) closeSync(fd); };

  // Content check (only reached for a regular, writable, singly-linked file).
  if (!tamper && wrote && fd !== undefined) {
    const check = checkContent(content, seen.value.size, wrote, () => expectedContent(o, wrote, mode));
    if (check.isErr()) {
      closeFd();
      return err(check.error);
    }
    tamper = check.value;
  }

  const base = { window: o.window, ownedBefore: prev?.owned ?? 0, ownedAfter: target, tamper };
  const finish = (state: CopyState, report: SyncReport): Result<SyncReport, ProlongError> => {
    o.index.transaction(() => {
      o.index.setCopyState(state);
      if (tamper) o.index.recordEvent("tamper", { ...tamper, window: windowText(o.window) });
    });
    return ok(report);
  };

  if (o.window.kind === "none") {
    closeFd();
    const removed = removeCopy(o.copyPath);
    if (removed.isErr()) return err(removed.error);
    const write = seen.value.exists ? "remove" : "none";
    return finish({ window: o.window, owned: target, size: 0, chunks: [] }, { ...base, write, bytesWritten: 0, copyBytes: 0 });
  }

  // The fast path: a verified full-log copy gains the master's new bytes at the offset the harness owns.
  if (!tamper && fd !== undefined && wrote && wrote.window.kind === "full" && o.window.kind === "full" && wrote.owned <= target) {
    const from = wrote.owned;
    const appended = appendNew(o.master, fd, content, from, target);
    closeFd();
    if (appended.isErr()) return err(appended.error);
    let chunks: CopyChunk[] = [...wrote.chunks];
    if (target > from) chunks.push({ start: from, end: target, xxh3: xxh3_128(content, from, target) });
    if (chunks.length > MAX_CHUNKS) chunks = [{ start: 0, end: target, xxh3: xxh3_128(content, 0, target) }];
    return finish({ window: o.window, owned: target, size: target, chunks }, { ...base, write: target > from ? "append" : "none", bytesWritten: target - from, copyBytes: target });
  }
  closeFd();

  // Everything else writes the whole file: window arms every turn, the first sync, and every repair.
  const rendered = renderWindow(o.master, o.index, o.window, mode);
  if (rendered.isErr()) return err(rendered.error);
  const bytes = rendered.value ?? new Uint8Array(0);
  const unchanged = !tamper && wrote !== null && sameWindow(wrote.window, o.window) && wrote.owned === target && seen.value.exists;
  if (!unchanged) {
    const written = replaceCopy(o.copyPath, bytes);
    if (written.isErr()) return err(written.error);
  }
  const chunks = bytes.length > 0 ? [{ start: 0, end: bytes.length, xxh3: xxh3_128(bytes) }] : [];
  return finish(
    { window: o.window, owned: target, size: bytes.length, chunks },
    { ...base, write: unchanged ? "none" : "rewrite", bytesWritten: unchanged ? 0 : bytes.length, copyBytes: bytes.length },
  );
}

interface Inspection {
  readonly exists: boolean;
  readonly tamper: TamperEvent | null;
  /** Open read-write on a regular file that passed the structural checks. */
  readonly fd?: number;
  /** The copy's first min(size, expected) bytes, in a buffer of at least `capacity` bytes. */
  readonly content: Uint8Array;
  readonly size: number;
}

/** Looks at the copy without following links: what is there, and is it structurally what we left? */
function inspectCopy(path: string, wrote: CopyState | null, capacity: number): Result<Inspection, ProlongError> {
  const expected = wrote?.size ?? 0;
  const none = new Uint8Array(0);
  const tamper = (kind: TamperKind, detail: string, foundBytes = 0): Result<Inspection, ProlongError> =>
    ok({ exists: true, tamper: { kind, detail, expectedBytes: expected, foundBytes }, content: none, size: foundBytes });
  let st: Stats;
  try {
    st = lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") return err(ioError("inspect", path, e));
    if (!wrote) return ok({ exists: false, tamper: null, content: none, size: 0 });
    return ok({ exists: false, tamper: { kind: "deleted", detail: "the copy was deleted", expectedBytes: expected, foundBytes: 0 }, content: none, size: 0 });
  }
  if (st.isSymbolicLink()) return tamper("symlink", `the copy was replaced by a symlink to ${safeReadlink(path)}`);
  if (st.isDirectory()) return tamper("directory", "the copy was replaced by a directory");
  if (!st.isFile()) return tamper("not-a-file", "the copy was replaced by something that is not a regular file");
  if (!wrote) return tamper("unexpected", "a logs.txt the harness did not write is in the workspace", st.size);

  let fd: number;
  try {
    // O_NOFOLLOW closes the gap between lstat and open: a symlink swapped in meanwhile fails with ELOOP.
    fd = openSync(path, constants.O_RDWR | constants.O_APPEND | constants.O_NOFOLLOW);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "EACCES" || code === "EPERM") return tamper("read-only", "the copy cannot be opened for writing", st.size);
    if (code === "ELOOP") return tamper("symlink", "the copy was replaced by a symlink");
    return err(ioError("open", path, e));
  }
  const fst = fstatSync(fd);
  const bail = (kind: TamperKind, detail: string) => { closeSync(fd); return tamper(kind, detail, fst.size); };
  if (!fst.isFile()) return bail("not-a-file", "the copy is not a regular file");
  // Root can write a 0444 file anyway: the mode bits, not open(), say whether the agent made it read-only.
  if ((fst.mode & 0o200) === 0) return bail("read-only", `the copy was made read-only (mode ${(fst.mode & 0o777).toString(8)})`);
  // A second name for the copy (e.g. a hard link to the master) would let our appends reach another file.
  if (fst.nlink > 1) return bail("hardlink", `the copy has ${fst.nlink} names (hard links)`);

  const n = Math.min(fst.size, expected);
  const content = scratch(Math.max(n, capacity));
  let got = 0;
  try {
    while (got < n) {
      const r = readSync(fd, content, got, n - got, got);
      if (r === 0) break;
      got += r;
    }
  } catch (e) {
    closeSync(fd);
    return err(ioError("read", path, e));
  }
  return ok({ exists: true, tamper: null, fd, content, size: got < n ? got : fst.size });
}

// One reusable read buffer: a fresh 20 MB allocation per turn costs more in page faults and GC than the
// read and hash themselves. Safe because a sync is synchronous and nothing keeps `content` past it.
let scratchBuf = new Uint8Array(0);
function scratch(size: number): Uint8Array {
  if (scratchBuf.length < size) scratchBuf = new Uint8Array(Math.max(size, Math.ceil(scratchBuf.length * 1.5), 1 << 16));
  return scratchBuf.subarray(0, size);
}

/**
 * Compares the copy's bytes with what the harness wrote: by the stored chunk checksums when the sizes
 * match (one pass, no master read), else against the expected bytes rebuilt from the master.
 */
function checkContent(
  content: Uint8Array, size: number, wrote: CopyState, expectedBytes: () => Result<Uint8Array, ProlongError>,
): Result<TamperEvent | null, ProlongError> {
  const expected = wrote.size;
  if (size === expected && chunksMatch(content, wrote)) return ok(null);
  const exp = expectedBytes();
  if (exp.isErr()) return err(exp.error);
  const n = Math.min(size, expected);
  const d = prefixCheck(exp.value, content.subarray(0, n));
  const event = (kind: TamperKind, detail: string, firstDiff: number): TamperEvent => ({ kind, detail, firstDiff, expectedBytes: expected, foundBytes: size });
  if (d !== -1) return ok(event("edited", `the copy differs from what the harness wrote, first at byte ${d}`, d));
  if (size > expected) return ok(event("appended", `${size - expected} byte(s) were added after the ${expected} the harness wrote`, expected));
  if (size < expected) return ok(event("truncated", `the copy was cut to ${size} of ${expected} bytes`, size));
  // Equal bytes but a checksum mismatch: the index's chunks are wrong, so do not trust them; rewrite.
  return ok(event("edited", "the copy's bytes match the master but not the recorded checksums", 0));
}

function chunksMatch(content: Uint8Array, wrote: CopyState): boolean {
  let at = 0;
  for (const c of wrote.chunks) {
    if (c.start !== at || c.end > wrote.size || xxh3_128(content, c.start, c.end) !== c.xxh3) return false;
    at = c.end;
  }
  return at === wrote.size;
}

/** The bytes the harness wrote last time, rebuilt from the master and the index as they were then. */
function expectedContent(o: SyncOptions, wrote: CopyState, mode: GridMode): Result<Uint8Array, ProlongError> {
  if (wrote.window.kind === "full") return o.master.read(0, wrote.owned);
  return renderWindow(o.master, o.index.lookupUpTo(wrote.owned), wrote.window, mode).map((b) => b ?? new Uint8Array(0));
}

/** Appends master[from, to) to the verified copy through its own fd, and into `content` for the checksums. */
function appendNew(master: ByteSource, fd: number, content: Uint8Array, from: number, to: number): Result<void, ProlongError> {
  if (to === from) return ok(undefined);
  const got = master.read(from, to);
  if (got.isErr()) return err(got.error);
  content.set(got.value, from);
  try {
    let done = 0;
    while (done < got.value.length) done += writeSync(fd, got.value, done, got.value.length - done);
  } catch (e) {
    return err(prolongError("copy-write", `cannot append to the agent's copy: ${(e as Error).message}`, { fix: "check the workspace's disk space and permissions" }));
  }
  return ok(undefined);
}

/** Writes the copy afresh: a new temp file in the workspace renamed over whatever is at the path. */
function replaceCopy(path: string, bytes: Uint8Array): Result<void, ProlongError> {
  const removed = removeDirectory(path);
  if (removed.isErr()) return removed;
  // An unguessable name, so an agent cannot pre-plant anything there (O_EXCL would refuse it anyway).
  const tmp = join(dirname(path), `.${basename(path)}.prolong-${randomUUID()}.tmp`);
  try {
    // O_EXCL + O_NOFOLLOW: a file or symlink the agent planted at the temp name is never written through.
    const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
    try {
      fchmodSync(fd, 0o644);
      let done = 0;
      while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
    } finally {
      closeSync(fd);
    }
    // rename replaces a symlink itself, never its target.
    renameSync(tmp, path);
  } catch (e) {
    try { unlinkSync(tmp); } catch { /* it may not exist */ }
    return err(ioError("rewrite", path, e));
  }
  return ok(undefined);
}

function removeDirectory(path: string): Result<void, ProlongError> {
  try {
    if (lstatSync(path).isDirectory()) rmSync(path, { recursive: true, force: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") return err(ioError("remove", path, e));
  }
  return ok(undefined);
}

/** The no-log arm: nothing may be at the copy's path (links are removed, never followed). */
function removeCopy(path: string): Result<void, ProlongError> {
  try {
    const st = lstatSync(path);
    if (st.isDirectory()) rmSync(path, { recursive: true, force: true });
    else unlinkSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") return err(ioError("remove", path, e));
  }
  return ok(undefined);
}

function safeReadlink(path: string): string {
  try {
    return JSON.stringify(readlinkSync(path));
  } catch {
    return "(unreadable)";
  }
}

function ioError(what: string, path: string, e: unknown): ProlongError {
  return prolongError("copy-io", `cannot ${what} the agent's copy of the log: ${(e as Error).message}`, { path, fix: "check that the workspace exists and the harness can write to it" });
}
