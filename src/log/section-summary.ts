// "A section" as every reader of a log names it: where it is, its kind and its header fields, read from the
// native section table (never a full parse, so it holds for a hostile or cut log). `log sections` rows,
// `log show`, inspection's tolerant read and the view's replay steps all start from this one shape.
//
// Deliberately apart: LogSection (format.ts) is a section's whole content, written and parsed byte-exactly;
// SectionSpan / SectionRow (window.ts, run-index.ts) are the harness's own record of what it appended —
// ranges and checksums it trusts, in SQL columns — not what a reader found in a file; the explorer's
// LoggedStep is the built-in agent's hot-path view of its copy (plain numbers, -1 for unreadable, no nulls).
import { sectionKindName, type SectionKindName, type SectionTable } from "../native.ts";

export interface SectionSummary {
  /** 0-based section index in the log (what `--sections` targets refer to). */
  readonly index: number;
  /** Byte offset of the section's separator. */
  readonly offset: number;
  readonly kind: SectionKindName;
  /** Header fields; null when the header does not say (an unreadable header gives null for all). */
  readonly action: number | null;
  readonly level: number | null;
  readonly attempt: number | null;
  readonly score: number | null;
  readonly planStep: { readonly step: number; readonly total: number } | null;
}

/** The summary of section `i` of a native section table. */
export function sectionSummary(t: SectionTable, i: number): SectionSummary {
  const kind = sectionKindName(t.kind[i] as number);
  const field = (a: Int32Array): number | null => (kind === "other" || (a[i] as number) < 0 ? null : (a[i] as number));
  const step = field(t.planStep);
  const total = field(t.planTotal);
  return {
    index: i,
    offset: t.start[i] as number,
    kind,
    action: field(t.action),
    level: field(t.level),
    attempt: field(t.attempt),
    score: field(t.score),
    planStep: step !== null && total !== null ? { step, total } : null,
  };
}

/** A plan step as the log writes it ("3/4"), for tables and the view. */
export function planStepText(p: SectionSummary["planStep"]): string | null {
  return p ? `${p.step}/${p.total}` : null;
}
