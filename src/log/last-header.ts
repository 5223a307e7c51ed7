// The header of a log's last section, read cheaply: `score` checks every scorecard against it, over thousands of
// runs whose logs may be gigabytes, so the log is never read whole. First a short tail read (almost every last
// section fits); when the last section is longer than that (a big board's animation frames, a long plan), the
// run's index says where it starts; without an index, one longer tail read. The header read is always the log's
// own bytes: the index only says where to look, so an index that disagrees with its log finds no header.
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";
import { readFileRange } from "../safe-file.ts";
import { parseHeader, SEPARATOR, type SectionHeader } from "./format.ts";
import { RunIndex } from "./run-index.ts";

/** The first read: measured as about 20 µs a run (a SQLite open is about 0.5 ms), and it holds most last sections. */
export const TAIL_BYTES = 64 << 10;
/** The longer read when there is no index: a 64x64 board with dozens of frames and a long plan fits. */
export const LONG_TAIL_BYTES = 4 << 20;
/** A separator, its newline and a header line fit in this (a NetHack header with vitals is about 90 bytes). */
const HEADER_BYTES = 512;

export interface LastHeader {
  readonly header: SectionHeader;
  /** The log's size in bytes. */
  readonly size: number;
  /** Where the last section starts (its separator). */
  readonly start: number;
}

const SEP = new TextEncoder().encode(SEPARATOR);
const NL = 0x0a;
const decoder = new TextDecoder();

/**
 * The last section's header, or null when no log is at `logPath`. A log that is not a regular file, or whose
 * last section has no header the reads can find, is an error naming it.
 */
export function readLastHeader(logPath: string, indexPath: string | null): Result<LastHeader | null, ProlongError> {
  const tail = readTail(logPath, TAIL_BYTES);
  if (tail.isErr()) return err(tail.error);
  if (tail.value === null) return ok(null);
  if (tail.value.found) return ok(tail.value.found);
  const size = tail.value.size;
  if (size === 0) return err(noHeader(logPath, "the log is empty"));
  if (indexPath !== null) {
    const at = lastStartFromIndex(indexPath, size);
    if (at !== null) {
      const read = readFileRange(logPath, HEADER_BYTES, "logs.txt", () => ({ start: at, length: HEADER_BYTES }));
      if (read.isErr()) return err(read.error);
      const header = read.value ? headerAt(read.value.bytes, 0) : undefined;
      if (header) return ok({ header, size, start: at });
      return err(noHeader(logPath, `no section header where the run's index says the last section starts (byte ${at})`));
    }
  }
  if (size <= TAIL_BYTES) return err(noHeader(logPath, "no section header in the log"));
  const long = readTail(logPath, LONG_TAIL_BYTES);
  if (long.isErr()) return err(long.error);
  if (long.value === null) return ok(null);
  if (long.value.found) return ok(long.value.found);
  return err(noHeader(logPath, `no section header in the last ${LONG_TAIL_BYTES >> 20} MiB of the log, and no index to find it`));
}

/** The last `n` bytes of the log and the last header found in them. */
function readTail(logPath: string, n: number): Result<{ size: number; found: LastHeader | null } | null, ProlongError> {
  const read = readFileRange(logPath, n, "logs.txt", (size) => ({ start: size - n, length: n }));
  if (read.isErr()) return err(read.error);
  if (read.value === null) return ok(null);
  const { size, start, bytes } = read.value;
  return ok({ size, found: lastHeaderIn(bytes, start, size) });
}

/**
 * The last header in a piece of the log that starts at `offset`: a separator line (at the start of the file or
 * after a newline) followed by a header line. A separator-looking line whose next line is no header (a board
 * row of 80 '=' in a terminal game's screen) is passed over. Agent text never holds a bare separator line:
 * the writer escapes one (log/format.ts).
 */
function lastHeaderIn(bytes: Uint8Array, offset: number, size: number): LastHeader | null {
  // Buffer's own search (no copy: a view of the same bytes), run once per separator-looking line.
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let from = bytes.length;
  for (;;) {
    const i = from > 0 ? view.lastIndexOf(SEP, from - 1) : -1;
    if (i < 0) return null;
    const lineStart = i === 0 ? offset === 0 : bytes[i - 1] === NL;
    if (lineStart) {
      const header = headerAt(bytes, i);
      if (header) return { header, size, start: offset + i };
    }
    from = i;
  }
}

/** The header of the section whose separator starts at `i` (undefined when the bytes there are not one). */
function headerAt(bytes: Uint8Array, i: number): SectionHeader | undefined {
  for (let k = 0; k < SEP.length; k++) if (bytes[i + k] !== SEP[k]) return undefined;
  let at = i + SEP.length;
  if (bytes[at] === 0x0d) at++;
  if (bytes[at] !== NL) return undefined;
  const lineStart = at + 1;
  const lineEnd = bytes.indexOf(NL, lineStart);
  // A header line cut by the end of the read (a torn last append) is no header.
  if (lineEnd < 0) return undefined;
  return parseHeader(decoder.decode(bytes.subarray(lineStart, lineEnd)));
}

/**
 * Where the run's index says the last section starts, when the index is there, a prolong index, and its last
 * section ends where the log does (else null: the longer tail read decides).
 */
function lastStartFromIndex(indexPath: string, logSize: number): number | null {
  const index = RunIndex.open(indexPath, { mode: "read-only" });
  if (index.isErr()) return null;
  try {
    const look = index.value.lookup();
    if (look.isErr()) return null;
    const last = look.value.last();
    return last !== undefined && last.end === logSize ? last.start : null;
  } finally {
    index.value.close();
  }
}

function noHeader(path: string, why: string): ProlongError {
  return prolongError("bad-log", `${why}`, {
    path,
    fix: "the log was cut or edited, or is not a prolong run's log; `prolong verify` the run",
  });
}
