// The typed wrapper over the Rust addon (native/), and the one file that reaches into native/. The ONLY file that loads it: the require below is
// a string literal so `bun build --compile` embeds the addon in the single binary.
//
// CONTRACT (each function has a pure-TS twin in test/oracle/ that the differential tests compare to):
//
// sectionIndex(buf) — a section starts at a separator line: exactly 80 '=' bytes that start at offset 0
//   or right after '\n', and are followed by '\n', "\r\n" or the end of the buffer. A section runs from
//   its separator's first byte to the next separator's first byte (or the end of the buffer). Bytes
//   before the first separator are a preamble, not a section (preambleEnd = first section start).
//   The header is the first line after the separator ("\r" stripped):
//     "Action N | Level L | Attempt A | INITIAL STATE | Score: S"            → kind 0 (initial)
//     "Action N | Level L | Attempt A | Plan Step i/K | Score: S"            → kind 1 (action)
//     "Action N | Level L | Attempt A | Score: S"                            → kind 1, planStep/planTotal -1
//     each of the three may carry a terminal game's vitals right before its Score:
//     "... | XL x | HP h(H) | Turn t | Score: S" (validated, not returned: the TS parser reads them)
//     anything else                                                          → kind 2 (other), fields -1
//   Fields are decimal integers; a field that does not parse as 0..2^31-1 makes the whole header kind 2.
//   frames = number of "[frame " marker lines in the section + 1 (a section without a board still says 1).
//   The settled board is the run of non-empty lines starting right after the LAST of "[settled]", "[POST-ACTION BOARD
//   STATE]", "[INITIAL BOARD STATE]", "[CURRENT BOARD STATE]" lines (exact, "\r" stripped) after the separator
//   line (a "[frame " marker line ends that run too; an empty line right after the marker means no board); boardStart/boardEnd are its byte range including the final line's '\n' (-1 if none).
//   complete = 1 when the board has as many rows as its first row is long (64 rows of 64 for ARC), or, for a
//   header with a terminal game's vitals, when an empty line follows the board (a screen is never square), else 0.
//   lines = the buffer's '\n' bytes, plus 1 when it is non-empty and does not end in '\n' (counted in the
//   same pass). Big buffers are scanned in two halves on two threads, split at a separator line (same table).
//
// prefixCheck(master, copy) — -1 when copy is a byte-prefix of master (equal counts), otherwise the
//   first offset where they differ (= master.length when copy is longer and equal up to that point).
//
// xxh3_128(buf, start?, end?) / blake3(buf, start?, end?) — lowercase hex digests of buf[start, end)
//   (xxh3-128 high 64 bits first, as `xxhsum -H2`). Bounds must be integers with 0 <= start <= end <=
//   buf.length, else RangeError. Every function throws TypeError when a buffer is not a Uint8Array/Buffer.
//
// boardDiff(a, b) — boards as text bytes (rows separated by '\n', optional '\r', optional final '\n');
//   returns the changed cells as row-major indices y*width+x, width = the first row's length (Int32Array,
//   ascending). Shape = the number of rows and each row's length; boards of different shape throw a RangeError.
// lineCount(buf, start?, end?) — the number of '\n' bytes in buf[start, end) (bounds as for the hashes).
//
// mapFile(path, limit?) — the file's bytes without copying them: a read-only mapping (pages stay the kernel's
//   page cache, unmapped when the array is collected), of min(limit, size at open) bytes. Only a regular file
//   is mapped: it is opened non-blocking (a FIFO never waits for a writer) and anything else — missing,
//   directory, FIFO, device (/dev/zero), socket — is {kind, message} instead of bytes. A file that grows while
//   it is read is seen up to its size at open.
//
// cellChanges(buf, table) — per section, the number of cells whose settled board differs from the
//   previous section's settled board (the first section, and any whose board is missing or of another
//   shape than the previous one, gives -1).
//
// sectionRowsText(buf) — the text table of `prolong log sections` as UTF-8 bytes: a header line
//   ("#", "action", "level", "attempt", "score", "plan", "tool call", "frames", "changed", "offset") and a
//   line per section, every line ending in '\n'. Cells: the index; the action ("N init" for kind initial,
//   "?" for kind other); level, attempt and score ("-" when kind other or negative); "step/total" or "-";
//   the tool call — for kind action the rest of the first line that starts "Tool Call: " right after a
//   '\n' between the section start and its board start (the section end when it has no board), one final
//   '\r' dropped, decoded as TextDecoder does (BOM dropped, bad bytes U+FFFD), else "(unreadable header)"
//   for kind other and "-" otherwise; frames; cellChanges's count or "-" when negative; the start offset,
//   " CUT" after it when complete is 0. Cells are joined by two spaces and padded to the column's widest
//   cell, counted in UTF-16 units as JavaScript's .length: the tool call on its right, the others on their
//   left. The sections are sectionIndex(buf)'s and the counts cellChanges's, found in the same scan.

export interface SectionTable {
  readonly count: number;
  /** Offset of the first section (bytes before it are a preamble); buf.length when there is none. */
  readonly preambleEnd: number;
  /** Lines of the whole buffer (see CONTRACT). */
  readonly lines: number;
  readonly start: Float64Array;
  readonly end: Float64Array;
  readonly kind: Uint8Array;
  readonly action: Int32Array;
  readonly level: Int32Array;
  readonly attempt: Int32Array;
  readonly planStep: Int32Array;
  readonly planTotal: Int32Array;
  readonly score: Int32Array;
  readonly frames: Int32Array;
  readonly boardStart: Float64Array;
  readonly boardEnd: Float64Array;
  readonly complete: Uint8Array;
}

