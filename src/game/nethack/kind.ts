// NetHack as an environment kind: its description, which any command may load (the character settings, its
// defaults, its one game, its metric and player). What plays it (play.ts: the terminal game, its named actions,
// its instructions) loads only when a run needs it; its section codec (codec.ts) when a run or a reader of its
// sections does.
import * as v from "valibot";
import { flag } from "../../setting/flag.ts";
import { setting } from "../../setting/declaration.ts";
import { envKindOf, soleGame } from "../kind.ts";

export const ROLES = [
  "archeologist",
  "barbarian",
  "caveman",
  "healer",
  "knight",
  "monk",
  "priest",
  "rogue",
  "ranger",
  "samurai",
  "tourist",
  "valkyrie",
  "wizard",
] as const;
export const RACES = ["human", "elf", "dwarf", "gnome", "orc"] as const;
export const ALIGNMENTS = ["lawful", "neutral", "chaotic"] as const;
export const GENDERS = ["male", "female"] as const;

export const PROTOCOLS = ["balrog"] as const;

/** BALROG's NetHack episode cap (its nle_kwargs.max_episode_steps). */
export const BALROG_EPISODE_CAP = 100_000;

/** NetHack's one game: `play --env nethack` needs no game named. */
export const NETHACK_GAME_ID = "nethack";

/** The fixed character of a run (defaults: a human neutral female valkyrie, game/nethack/character.ts). */
export const nethackSettings = {
  role: setting({
    schema: v.optional(v.picklist(ROLES, `role must be one of ${ROLES.join(", ")}`)),
    flag: { name: "role", read: flag.choice(ROLES) },
    arm: true,
    help: { group: "games", arg: "R", text: "for nethack: the character's role (default valkyrie)" },
  }),
  race: setting({
    schema: v.optional(v.picklist(RACES, `race must be one of ${RACES.join(", ")}`)),
    flag: { name: "race", read: flag.choice(RACES) },
    arm: true,
    help: { group: "games", arg: "R", text: "for nethack: the character's race (default human)" },
  }),
  alignment: setting({
    schema: v.optional(v.picklist(ALIGNMENTS, `alignment must be one of ${ALIGNMENTS.join(", ")}`)),
    flag: { name: "align", read: flag.choice(ALIGNMENTS) },
    arm: true,
    // Derived arm names have spelled it so since it was added; runs named before still pool with new ones.
    label: "--alignment",
    help: {
      group: "games",
      arg: "A",
      text: `for nethack: the character's alignment (default neutral);
NetHack runs default to --max-actions 20000 and --action-cap 30`,
    },
  }),
  /**
   * BALROG's evaluation protocol as an arm preset (docs/nethack.md says what still differs): a character the
   * game draws from the seed, one action per call, every --More-- answered and joined, an action that is none
   * played as Esc, its episode cap and its no-progress rule.
   */
  protocol: setting({
    schema: v.optional(v.picklist(PROTOCOLS, `protocol must be one of ${PROTOCOLS.join(", ")}`)),
    flag: { name: "protocol", read: flag.choice(PROTOCOLS) },
    arm: true,
    preset: () => ({ fixed: { actionCap: 1 }, defaults: { maxActions: BALROG_EPISODE_CAP } }),
    help: {
      group: "games",
      arg: "P",
      text: `for nethack: balrog plays as BALROG evaluates: a random character drawn from the seed,
--action-cap 1, --More-- answered, invalid actions played as esc, --max-actions ${BALROG_EPISODE_CAP}
by default, the episode ended after 150 actions without a game turn; run 5 seeds (--runs 5)`,
    },
  }),
};

export const nethackKind = envKindOf({
  name: "nethack",
  title: "NetHack",
  about: "the real NetHack 3.6 (apt-get install nethack-console)",
  settings: nethackSettings,
  // Episodes of 20,000 actions and batches of up to 30, as in the paper.
  defaults: { maxActions: 20_000, actionCap: 30 },
  metric: "progression",
  terminalGame: true,
  soleGame: NETHACK_GAME_ID,
  builtinPlayer: "nethack-agent",
  provenance: (run) => (require("./provenance.ts") as typeof import("./provenance.ts")).nethackProvenance(run),
  games: soleGame(NETHACK_GAME_ID, null, "nethack"),

  load: async () => (await import("./play.ts")).nethackPlay,
  codec: () => (require("./codec.ts") as typeof import("./codec.ts")).nethackCodec,
});
