// The command table. Each command lives in its own file; add one line here per command.
import type { Command } from "./command.ts";
import { benchCommand } from "./bench.ts";
import { logCommand } from "./log.ts";
import { verifyCommand } from "./verify.ts";

export const commands: Command[] = [
  benchCommand,
  logCommand,
  verifyCommand,
];
