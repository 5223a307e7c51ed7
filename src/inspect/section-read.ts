// One section of an indexed log, parsed with THE format definition (log/format.ts), tolerantly: a section
// that does not parse (cut mid-board, hostile text, a foreign header) still yields its header fields from the
// native table and its raw text, with the parse error as a message — inspection never stops at bad input.
import { parseSection, type LogSection } from "../log/format.ts";
import type { LoadedLog } from "../log/load.ts";
import { sectionSummary, type SectionSummary } from "../log/section-summary.ts";

/** A section's summary, its text, and its parse (or why it did not parse). */
export interface ReadSection extends SectionSummary {
  readonly text: string;
  /** The parsed section, when it parses. */
  readonly section: LogSection | null;
  /** Why it did not parse. */
  readonly error: string | null;
}

const utf8 = new TextDecoder("utf-8");

export function sectionText(log: LoadedLog, i: number): string {
  return utf8.decode(log.bytes.subarray(log.table.start[i] as number, log.table.end[i] as number));
}

export function readSection(log: LoadedLog, i: number): ReadSection {
  const text = sectionText(log, i);
  const parsed = parseSection(text);
  return {
    ...sectionSummary(log.table, i),
    text,
    section: parsed.isOk() ? parsed.value : null,
    error: parsed.isErr() ? parsed.error.message : null,
  };
}
