// A log's sections parsed one at a time from its (mapped) bytes, for readers that walk the whole log once —
// `prolong replay`: only the section at hand is decoded into a string, never the whole log, so a big log costs
// its mapping and one section's text at a time. Section boundaries come from the native index; each section's
// text is parsed by the format's own parseSection. The sections and the cut are parseLog's on the decoded log
// (the differential test holds the two to it): boundaries fall right after a '\n', so decoding section by
// section gives the same characters as decoding the whole.
import type { LogCut, LogSection } from "./format.ts";
import { parseSection } from "./format.ts";
import { sectionIndex, type SectionTable } from "../native.ts";

const utf8 = new TextDecoder("utf-8");
/**
 * Sections between two garbage collections. Each section's text, lines and grids become garbage once the reader
 * moves on, but the engine's heuristics let it pile up: iterating a 124 MB log held ~350 MB of it at the peak;
 * collecting every 256 sections keeps it near 60 MB whatever the log's size, at no cost in time (measured on
 * the 2M-line generated log).
 */
const COLLECT_EVERY = 256;

export class LogSectionStream implements Iterable<LogSection> {
  /** Sections parsed so far (all that parse, once the iteration has ended). */
  parsed = 0;
  /** Where parsing stopped, as parseLog names it; known once the iteration has reached it. */
  cut: LogCut | undefined;
  private readonly table: SectionTable;

  constructor(private readonly bytes: Uint8Array) {
    this.table = sectionIndex(bytes);
  }

  /** Sections in the log (a cut one and those after it included). */
  get count(): number {
    return this.table.count;
  }

  *[Symbol.iterator](): Iterator<LogSection> {
    const t = this.table;
    if (utf8.decode(this.bytes.subarray(0, t.preambleEnd)).trim() !== "") {
      const reason =
        t.count === 0
          ? "no separator line (80 '=') found: this is not a prolong log"
          : "text before the first separator line: a prolong log starts with a line of 80 '='";
      this.cut = { index: 0, offset: 0, reason };
      return;
    }
    for (let k = 0; k < t.count; k++) {
      const start = t.start[k] as number;
      const parsed = parseSection(utf8.decode(this.bytes.subarray(start, t.end[k] as number)));
      if (parsed.isErr()) {
        this.cut = { index: k, offset: start, reason: parsed.error.message };
        return;
      }
      this.parsed = k + 1;
      if (this.parsed % COLLECT_EVERY === 0) Bun.gc(false);
      yield parsed.value;
    }
  }
}
