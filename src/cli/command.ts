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
  /** For a command with subcommands (`log`): them, each a Command of its own, loaded only when it runs. */
  readonly subcommands?: readonly CommandEntry[];
  /** Runs the command; resolves to the process exit code (0 ok, 1 a negative answer such as "not a prefix", 2 bad input). */
  run(args: string[]): Promise<number>;
}

/** A command as a table lists it: its name and summary, and its module loaded only when it runs. */
export interface CommandEntry {
  readonly name: string;
  readonly summary: string;
  /** Imports the command's module (a literal specifier, so `bun build --compile` bundles it). */
  load(): Promise<Command>;
  /**
   * The command prints with console.log, or through quietStdout() (cli/stdout.ts) where it writes through the
   * stream: main.ts then does not build the stdout stream for it (about 2 ms of start-up).
   */
  readonly printsOnItsOwn?: true;
}
