// The fixed character of a NetHack run and the options file every game of the run starts with.
import * as v from "valibot";
import { ALIGNMENTS, GENDERS, RACES, ROLES } from "./kind.ts";

export { ALIGNMENTS, GENDERS, RACES, ROLES };

/** "random": the game draws it (from its seeded generator, so from the run's seed), within what the rest allows. */
const RANDOM = "random" as const;

export const CharacterSchema = v.object({
  role: v.picklist([...ROLES, RANDOM]),
  race: v.picklist([...RACES, RANDOM]),
  alignment: v.picklist([...ALIGNMENTS, RANDOM]),
  gender: v.picklist([...GENDERS, RANDOM]),
});
export type Character = v.InferOutput<typeof CharacterSchema>;

/** A human neutral female valkyrie: a role every race/alignment table allows and the one NetHack agents start with most. */
export const DEFAULT_CHARACTER: Character = { role: "valkyrie", race: "human", alignment: "neutral", gender: "female" };

/**
 * A character NetHack draws itself, as BALROG's NetHack (NLE's character "@") has it: every part random, so the
 * game picks a valid role, race, gender and alignment from its seeded generator — one character per seed.
 */
export const RANDOM_CHARACTER: Character = { role: RANDOM, race: RANDOM, alignment: RANDOM, gender: RANDOM };

/**
 * The run's character: drawn by the game under --protocol balrog, else the default with the settings' --role,
 * --race and --alignment over it.
 */
export function characterOf(c: {
  readonly role?: string;
  readonly race?: string;
  readonly alignment?: string;
  readonly protocol?: string;
}): Character {
  if (c.protocol === "balrog") return RANDOM_CHARACTER;
  return {
    ...DEFAULT_CHARACTER,
    ...(c.role ? { role: c.role as Character["role"] } : {}),
    ...(c.race ? { race: c.race as Character["race"] } : {}),
    ...(c.alignment ? { alignment: c.alignment as Character["alignment"] } : {}),
  };
}

/** The player's name; status line 22 starts with it ("Agent the Stripling ..."). */
export const PLAYER_NAME = "Agent";

/**
 * NETHACKOPTIONS file text. Every option here was checked against 3.6.6 (a bad option stops the game at an
 * error screen): colours on (recorded in the log; display only), no animation delays, no questions at death,
 * nothing that depends on other games.
 */
export function optionsText(c: Character): string {
  return [
    "OPTIONS=windowtype:tty",
    `OPTIONS=name:${PLAYER_NAME},role:${c.role},race:${c.race},gender:${c.gender},align:${c.alignment}`,
    "OPTIONS=!autopickup,number_pad:0,!legacy,!news,!mail,!splash_screen,suppress_alert:3.4.3",
    "OPTIONS=!cmdassist,!timed_delay,color,!hilite_pet,!hitpointbar,!perm_invent,!bones,!tombstone,!toptenwin",
    "OPTIONS=time,showexp,runmode:teleport,disclose:-i -a -v -g -c -o,!null",
    // Save (S) would end the process as if the hero had died, and the options (O) would let the agent change
    // what the status parser reads: both keys are unbound (in menus and prompts the letters still answer).
    "BIND=S:nothing",
    "BIND=O:nothing",
    "",
  ].join("\n");
}
