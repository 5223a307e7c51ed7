// `prolong log stats <log>`: the whole log in a few figures.
import { formatError } from "../errors.ts";
import { logPathOf } from "../inspect/cli-support.ts";
import { loadLog } from "../log/load.ts";
import { logStats, type LogStats } from "../log/stats.ts";
import { flag, operandsFit, parseCommandArgs } from "./args.ts";
import type { Command } from "./command.ts";

const usage = `usage: prolong log stats <log|run-dir> [--json]

Sections, actions, levels, attempts, final score, animation frames, bytes and lines of a log.
A log whose last section was cut mid-board reports its complete sections and names the cut one.`;

/** 1234567 → "1,234,567" (toLocaleString would load the locale data: about 1 ms of a 15 ms command). */
export function groupDigits(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function render(s: LogStats): string {
  const rows: [string, string][] = [
    ["log", s.path],
    ["bytes", groupDigits(s.bytes)],
    ["lines", groupDigits(s.lines)],
    ["sections", String(s.sections)],
    ["actions", `${s.actions}${s.lastAction !== null ? ` (last: Action ${s.lastAction})` : ""}`],
    ["levels reached", String(s.levels)],
    ["final score", s.finalScore === null ? "-" : String(s.finalScore)],
    ["attempts", `max ${s.maxAttempt}, ${s.gameOvers} game over(s)`],
    ["frames", `${s.frames} (${s.animatedSections} animated section(s))`],
  ];
  if (s.unreadable > 0) rows.push(["unreadable headers", String(s.unreadable)]);
  if (s.preambleBytes > 0) rows.push(["preamble", `${s.preambleBytes} byte(s) before the first separator`]);
  if (s.cut)
    rows.push([
      "CUT",
      `section ${s.cut.index + 1}${s.cut.action !== null ? ` (Action ${s.cut.action})` : ""} at byte ${s.cut.offset} ends mid-board`,
    ]);
  const w = Math.max(...rows.map((r) => r[0].length));
  return rows.map(([k, v]) => `${k.padEnd(w)}  ${v}`).join("\n");
}

const flags = { json: flag.bool() } as const;

const STATS_OPERAND = { name: "<log|run-dir>", what: "a logs.txt, a run directory or a batch directory" };

export const logStatsCommand: Command = {
  name: "stats",
  summary: "sections, actions, levels, attempts, score, frames, bytes, lines",
  usage,
  flags,
  async run(args) {
    const parsed = parseCommandArgs("log stats", args, flags);
    if (!parsed) return 2;
    const [path] = parsed.positionals;
    // What does not fit is said by operandsFit; the rest only narrows the types.
    if (!operandsFit("log stats", parsed.positionals, [STATS_OPERAND]) || path === undefined) return 2;
    const log = loadLog(logPathOf(path));
    if (log.isErr()) {
      console.error(formatError(log.error));
      return 2;
    }
    const stats = logStats(log.value);
    console.log(parsed.values.json ? JSON.stringify(stats) : render(stats));
    return 0;
  },
};
