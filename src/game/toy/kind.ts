// The toy game as an environment kind (`--env toy`): one small deterministic game of mazes, pits and a
// switch (game.ts), with one setting of its own. All a kind needs is this description and one registry line.
import { ok } from "neverthrow";
import * as v from "valibot";
import { setting } from "../../setting/declaration.ts";
import { flag } from "../../setting/flag.ts";
import { localEnv } from "../env.ts";
import { envKindOf, gridCodec, soleGame } from "../kind.ts";

export const toySettings = {
  /** How many of the toy's three levels a run plays (default all three). */
  toyLevels: setting({
    schema: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(3, "--toy-levels is 1, 2 or 3"))),
    flag: { name: "toy-levels", read: flag.int(1, 3) },
    arm: true,
    help: { group: "games", arg: "N", text: "for toy: play its first N levels (1 to 3; default 3)" },
  }),
};

export const toyKind = envKindOf({
  name: "toy",
  title: "the toy game",
  about: "a small maze game with pits and a switch, the smallest kind",
  settings: toySettings,
  metric: "rhae",
  soleGame: "toy",
  builtinPlayer: "explorer",
  games: soleGame("toy", "1", "toy"),
  codec: gridCodec,
  async load() {
    const { ToyGame, TOY_LEVELS } = await import("./game.ts");
    return { open: (run) => ok(localEnv(new ToyGame(TOY_LEVELS.slice(0, run.toyLevels ?? TOY_LEVELS.length)))) };
  },
});
