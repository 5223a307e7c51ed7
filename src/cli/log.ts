// `prolong log <sub>`: fast inspection of big logs through the native index. One file per subcommand, loaded
// only when it runs (as the top-level table does), so `log stats` does not pay for show's, diff's or grep's imports.
import type { Command, CommandEntry } from "./command.ts";
import { didYouMean } from "../suggest.ts";
import { argumentProblem } from "./argument-problem.ts";

/** The subcommands; a test checks each name and summary against the module it loads. */
const subcommands: readonly CommandEntry[] = [
  {
    name: "stats",
    summary: "sections, actions, levels, attempts, score, frames, bytes, lines",
    load: async () => (await import("./log-stats.ts")).logStatsCommand,
  },
  {
    name: "sections",
    summary: "a line per section: action, level, attempt, score, tool call, frames, cells changed, offset",
    load: async () => (await import("./log-sections.ts")).logSectionsCommand,
  },
  {
    name: "show",
    summary: "the sections of an action or a range a..b, boards in colour on a terminal",
    load: async () => (await import("./log-show.ts")).logShowCommand,
  },
  {
    name: "diff",
    summary: "cell-level board diff between two actions",
    load: async () => (await import("./log-diff.ts")).logDiffCommand,
  },
  {
    name: "grep",
    summary: "matching lines, reported by action number",
    load: async () => (await import("./log-grep.ts")).logGrepCommand,
  },
];

const usage = `usage: prolong log <subcommand> <log> [options]

subcommands:
${subcommands.map((c) => `  ${c.name.padEnd(8)}  ${c.summary}`).join("\n")}

\`prolong log <subcommand> --help\` shows its options.`;

export const logCommand: Command = {
  name: "log",
  summary: "inspect a log: " + subcommands.map((c) => c.name).join(", "),
  usage,
  flags: {},
  subcommands,
  async run(args) {
    const [name, ...rest] = args;
    const entry = subcommands.find((c) => c.name === name);
    if (!entry) {
      const names = subcommands.map((c) => c.name).join(", ");
      return argumentProblem(
        "log",
        name === undefined
          ? `missing <subcommand>, one of ${names}`
          : `unknown subcommand '${name}'${didYouMean(
              name,
              subcommands.map((c) => c.name),
            )} (one of ${names})`,
        "prolong log <subcommand> <log|run-dir>",
      );
    }
    const sub = await entry.load();
    if (rest.includes("--help") || rest.includes("-h")) {
      console.log(sub.usage);
      return 0;
    }
    return sub.run(rest);
  },
};
