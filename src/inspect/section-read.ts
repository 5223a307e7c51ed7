// One section of an indexed log as its readers show it, read by the codec of the kind that wrote it (the kind its
// run.json names, inspect/log-kind.ts; for a bare log, the registry finds the codec that reads it), tolerantly: a section no kind reads (cut
// mid-board, hostile text, a foreign header) still yields its header fields from the native table and its raw
// text, with why it was refused — inspection never stops at bad input.
import { viewSection, type EnvKind, type SectionView } from "../game/kinds.ts";
import type { LoadedLog } from "../log/load.ts";
import { sectionSummary, type SectionSummary } from "../log/section-summary.ts";

/** A section's summary, its text, and what its kind's codec shows of it (or why no kind reads it). */
export interface ReadSection extends SectionSummary {
  readonly text: string;
  /** The section as its readers show it, when a kind reads it. */
  readonly view: SectionView | null;
  /** The kind whose codec read it. */
  readonly by: EnvKind | null;
  /** Why no kind reads it. */
  readonly error: string | null;
}

const utf8 = new TextDecoder("utf-8");

export function sectionText(log: LoadedLog, i: number): string {
  return utf8.decode(log.bytes.subarray(log.table.start[i] as number, log.table.end[i] as number));
}

/** Section i, read by the codec of `kind` (the log's run's) when given and it reads it, else of the kind that does. */
export function readSection(log: LoadedLog, i: number, kind?: EnvKind): ReadSection {
  const text = sectionText(log, i);
  const read = viewSection(text, kind);
  return {
    ...sectionSummary(log.table, i),
    text,
    view: read.isOk() ? read.value.view : null,
    by: read.isOk() ? read.value.kind : null,
    error: read.isErr() ? read.error : null,
  };
}
