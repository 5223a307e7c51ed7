// `prolong log sections`: one row per section, from the native table plus two cheap byte searches per
// section (its tool-call line) and the native cell counts — never a full parse, so 300K-line logs stay fast.
import type { LoadedLog } from "../log/load.ts";
import { planStepText, sectionSummary, type SectionSummary } from "../log/section-summary.ts";
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

const COLUMNS = ["#", "action", "level", "attempt", "score", "plan", "tool call", "frames", "changed", "offset"] as const;

/** A fixed-width table: one line per section, a header line first. */
export function formatRows(rows: readonly SectionListRow[]): string {
  const cells = rows.map((r) => [
    String(r.index),
    r.kind === "initial" ? `${r.action} init` : r.action === null ? "?" : String(r.action),
    r.level === null ? "-" : String(r.level),
    r.attempt === null ? "-" : String(r.attempt),
    r.score === null ? "-" : String(r.score),
    planStepText(r.planStep) ?? "-",
    r.toolCall ?? (r.kind === "other" ? "(unreadable header)" : "-"),
    String(r.frames),
    r.cellsChanged === null ? "-" : String(r.cellsChanged),
    String(r.offset) + (r.complete ? "" : " CUT"),
  ]);
  const widths = COLUMNS.map((h) => h.length);
  for (const row of cells) row.forEach((v, c) => (widths[c] = Math.max(widths[c] ?? 0, v.length)));
  const line = (row: readonly string[]) =>
    row
      .map((v, c) => (c === 6 ? v.padEnd(widths[c] ?? 0) : v.padStart(widths[c] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(COLUMNS), ...cells.map(line)].join("\n");
}
