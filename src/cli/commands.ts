// The command table. Each command lives in its own file; add one line here per command.
import type { Command } from "./command.ts";

export const commands: Command[] = [
];
