// The command table. Each command lives in its own file; add one line here per command.
import type { Command } from "./command.ts";
import { benchCommand } from "./bench.ts";
import { gamesCommand } from "./games.ts";
import { initCommand } from "./init.ts";
import { logCommand } from "./log.ts";
import { playCommand } from "./play.ts";
import { replayCommand } from "./replay.ts";
import { resumeCommand } from "./resume.ts";
import { scoreCommand } from "./score.ts";
import { statusCommand } from "./status.ts";
import { uninstallCommand } from "./uninstall.ts";
import { verifyCommand } from "./verify.ts";
import { viewCommand } from "./view.ts";

export const commands: Command[] = [
  benchCommand,
  gamesCommand,
  playCommand,
  resumeCommand,
  scoreCommand,
  replayCommand,
  logCommand,
  verifyCommand,
  viewCommand,
  initCommand,
  statusCommand,
  uninstallCommand,
];
