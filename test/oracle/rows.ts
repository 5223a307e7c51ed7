// The obviously-correct twin of native sectionRowsText: the `log sections` table built as JavaScript strings
// from the row objects --json prints (padStart / padEnd count UTF-16 units, as the contract says).
import { sectionRows } from "../../src/inspect/rows.ts";
import { planStepText } from "../../src/log/section-summary.ts";
import { sectionIndex } from "../../src/native.ts";

const COLUMNS = ["#", "action", "level", "attempt", "score", "plan", "tool call", "frames", "changed", "offset"] as const;

export function sectionRowsTextOracle(bytes: Uint8Array): string {
  const cells = sectionRows({ path: "-", bytes, table: sectionIndex(bytes) }).map((r) => [
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
  return `${[line(COLUMNS), ...cells.map(line)].join("\n")}\n`;
}
