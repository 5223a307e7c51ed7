// The master log: the one append-only copy of the agent's memory, kept in the run directory (outside the
// workspace, where no agent can reach it). Bytes once written are never rewritten or truncated: the file is
// opened O_APPEND, and each section goes out in one write() so a reader sees whole sections or a torn tail,
// never an interleaving. A torn tail (a crash mid-append) is reported, never repaired here: resume decides.
import { closeSync, constants, fstatSync, openSync, readSync, writeSync } from "node:fs";
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";
import { mapFile, SECTION_KIND, sectionIndex } from "../native.ts";
import { SECTION_JOIN } from "./format.ts";

/** Byte range [start, end) of one append in the master. */
export interface AppendRange {
  readonly start: number;
  readonly end: number;
}

/** What follows the last complete section when the file ends in a partial one. */
export interface TornTail {
  /** File size on disk. */
  readonly size: number;
  /** End of the last complete section: everything before it can be trusted. */
  readonly completeEnd: number;
  /** size - completeEnd: the bytes of the partial section. */
  readonly tornBytes: number;
  readonly reason: string;
}

/** Anything the window and sync code can read master bytes from. */
export interface ByteSource {
  readonly size: number;
  /** Bytes [start, end). They may be a read-only mapping of the file: read them, never write to them. */
  read(start: number, end: number): Result<Uint8Array, ProlongError>;
}

/**
 * Reads of the master from its start at least this long are mapped instead of copied: the whole-log reads
 * (the tail check at open, checksums at resume, rebuilding a tampered copy) then cost no new memory and no
 * page-by-page copy, whatever the log's size. Shorter reads (a turn's new bytes, a window) are read.
 */
const MAP_MIN = 1 << 20;

/** master[0, end), mapped read-only. */
function mapPrefix(path: string, end: number): Result<Uint8Array, ProlongError> {
  const mapped = mapFile(path, end);
  if (!(mapped instanceof Uint8Array))
    return err(prolongError("master-read", `cannot map the master log: ${mapped.message}`, { path }));
  if (mapped.length < end)
    return err(
      prolongError("master-read", `the master log ended ${end - mapped.length} byte(s) early at offset ${mapped.length}`, {
        path,
      }),
    );
  return ok(mapped);
}

const encoder = new TextEncoder();

export class MasterLog implements ByteSource {
  private constructor(
    readonly path: string,
    private fd: number,
    private bytes: number,
    /** Set when the file ended in a partial section at open (structural check; see tornTail). */
    readonly tail: TornTail | null,
  ) {}

  /**
   * Opens the master for appending (creating it unless `create: false`, as resume does) and checks its tail.
   * A torn tail is reported in `tail`, the file is left as it is.
   */
  static open(path: string, opts: { create?: boolean } = {}): Result<MasterLog, ProlongError> {
    const create = opts.create ?? true;
    let fd: number;
    try {
      // O_NOFOLLOW: the master is ours; a symlink in its place is an error, not something to write through.
      fd = openSync(path, constants.O_RDWR | constants.O_APPEND | constants.O_NOFOLLOW | (create ? constants.O_CREAT : 0), 0o644);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const fix =
        code === "ENOENT"
          ? "check the run directory (it holds logs.txt)"
          : code === "ELOOP"
            ? "the master log must be a regular file, not a symlink"
            : undefined;
      return err(
        prolongError("master-open", `cannot open the master log: ${(e as Error).message}`, { path, ...(fix ? { fix } : {}) }),
      );
    }
    const st = fstatSync(fd);
    if (!st.isFile()) {
      closeSync(fd);
      return err(prolongError("master-open", "the master log is not a regular file", { path }));
    }
    const size = st.size;
    let tail: TornTail | null = null;
    if (size > 0) {
      const all = size >= MAP_MIN ? mapPrefix(path, size) : readAll(fd, size);
      if (all.isErr()) {
        closeSync(fd);
        return err({ ...all.error, path });
      }
      tail = tornTail(all.value);
    }
    return ok(new MasterLog(path, fd, size, tail));
  }

  get size(): number {
    return this.bytes;
  }

  /**
   * Appends one section (or any text) in one write and returns its byte range. Fails, without retrying from
   * a guessed offset, when the file changed under us (someone else appended) or the write came up short.
   */
  append(data: string | Uint8Array): Result<AppendRange, ProlongError> {
    const buf = typeof data === "string" ? encoder.encode(data) : data;
    const start = this.bytes;
    let written = 0;
    try {
      // One write() normally takes it all; the loop only matters on a short write (e.g. disk nearly full).
      while (written < buf.length) written += writeSync(this.fd, buf, written, buf.length - written);
    } catch (e) {
      const size = fstatSync(this.fd).size;
      this.bytes = size;
      return err(
        prolongError(
          "master-write",
          `append failed after ${written} of ${buf.length} bytes: ${(e as Error).message}; the log now ends in a torn section at offset ${start}`,
          { path: this.path, fix: "free disk space, then `prolong resume` the run" },
        ),
      );
    }
    const size = fstatSync(this.fd).size;
    this.bytes = size;
    if (size !== start + buf.length) {
      return err(
        prolongError(
          "master-concurrent",
          `the master log grew by ${size - start} bytes while appending ${buf.length}: another process writes to it`,
          { path: this.path, fix: "run one harness per run directory" },
        ),
      );
    }
    return ok({ start, end: size });
  }

