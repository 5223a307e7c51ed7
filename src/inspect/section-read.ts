// One section of an indexed log, parsed with THE format definition (log/format.ts), tolerantly: a section
// that does not parse (cut mid-board, hostile text, a foreign header) still yields its header fields from the
// native table and its raw text, with the parse error as a message — inspection never stops at bad input.
import { parseSection, type LogSection } from "../log/format.ts";
import type { LoadedLog } from "../log/load.ts";
import { SECTION_KIND, type SectionKindName } from "../native.ts";

export interface ReadSection {
  readonly index: number;
  readonly offset: number;
  readonly kind: SectionKindName;
  readonly action: number | null;
  readonly level: number | null;
  readonly attempt: number | null;
  readonly score: number | null;
  readonly planStep: { readonly step: number; readonly total: number } | null;
  readonly text: string;
  /** The parsed section, when it parses. */
  readonly section: LogSection | null;
  /** Why it did not parse. */
  readonly error: string | null;
}

const utf8 = new TextDecoder("utf-8");
const KIND_NAMES = ["initial", "action", "other"] as const;

export function sectionText(log: LoadedLog, i: number): string {
  return utf8.decode(log.bytes.subarray(log.table.start[i] as number, log.table.end[i] as number));
}

function field(a: Int32Array, i: number): number | null {
  const v = a[i] as number;
  return v < 0 ? null : v;
}

export function readSection(log: LoadedLog, i: number): ReadSection {
  const t = log.table;
  const text = sectionText(log, i);
  const parsed = parseSection(text);
  const step = field(t.planStep, i);
  const total = field(t.planTotal, i);
  return {
    index: i,
    offset: t.start[i] as number,
    kind: KIND_NAMES[t.kind[i] as number] ?? "other",
    action: t.kind[i] === SECTION_KIND.other ? null : field(t.action, i),
    level: field(t.level, i),
    attempt: field(t.attempt, i),
    score: field(t.score, i),
    planStep: step !== null && total !== null ? { step, total } : null,
    text,
    section: parsed.isOk() ? parsed.value : null,
    error: parsed.isErr() ? parsed.error.message : null,
  };
}
