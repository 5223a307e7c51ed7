// The tool-call distribution as `prolong score` prints it: one row per arm, each class's share of the calls
// and the log pulled into the context per turn against the log the agent had (docs/trajectory.md).
import type { ArmReport } from "./report.ts";
import { TOOL_CLASS_LABELS, TOOL_CLASSES } from "./tool-classes.ts";

function pct(x: number): string {
  return `${(x * 100).toFixed(0)}%`;
}

function bytes(x: number | null): string {
  return x === null ? "–" : String(Math.round(x)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** The table, or "" when no arm has a trajectory with a tool call. */
export function toolUseMarkdown(arms: readonly ArmReport[]): string {
  const shown = arms.filter((a) => a.toolUse !== null && a.toolUse.calls > 0);
  if (shown.length === 0) return "";
  const head = [
    "arm",
    "turns",
    "tool calls",
    ...TOOL_CLASSES.map((c) => TOOL_CLASS_LABELS[c]),
    "log B pulled / turn",
    "log B given / turn",
    "pulled share / turn",
  ];
  const rows = shown.map((a) => {
    const u = a.toolUse!;
    return [
      a.name,
      String(u.turns),
      String(u.calls),
      ...TOOL_CLASSES.map((c) => pct(u.shares[c])),
      bytes(u.logBytesPulledPerTurn),
      bytes(u.logBytesGivenPerTurn),
      u.meanPulledShare === null ? "–" : `${(u.meanPulledShare * 100).toFixed(1)}%`,
    ];
  });
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [
    "Tool calls by class (from each run's trajectory.jsonl; classes and rules: docs/trajectory.md):",
    "",
    line(head),
    line(head.map(() => "---")),
    ...rows.map(line),
  ].join("\n");
}
