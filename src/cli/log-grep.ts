// `prolong log grep <log> PATTERN`: matching lines, reported by the action they belong to.
import { formatError } from "../errors.ts";
import { openLogOrReport } from "../inspect/cli-support.ts";
import { flag, operandsFit, parseCommandArgs } from "./args.ts";
import { formatGrep, grepLog } from "../inspect/grep.ts";
import type { Command } from "./command.ts";
import { quietStdout } from "./stdout.ts";

const usage = `usage: prolong log grep <log|run-dir> PATTERN [-F] [-i] [--max N] [--count] [--json]

Lines that match PATTERN (a JavaScript regular expression; ^ and $ match at line ends), each reported with
the action and section it belongs to and its line number. Exit 0 when something matched, 1 when nothing did.

options:
  -F, --fixed-strings  PATTERN is a plain string (fastest)
  -i, --ignore-case    ignore ASCII case
  --max N              report at most N matching lines in detail (default 1000); all are counted
  --count              only the counts
  --json               {pattern, lines, sections, matches: [{section, action, line, offset, text}], truncated}`;

const flags = {
  json: flag.bool(),
  "fixed-strings": flag.bool({ short: "F" }),
  "ignore-case": flag.bool({ short: "i" }),
  max: flag.intOr(1000, 0),
  count: flag.bool(),
} as const;

const GREP_OPERANDS = [
  { name: "<log|run-dir>", what: "a logs.txt or a run directory" },
  { name: "PATTERN", what: "the regular expression to look for (-F: the text)" },
];

export const logGrepCommand: Command = {
  name: "grep",
  summary: "matching lines, reported by action number",
  usage,
  flags,
  async run(args) {
    const parsed = parseCommandArgs("log grep", args, flags);
    if (!parsed) return 2;
    const [file, pattern] = parsed.positionals;
    const max = parsed.values.max;
    // What does not fit is said by operandsFit; the rest only narrows the types.
    if (!operandsFit("log grep", parsed.positionals, GREP_OPERANDS) || file === undefined || pattern === undefined) return 2;
    const log = openLogOrReport(file);
    if (!log) return 2;
    const count = parsed.values.count === true;
    const result = grepLog(log, pattern, {
      fixed: parsed.values["fixed-strings"] === true,
      ignoreCase: parsed.values["ignore-case"] === true,
      max: count ? 0 : max,
    });
    if (result.isErr()) {
      console.error(formatError({ ...result.error, path: log.path }));
      return 2;
    }
    const r = result.value;
    const text = parsed.values.json
      ? JSON.stringify(r)
      : count
        ? `${r.lines} matching line(s) in ${r.sections} section(s)`
        : formatGrep(r);
    quietStdout().write(`${text}\n`);
    return r.lines > 0 ? 0 : 1;
  },
};
