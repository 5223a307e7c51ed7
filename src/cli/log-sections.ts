// `prolong log sections <log>`: a line per section (action, level, attempt, score, tool call, frames,
// cells changed, byte offset) straight from the native index.
import { sectionRows } from "../inspect/rows.ts";
import { openLogBytesOrReport, openLogOrReport } from "../inspect/cli-support.ts";
import { sectionRowsText } from "../native.ts";
import { flag, operandsFit, parseCommandArgs } from "./args.ts";
import type { Command } from "./command.ts";
import { quietStdout, writeStdoutQuietly } from "./stdout.ts";

const usage = `usage: prolong log sections <log|run-dir> [--json]

One line per section: its index (#, what --sections targets use), action number ("init" for an INITIAL
STATE section), level, attempt, score, plan step, tool call, boards in it (animation frames + settled),
cells changed since the previous section's board, and byte offset (CUT when its board is cut short).

options:
  --json   an array of rows: {index, offset, kind, action, level, attempt, score, planStep ({step, total}
           or null, as in log show), toolCall, frames, cellsChanged, bytes, complete}`;

const flags = { json: flag.bool() } as const;

const LOG_OPERAND = { name: "<log|run-dir>", what: "a logs.txt or a run directory" };

export const logSectionsCommand: Command = {
  name: "sections",
  summary: "a line per section: action, level, attempt, score, tool call, frames, cells changed, offset",
  usage,
  flags,
  async run(args) {
    const parsed = parseCommandArgs("log sections", args, flags);
    if (!parsed) return 2;
    const [file] = parsed.positionals;
    // What does not fit is said by operandsFit; the rest only narrows the types.
    if (!operandsFit("log sections", parsed.positionals, [LOG_OPERAND]) || file === undefined) return 2;
    if (parsed.values.json) {
      const log = openLogOrReport(file);
      if (!log) return 2;
      quietStdout().write(`${JSON.stringify(sectionRows(log))}\n`);
      return 0;
    }
    // The text table is written natively from the bytes, its scan included: no section table in JavaScript.
    const bytes = openLogBytesOrReport(file);
    if (!bytes) return 2;
    await writeStdoutQuietly(sectionRowsText(bytes));
    return 0;
  },
};
