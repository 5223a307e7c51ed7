// `prolong log sections`: one row per section, from the native table plus two cheap byte searches per
// section (its tool-call line) and the native cell counts — never a full parse, so 300K-line logs stay fast.
// The rows as objects serve --json; the text table is native sectionRowsText (on an 8M-line log, 82,840 rows
// built as JavaScript strings cost several times the section scan).
import type { LoadedLog } from "../log/load.ts";
import { sectionSummary, type SectionSummary } from "../log/section-summary.ts";
import { cellChanges } from "../native.ts";

/** One row of `prolong log sections`: the section's summary, plus what the table and two byte searches tell. */
export interface SectionListRow extends SectionSummary {
  /** The tool call as logged, e.g. 'ACTION6({"x": 38, "y": 24})', or null. */
  readonly toolCall: string | null;
  /** Boards in the section: animation frames + the settled board (1 for a plain step). */
  readonly frames: number;
  /** Cells of the settled board that differ from the previous section's; null where not comparable. */
  readonly cellsChanged: number | null;
  readonly bytes: number;
  /** false when the settled board is cut short (the log ends inside it) or missing. */
  readonly complete: boolean;
}

// At a line start only: the format escapes agent text that would read as a tool call with a leading space.
const TOOL_CALL = Buffer.from("\nTool Call: ");
const utf8 = new TextDecoder("utf-8");

function toolCallOf(bytes: Uint8Array, start: number, limit: number): string | null {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset + start, limit - start);
  const at = view.indexOf(TOOL_CALL);
  if (at < 0) return null;
  const from = at + TOOL_CALL.length;
  let end = view.indexOf(10, from);
  if (end < 0) end = view.length;
  if (end > from && view[end - 1] === 13) end--;
  return utf8.decode(view.subarray(from, end));
}

export function sectionRows(log: LoadedLog): SectionListRow[] {
  const t = log.table;
  const changes = cellChanges(log.bytes, t);
  const rows: SectionListRow[] = [];
  for (let i = 0; i < t.count; i++) {
    const summary = sectionSummary(t, i);
    const start = t.start[i] as number;
    const end = t.end[i] as number;
    const boardStart = t.boardStart[i] as number;
    const c = changes[i] as number;
    rows.push({
      ...summary,
      toolCall: summary.kind === "action" ? toolCallOf(log.bytes, start, boardStart > start ? boardStart : end) : null,
      frames: t.frames[i] as number,
      cellsChanged: c < 0 ? null : c,
      bytes: end - start,
      complete: t.complete[i] === 1,
    });
  }
  return rows;
}
