// `prolong log diff <log> <a> <b>`: which cells of the settled board changed between two actions.
import { Result } from "neverthrow";
import { formatError } from "../errors.ts";
import { logGridMode } from "../inspect/board.ts";
import { openLogOrReport } from "../inspect/cli-support.ts";
import { flag, operandsFit, parseCommandArgs } from "./args.ts";
import { diffSections, formatDiff } from "../inspect/diff.ts";
import { resolveOne } from "../inspect/target.ts";
import type { Command } from "./command.ts";
import { quietStdout } from "./stdout.ts";

const usage = `usage: prolong log diff <log|run-dir> <a> <b> [--sections] [--json]

The cell-level difference between the settled boards after action a and after action b ("last" is the
last section). An action number that names two sections (a lifetime log's next episode starts with an
INITIAL STATE section of the same number) means the first of them; --sections picks by section index.

options:
  --sections  a and b are section indices (the # column of 'prolong log sections')
  --json      {from: {section, action}, to: {section, action}, width, height, changed, box, cells: [{x, y, from, to}]}
              (colours are 0..15)`;

const flags = { json: flag.bool(), sections: flag.bool() } as const;

const DIFF_OPERANDS = [
  { name: "<log|run-dir>", what: "a logs.txt or a run directory" },
  { name: "<a>", what: "the action whose board to start from (a number or last)" },
  { name: "<b>", what: "the action whose board to compare with (a number or last)" },
];

export const logDiffCommand: Command = {
  name: "diff",
  summary: "cell-level board diff between two actions",
  usage,
  flags,
  async run(args) {
    const parsed = parseCommandArgs("log diff", args, flags);
    if (!parsed) return 2;
    const [file, a, b] = parsed.positionals;
    // What does not fit is said by operandsFit; the rest only narrows the types.
    if (!operandsFit("log diff", parsed.positionals, DIFF_OPERANDS) || file === undefined || a === undefined || b === undefined)
      return 2;
    const log = openLogOrReport(file);
    if (!log) return 2;
    const bySection = parsed.values.sections === true;
    const picked = Result.combine([resolveOne(log.table, a, bySection), resolveOne(log.table, b, bySection)]);
    if (picked.isErr()) {
      console.error(formatError({ ...picked.error, path: log.path }));
      return 2;
    }
    const [ia, ib] = picked.value;
    const mode = logGridMode(log);
    const report = diffSections(log, ia as number, ib as number, mode);
    if (report.isErr()) {
      console.error(formatError(report.error));
      return 2;
    }
    quietStdout().write(`${parsed.values.json ? JSON.stringify(report.value) : formatDiff(report.value, mode)}\n`);
    return 0;
  },
};
