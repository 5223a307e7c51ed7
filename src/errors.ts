// The one shape of a user-facing error. Boundaries (file I/O, parsing, agent calls, game I/O)
// return these inside a neverthrow Result; a thrown Error means a bug in prolong itself.
import { terminalLine, terminalText } from "./terminal-text.ts";
export interface ProlongError {
  /** Short machine-readable kind, e.g. "not-a-log", "bad-actions-json", "game-file". */
  readonly code: string;
  /** What went wrong, in one sentence. */
  readonly message: string;
  /** The file the problem is in, when there is one. */
  readonly path?: string;
  /** What the user can do about it. */
  readonly fix?: string;
}

export function prolongError(code: string, message: string, extra: { path?: string; fix?: string } = {}): ProlongError {
  return { code, message, ...extra };
}

/**
 * One line (or two, with the fix) for a terminal. A message quotes what it met (a field of a run file, a
 * path an agent made), so no control character in it reaches the terminal raw.
 */
export function formatError(e: ProlongError): string {
  const where = e.path ? `${terminalLine(e.path)}: ` : "";
  const fix = e.fix ? `\n  fix: ${terminalText(e.fix)}` : "";
  return `prolong: ${where}${terminalText(e.message)}${fix}`;
}
