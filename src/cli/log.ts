// `prolong log <sub>`: fast inspection of big logs through the native index. One file per subcommand.
import type { Command } from "./command.ts";
import { didYouMean } from "../suggest.ts";
import { logStatsCommand } from "./log-stats.ts";
import { logSectionsCommand } from "./log-sections.ts";
import { logShowCommand } from "./log-show.ts";
import { logDiffCommand } from "./log-diff.ts";
import { logGrepCommand } from "./log-grep.ts";

const subcommands: Command[] = [logStatsCommand, logSectionsCommand, logShowCommand, logDiffCommand, logGrepCommand];

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
    const sub = subcommands.find((c) => c.name === name);
    if (!sub) {
      console.error(
        name === undefined
          ? usage
          : `prolong log: unknown subcommand '${name}'${didYouMean(
              name,
              subcommands.map((c) => c.name),
            )}\n\n${usage}`,
      );
      return 2;
    }
    if (rest.includes("--help") || rest.includes("-h")) {
      console.log(sub.usage);
      return 0;
    }
    return sub.run(rest);
  },
};
