// The shape every command file in src/cli/ exports. main.ts only dispatches.
export interface Command {
  readonly name: string;
  /** One line for `prolong --help`. */
  readonly summary: string;
  /** Full usage text for `prolong <name> --help`. */
  readonly usage: string;
  /** Runs the command; resolves to the process exit code (0 ok, 1 a negative answer such as "not a prefix", 2 bad input). */
  run(args: string[]): Promise<number>;
}
