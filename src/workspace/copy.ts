// The verified sync of the agent's copy (workspace/logs.txt), run before every agent call.
//
// The copy must be exactly what the harness last wrote there: for the full log, the master's bytes up to
// the offset the index says the harness OWNS (never the copy's own size — trusting it is the published
// harness's defect, where 32 bytes written by the agent silently cost 32 real log bytes); for a window arm,
// the window it last wrote. If so, the new bytes are appended (full log) or the new window written. If not —
// appended to, truncated, edited, deleted, replaced by a symlink or a directory, hard-linked, made read-only
// — the copy is rewritten from the master (temp file + rename, never through a symlink), a tamper event is
// recorded, and the run goes on. Nothing here ever writes to the master.
import { closeSync, constants, fstatSync, openSync, readSync, writeSync } from "node:fs";
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";
import { prefixCheck, xxh3_128 } from "../native.ts";
import type { GridMode } from "../log/format.ts";
import type { CopyChunk, CopyState, RunIndex } from "../log/run-index.ts";
import type { ByteSource } from "../log/master.ts";
import { sameWindow, windowText, type LogWindow } from "../setting/log-window.ts";
import { renderWindow, type SectionWindowing } from "../log/window.ts";
import { ioError, structural, type TamperKind, type WorkspaceDir } from "./dir.ts";

export type { TamperKind } from "./dir.ts";

/** The agent's copy of the log, in the workspace. */
export const COPY_FILE = "logs.txt";

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
  /** The workspace the copy is in: every access to the copy goes through it. */
  readonly workspace: WorkspaceDir;
  readonly index: RunIndex;
  readonly window: LogWindow;
  /** The log's grid mode, for the newest-section arm (it rewrites one section). Default ascii. */
  readonly mode?: GridMode;
  /** How the log's kind windows it (its section codec's): animation frames, the state it writes only when it changes. */
  readonly windowing?: SectionWindowing;
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
  const indexed = o.index.lastEnd();
  if (indexed.isErr()) return err(indexed.error);
  const target = indexed.value;
  if (o.master.size < target) {
    return err(
      prolongError("master-short", `the master log has ${o.master.size} bytes but the index records sections up to ${target}`, {
        fix: "the master was truncated outside prolong; the run cannot continue safely",
      }),
    );
  }
  const stored = o.index.copyState();
  if (stored.isErr()) return err(stored.error);
  const prev = stored.value;
  // What the harness last wrote to the copy; nothing at the first sync and under the no-log arm.
  const wrote = prev && prev.window.kind !== "none" ? prev : null;

  const seen = inspectCopy(o.workspace, wrote, wrote && wrote.window.kind === "full" && o.window.kind === "full" ? target : 0);
  if (seen.isErr()) return err(seen.error);
  let { tamper } = seen.value;
  const { fd, content } = seen.value;
  const closeFd = () => {
    if (fd !== undefined) closeSync(fd);
  };

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
  const finish = (state: CopyState, report: SyncReport): Result<SyncReport, ProlongError> =>
    o.index.setCopyState(state, tamper ? { ...tamper, window: windowText(o.window) } : undefined).map(() => report);

  if (o.window.kind === "none") {
    closeFd();
    const removed = o.workspace.remove(COPY_FILE);
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
    return finish(
      { window: o.window, owned: target, size: target, chunks },
      { ...base, write: target > from ? "append" : "none", bytesWritten: target - from, copyBytes: target },
    );
  }
  closeFd();

  // Everything else writes the whole file: window arms every turn, the first sync, and every repair.
  const rendered = o.index
    .windowLookup(o.window)
    .andThen((sections) => renderWindow(o.master, sections, o.window, mode, o.windowing));
  if (rendered.isErr()) return err(rendered.error);
  const bytes = rendered.value ?? new Uint8Array(0);
  const unchanged =
    !tamper && wrote !== null && sameWindow(wrote.window, o.window) && wrote.owned === target && seen.value.exists;
  if (!unchanged) {
    const written = o.workspace.replace(COPY_FILE, bytes);
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
function inspectCopy(ws: WorkspaceDir, wrote: CopyState | null, capacity: number): Result<Inspection, ProlongError> {
  const expected = wrote?.size ?? 0;
  const none = new Uint8Array(0);
  const tamper = (kind: TamperKind, detail: string, foundBytes = 0): Result<Inspection, ProlongError> =>
    ok({ exists: true, tamper: { kind, detail, expectedBytes: expected, foundBytes }, content: none, size: foundBytes });
  const entry = ws.entry(COPY_FILE);
  if (entry.isErr()) return err(entry.error);
  const st = entry.value;
  if (st.kind === "missing") {
    if (!wrote) return ok({ exists: false, tamper: null, content: none, size: 0 });
    return ok({
      exists: false,
      tamper: { kind: "deleted", detail: "the copy was deleted", expectedBytes: expected, foundBytes: 0 },
      content: none,
      size: 0,
    });
  }
  if (st.kind !== "file") {
    const t = structural(COPY_FILE, st.kind, ws.at(COPY_FILE));
    return tamper(t.kind, t.detail.replace(COPY_FILE, "the copy"));
  }
  if (!wrote) return tamper("unexpected", "a logs.txt the harness did not write is in the workspace", st.size);

  let fd: number;
  try {
    // Through the held directory, O_NOFOLLOW: a symlink swapped in after the lstat fails with ELOOP, and
    // O_NONBLOCK keeps a FIFO swapped in from blocking the open.
    fd = openSync(
      ws.at(COPY_FILE),
      constants.O_RDWR | constants.O_APPEND | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY,
    );
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "EACCES" || code === "EPERM") return tamper("read-only", "the copy cannot be opened for writing", st.size);
    if (code === "ELOOP") return tamper("symlink", "the copy was replaced by a symlink");
    if (code === "ENOENT") return tamper("deleted", "the copy was deleted");
    return err(ioError("open", ws.shown(COPY_FILE), e, COPY_FILE));
  }
  const fst = fstatSync(fd);
  const bail = (kind: TamperKind, detail: string) => {
    closeSync(fd);
    return tamper(kind, detail, fst.size);
  };
  if (!fst.isFile() || fst.ino !== st.ino) return bail("not-a-file", "the copy is not a regular file");
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
    return err(ioError("read", ws.shown(COPY_FILE), e, COPY_FILE));
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
  content: Uint8Array,
  size: number,
  wrote: CopyState,
  expectedBytes: () => Result<Uint8Array, ProlongError>,
): Result<TamperEvent | null, ProlongError> {
  const expected = wrote.size;
  if (size === expected && chunksMatch(content, wrote)) return ok(null);
  const exp = expectedBytes();
  if (exp.isErr()) return err(exp.error);
  const found = contentTamper(exp.value, content.subarray(0, Math.min(size, expected)), size);
  // Equal bytes but a checksum mismatch: the index's chunks are wrong, so do not trust them; rewrite.
  return ok(
    found ?? {
      kind: "edited",
      detail: "the copy's bytes match the master but not the recorded checksums",
      firstDiff: 0,
      expectedBytes: expected,
      foundBytes: size,
    },
  );
}