export const SECTION_KIND = { initial: 0, action: 1, other: 2 } as const;
/** THE section kind names, by the native code (SECTION_KIND's values index it). */
export const SECTION_KIND_NAMES = ["initial", "action", "other"] as const;
export type SectionKindName = (typeof SECTION_KIND_NAMES)[number];

/** A section table's kind code as its name ("other" for a code this build does not know). */
export function sectionKindName(code: number): SectionKindName {
  return SECTION_KIND_NAMES[code] ?? "other";
}

interface Addon {
  sectionIndex(buf: Uint8Array): SectionTable;
  prefixCheck(master: Uint8Array, copy: Uint8Array): number;
  xxh3_128(buf: Uint8Array, start?: number, end?: number): string;
  blake3(buf: Uint8Array, start?: number, end?: number): string;
  treeHash(root: string, parts: string): string;
  boardDiff(a: Uint8Array, b: Uint8Array): Int32Array;
  cellChanges(buf: Uint8Array, table: SectionTable): Int32Array;
  lineCount(buf: Uint8Array, start?: number, end?: number): number;
  mapFile(path: string, limit?: number): Uint8Array | { kind: string; message: string };
  sectionRowsText(buf: Uint8Array): Uint8Array;
}

// Implementation below is written by the native work (see native/README.md).

// The NetHack seeding library (native/nethack-seed/seed.c, built beside the addon by build-native), imported
// as a file so `bun build --compile` embeds it; here because this is the one file that reaches into native/.
import nethackSeedLibrary from "../native/nethack-seed.so" with { type: "file" };
/** Where the seeding library's bytes are (inside the single binary, a path its file system serves). */
export const NETHACK_SEED_LIBRARY: string = nethackSeedLibrary;

const BUILD_HINT = "run `npm run build:native` (needs cargo: apt-get install cargo, or rustup)";

function loadAddon(): Addon {
  try {
    // A string literal, so `bun build --compile` embeds the addon in the binary.
    return require("../native/prolong-native.node") as Addon;
  } catch (cause) {
    const why = cause instanceof Error ? cause.message : String(cause);
    // A missing addon is a setup step not yet taken, not a bug: say what to run.
    throw new Error(`prolong: the native addon native/prolong-native.node could not be loaded (${why}); ${BUILD_HINT}`, {
      cause,
    });
  }
}

const addon: Addon = loadAddon();

/** Byte offsets, header fields, frame counts and settled-board ranges of every section of a log buffer. */
export function sectionIndex(buf: Uint8Array): SectionTable {
  return addon.sectionIndex(buf);
}

/** -1 when `copy` is a byte-prefix of `master`, else the first differing offset (see CONTRACT). */
export function prefixCheck(master: Uint8Array, copy: Uint8Array): number {
  return addon.prefixCheck(master, copy);
}

/** xxh3-128 of buf[start, end) as 32 lowercase hex digits (high 64 bits first, as `xxhsum -H2`). */
export function xxh3_128(buf: Uint8Array, start?: number, end?: number): string {
  return addon.xxh3_128(buf, start, end);
}

/** blake3 (32-byte digest) of buf[start, end) as 64 lowercase hex digits. */
export function blake3(buf: Uint8Array, start?: number, end?: number): string {
  return addon.blake3(buf, start, end);
}

/**
 * blake3 (64 hex digits) over the files of `parts` under `root`, read in one call: each part in order; a
 * directory walked depth first, its entries in byte order of their names, only directories and regular files
 * taken (no link followed); a part that is a file taken as is; a missing part skipped. Each file adds its path
 * relative to root ('/' between names), a NUL, its bytes, a NUL. Throws when a file cannot be read.
 */
export function treeHash(root: string, parts: readonly string[]): string {
  return addon.treeHash(root, parts.join("\n"));
}

/** Row-major indices of the cells that differ between two text boards of one shape. */
export function boardDiff(a: Uint8Array, b: Uint8Array): Int32Array {
  return addon.boardDiff(a, b);
}

/** Per section, cells changed since the previous section's settled board (-1 where not comparable). */
export function cellChanges(buf: Uint8Array, table: SectionTable): Int32Array {
  return addon.cellChanges(buf, table);
}

/** The text table of `prolong log sections`, as UTF-8 bytes ending in '\n' (see CONTRACT). */
export function sectionRowsText(buf: Uint8Array): Uint8Array {
  return addon.sectionRowsText(buf);
}

/** '\n' bytes in buf[start, end). */
export function lineCount(buf: Uint8Array, start?: number, end?: number): number {
  return addon.lineCount(buf, start, end);
}

/** Why a file could not be mapped: kind is "missing-file", "is-directory", "not-a-file" or "unreadable". */
export interface MapFailure {
  readonly kind: string;
  readonly message: string;
}

/** The file's bytes, mapped read-only (no copy), up to `limit` and its size at open; or why not (see CONTRACT). */
export function mapFile(path: string, limit?: number): Uint8Array | MapFailure {
  return addon.mapFile(path, limit);
}
