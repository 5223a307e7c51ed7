// The shape every command file in src/cli/ exports. main.ts only dispatches.
import type { FlagTable } from "./args.ts";

export interface Command {
  readonly name: string;
  /** One line for `prolong --help`. */
  readonly summary: string;
  /** Full usage text for `prolong <name> --help`. */
  readonly usage: string;
  /** Its flags: what `run` parses argv with, and what the documented examples are checked against. */
  readonly flags: FlagTable;
  /** For a command with subcommands (`log`): them, each a Command of its own. */
  readonly subcommands?: readonly Command[];
  /** Runs the command; resolves to the process exit code (0 ok, 1 a negative answer such as "not a prefix", 2 bad input). */
  run(args: string[]): Promise<number>;
}