/**
 * How a copy's content differs from what the harness wrote (`expected`): edited (a byte differs), appended,
 * truncated, or null when equal. `head` is the copy's first min(size, expected.length) bytes and `size` its
 * size. Also what `prolong verify <run-dir>` reports.
 */
export function contentTamper(expected: Uint8Array, head: Uint8Array, size: number): TamperEvent | null {
  const d = prefixCheck(expected, head);
  const event = (kind: TamperKind, detail: string, firstDiff: number): TamperEvent => ({
    kind,
    detail,
    firstDiff,
    expectedBytes: expected.length,
    foundBytes: size,
  });
  if (d !== -1) return event("edited", `the copy differs from what the harness wrote, first at byte ${d}`, d);
  if (size > expected.length)
    return event(
      "appended",
      `${size - expected.length} byte(s) were added after the ${expected.length} the harness wrote`,
      expected.length,
    );
  if (size < expected.length) return event("truncated", `the copy was cut to ${size} of ${expected.length} bytes`, size);
  return null;
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
  return o.index
    .windowLookup(wrote.window, wrote.owned)
    .andThen((sections) => renderWindow(o.master, sections, wrote.window, mode, o.windowing))
    .map((b) => b ?? new Uint8Array(0));
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
    return err({ ...ioError("append to", "logs.txt", e, "the agent's copy of the log"), code: "copy-write" });
  }
  return ok(undefined);
}
