// `prolong log show <log> <action|a..b>`: the selected sections, boards in colour on a terminal.
import { logGridMode } from "../inspect/board.ts";
import { openLogOrReport } from "../inspect/cli-support.ts";
import { logKind } from "../inspect/log-kind.ts";
import { flag, operandsFit, parseCommandArgs } from "./args.ts";
import { renderShown, showSection } from "../inspect/show.ts";
import { jsonText } from "../terminal-text.ts";
import { parseTarget, resolveTarget } from "../inspect/target.ts";
import { formatError } from "../errors.ts";
import type { Command } from "./command.ts";
import { quietStdout } from "./stdout.ts";

const usage = `usage: prolong log show <log|run-dir> <action|a..b|a..|..b|last> [--frames] [--sections] [--color auto|always|never] [--json]

The selected sections: header, [PLAN] text, tool call and the settled board — in the ARC colours as
half-block characters on a terminal, as the log's own text otherwise. A section that does not parse (cut
mid-board, foreign text) is shown raw with the reason.

options:
  --frames      also show each animation frame before the settled board
  --sections    the numbers are section indices (the # column of 'prolong log sections'), not actions
  --color WHEN  auto (a terminal gets colour), always or never
  --json        an array of {index, offset, kind, action, level, attempt, score, planStep, plan, toolCall,
                boards, board (rows), frameBoards (with --frames), error, text (only when unreadable)}`;

const flags = {
  json: flag.bool(),
  frames: flag.bool(),
  sections: flag.bool(),
  color: flag.choiceOr(["auto", "always", "never"], "auto"),
} as const;

const SHOW_OPERANDS = [
  { name: "<log|run-dir>", what: "a logs.txt or a run directory" },
  { name: "<action|a..b|a..|..b|last>", what: "which sections to show (an action number, a range, or last)" },
];

export const logShowCommand: Command = {
  name: "show",
  summary: "the sections of an action or a range a..b, boards in colour on a terminal",
  usage,
  flags,
  async run(args) {
    const parsed = parseCommandArgs("log show", args, flags);
    if (!parsed) return 2;
    const [file, which] = parsed.positionals;
    const when = parsed.values.color;
    // What does not fit is said by operandsFit; the rest only narrows the types.
    if (!operandsFit("log show", parsed.positionals, SHOW_OPERANDS) || file === undefined || which === undefined) return 2;
    const log = openLogOrReport(file);
    if (!log) return 2;
    const picked = parseTarget(which, parsed.values.sections === true).andThen((t) => resolveTarget(log.table, t));
    if (picked.isErr()) {
      console.error(formatError({ ...picked.error, path: log.path }));
      return 2;
    }
    const opts = {
      colour: when === "always" || (when === "auto" && quietStdout().isTTY === true && !process.env.NO_COLOR),
      frames: parsed.values.frames === true,
      mode: logGridMode(log),
      kind: logKind(log.path),
    };
    const out = parsed.values.json
      ? jsonText(picked.value.map((i) => showSection(log, i, opts)))
      : picked.value.map((i) => renderShown(log, i, opts)).join("\n\n");
    quietStdout().write(`${out}\n`);
    return 0;
  },
};