  /** The file's size now, by fstat of the harness's own descriptor (this.size is what the harness wrote). */
  fileSize(): Result<number, ProlongError> {
    try {
      return ok(fstatSync(this.fd).size);
    } catch (e) {
      return err(prolongError("master-read", `cannot stat the master log: ${(e as Error).message}`, { path: this.path }));
    }
  }

  /** Bytes [start, end) of the master. Out-of-range bounds are a caller bug and throw. */
  read(start: number, end: number): Result<Uint8Array, ProlongError> {
    if (!(Number.isInteger(start) && Number.isInteger(end) && 0 <= start && start <= end && end <= this.bytes)) {
      throw new RangeError(`MasterLog.read(${start}, ${end}) outside [0, ${this.bytes}]`);
    }
    if (start === 0 && end >= MAP_MIN) return mapPrefix(this.path, end);
    const buf = Buffer.allocUnsafe(end - start);
    return readFully(this.fd, buf, start).map(() => new Uint8Array(buf.buffer, buf.byteOffset, buf.length));
  }

  /**
   * The index-based tail check (exact, unlike the structural one at open): the index knows where the last
   * section it recorded ends. Bytes past it are a torn or unrecorded append; a file shorter than it was cut.
   */
  tailAfter(indexedEnd: number): TornTail | null {
    if (this.bytes === indexedEnd) return null;
    const reason =
      this.bytes > indexedEnd
        ? `${this.bytes - indexedEnd} byte(s) after the last indexed section (a crash during or right after an append)`
        : `the file is ${indexedEnd - this.bytes} byte(s) shorter than the index records: the master was truncated`;
    return { size: this.bytes, completeEnd: Math.min(indexedEnd, this.bytes), tornBytes: this.bytes - indexedEnd, reason };
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }
}

function readAll(fd: number, size: number): Result<Uint8Array, ProlongError> {
  const buf = Buffer.allocUnsafe(size);
  return readFully(fd, buf, 0).map(() => buf);
}

function readFully(fd: number, buf: Uint8Array, position: number): Result<void, ProlongError> {
  let got = 0;
  try {
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, position + got);
      if (n === 0)
        return err(
          prolongError("master-read", `the master log ended ${buf.length - got} byte(s) early at offset ${position + got}`),
        );
      got += n;
    }
  } catch (e) {
    return err(prolongError("master-read", `cannot read the master log: ${(e as Error).message}`));
  }
  return ok(undefined);
}

/**
 * Structural tail check of a whole log in the format of format.ts, where every section ends with its
 * settled board's last row + "\n\n" and sections are joined by SECTION_JOIN. The last section is complete
 * when its board is complete and the file ends right after that blank line; otherwise the complete part
 * ends where the last complete section's own bytes end (the join after it is part of the torn tail), which
 * is what the run index records as lastEnd(). A cut that leaves exactly a complete section behind cannot be
 * told from a finished append here; `tailAfter` with the index's offset catches the rest.
 */
export function tornTail(all: Uint8Array): TornTail | null {
  const size = all.length;
  if (size === 0) return null;
  const t = sectionIndex(all);
  const torn = (completeEnd: number, reason: string): TornTail => ({ size, completeEnd, tornBytes: size - completeEnd, reason });
  if (t.count === 0) return torn(0, "no complete section separator: the first append was cut");
  // The end of section i's own bytes when it is complete (board complete and followed by its blank line).
  const ownEnd = (i: number): number | null => {
    if (t.kind[i] === SECTION_KIND.other) {
      const end = t.end[i] as number;
      return all[end - 1] === 10 ? end - (i < t.count - 1 && all[end - 2] === 10 ? SECTION_JOIN.length : 0) : null;
    }
    const boardEnd = t.boardEnd[i] as number;
    return t.complete[i] === 1 && boardEnd >= 0 && all[boardEnd] === 10 ? boardEnd + 1 : null;
  };
  const last = t.count - 1;
  const end = ownEnd(last);
  if (end === size) return null;
  if (end !== null) return torn(end, "bytes after the last complete section do not form a section (a cut separator)");
  // The last section is cut: the previous one (if any) ends one join before it.
  const start = t.start[last] as number;
  const before = last === 0 ? 0 : Math.max(0, start - SECTION_JOIN.length);
  return torn(before, t.kind[last] === SECTION_KIND.other ? "the last section is cut" : "the last section's board is cut short");
}
