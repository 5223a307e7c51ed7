// Markdown for stdout: a terminal gets its tables fitted to the width, a file or a pipe gets them as written.
// Apart from stdout.ts, which main.ts loads for every command and which must import nothing.
import { fitTables } from "../score/fit-tables.ts";

/** On a terminal, the tables fitted to its width (score/fit-tables.ts); elsewhere the Markdown as written. */
export function markdownForStdout(text: string): string {
  const cols = process.stdout.isTTY ? process.stdout.columns : undefined;
  return cols ? fitTables(text, cols) : text;
}
