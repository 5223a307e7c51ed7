// The one shape of an argument error, in a leaf of its own: `prolong log stats` and the other light commands
// print it without loading the flag parser (valibot, neverthrow) that args.ts brings.
import { terminalLine } from "../terminal-text.ts";

/**
 * Prints a command's argument problem in the one shape every command uses: what was wrong (naming the flag or
 * argument), then the fix and where the help is — two lines, never the whole usage. Returns the exit code, 2.
 */
export function argumentProblem(command: string, problem: string, fix?: string): 2 {
  // The problem quotes what was typed: no control character of it reaches the terminal raw.
  const fixText = fix ? `${terminalLine(fix)}; ` : "";
  console.error(`prolong ${command}: ${terminalLine(problem)}\n  fix: ${fixText}see 'prolong ${command} --help'`);
  return 2;
}
