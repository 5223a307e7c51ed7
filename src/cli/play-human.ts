// `prolong play <game> --agent human`: a person plays in this terminal (to try games and record baselines).
import { formatError } from "../errors.ts";
import { createGame } from "../game/catalog.ts";
import { playInTerminal } from "../agent/human.ts";
import type { RunConfig } from "../run/config.ts";

export async function playHuman(config: RunConfig): Promise<number> {
  const game = createGame(config.game, { seed: config.seed });
  if (game.isErr()) {
    console.error(formatError(game.error));
    return 2;
  }
  if (!process.stdin.isTTY) {
    console.error("prolong play --agent human needs an interactive terminal (stdin is not a TTY)");
    return 2;
  }
  await playInTerminal(game.value, { input: process.stdin, output: process.stdout });
  return 0;
}
