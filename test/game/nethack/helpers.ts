// Real NetHack for the tests: is it installed, a fresh folder per game, a game started with a seed.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseNethackAction } from "../../../src/game/nethack/actions.ts";
import { DEFAULT_CHARACTER } from "../../../src/game/nethack/character.ts";
import { NethackGame } from "../../../src/game/nethack/game.ts";
import { findNethack } from "../../../src/game/nethack/install.ts";

export const NO_NETHACK = findNethack().isErr();

export function gameRoot(): string {
  return mkdtempSync(join(tmpdir(), "prolong-nethack-test-"));
}

export async function startGame(seed: number, folder = join(gameRoot(), "game")): Promise<NethackGame> {
  const started = await NethackGame.start({ folder, seed, character: DEFAULT_CHARACTER });
  if (started.isErr()) throw new Error(started.error.message);
  return started.value.game;
}

export function action(name: string) {
  const a = parseNethackAction(name);
  if (!a.ok) throw new Error(a.reason);
  return a.action;
}

/** Plays the named actions, returning the screen text after each. */
export async function play(game: NethackGame, names: readonly string[]): Promise<string[]> {
  const screens: string[] = [];
  for (const n of names) {
    const r = await game.step(action(n));
    if (r.isErr()) throw new Error(r.error.message);
    screens.push(r.value.observation.screen.rows.join("\n"));
  }
  return screens;
}
