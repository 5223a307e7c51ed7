// Staying alive: pray when weak from hunger or nearly dead (the gods answer about once in 1,000 turns),
// eat when hungry, and when HP is low and prayer is not available write Elbereth in the dust and rest on it
// (most monsters will not attack a hero standing on it; attacking from it would erase it, so the hero waits,
// unless a neighbour hurts it anyway: then it fights back and writes the word again when alone).
import type { Status } from "../../game/nethack/status.ts";
import type { Decision } from "./decision.ts";
import type { Cell } from "./map.ts";
import type { LevelMemory } from "./memory.ts";
import { isFood } from "./prompts.ts";

/** Turns between prayers: the gods answer again after about 1,000 turns (less is safe only when lucky). */
export const PRAYER_TIMEOUT = 1000;

const STARVING = new Set(["Weak", "Fainting", "Fainted"]);
const HUNGRY = new Set(["Hungry", "Weak", "Fainting", "Fainted"]);

export interface SurvivalInput {
  readonly status: Status;
  readonly lastPrayerTurn: number | undefined;
  readonly inventory: readonly string[];
  readonly memory: LevelMemory;
  readonly hero: Cell;
  /** Sections of this level since which HP fell, newest last: the HP of each. */
  readonly hpHistory: readonly number[];
  /** Monsters that ignore Elbereth stand next to the hero ('@' humans, 'A' angels, minotaurs). */
  readonly fearlessNear: boolean;
  /** The game said lately that the hero cannot write on the floor (engulfed, levitating). */
  readonly cannotEngrave: boolean;
  /** Hostile monsters next to the hero. */
  readonly hostiles: number;
  /** How careful to be: 0 normally, higher after earlier episodes of this lifetime died. */
  readonly caution: number;
}

/** Low HP as the gods count it (major trouble: a prayer then heals): at most 5, or at most a seventh of the maximum. */
export function prayableHp(status: Status): boolean {
  return status.hp <= 5 || status.hp * 7 <= status.hpMax;
}

export function survive(input: SurvivalInput): Decision | undefined {
  const { status, lastPrayerTurn, inventory, memory, hero } = input;
  const canPray = lastPrayerTurn === undefined || status.turn - lastPrayerTurn > PRAYER_TIMEOUT;
  const starving = STARVING.has(status.hunger);
  if (canPray && (starving || prayableHp(status)))
    return { actions: ["pray"], reason: `praying (HP ${status.hp}/${status.hpMax}, ${status.hunger})` };
  if (HUNGRY.has(status.hunger) && status.hunger !== "Fainted" && inventory.some(isFood))
    return { actions: ["eat"], reason: `eating (${status.hunger})` };

  // Low and no prayer left: Elbereth, then rest on it until HP is back to two thirds.
  const onElbereth = memory.elbereth && memory.elbereth.at.x === hero.x && memory.elbereth.at.y === hero.y;
  // Weak: under 2/7 of the maximum (a further 1/7 for each earlier death of the lifetime, and when surrounded).
  const sevenths = 2 + Math.min(3, input.caution) + (input.hostiles >= 2 ? 1 : 0);
  const weak = status.hp < Math.max(6, Math.ceil((status.hpMax * sevenths) / 7));
  if (input.fearlessNear || input.cannotEngrave) return undefined;
  if (onElbereth) {
    const since = input.hpHistory.slice(memory.elbereth!.section);
    const hurtSince = since.some((hp, i) => i > 0 && hp < since[i - 1]!);
    // Hurt by a neighbour anyway (it ignores Elbereth, or cannot flee): fight it; attacking erases the word,
    // which is written again once nothing stands next to the hero.
    if (hurtSince && input.hostiles > 0) return undefined;
    if (hurtSince && weak) return { actions: ["E"], reason: "hurt while on Elbereth: writing it again" };
    if (status.hp < Math.ceil((status.hpMax * 2) / 3))
      return { actions: ["20", "search"], reason: `resting on Elbereth (HP ${status.hp}/${status.hpMax})` };
    return undefined;
  }
  if (weak) return { actions: ["E"], reason: `HP ${status.hp}/${status.hpMax} and no prayer: writing Elbereth` };
  return undefined;
}
