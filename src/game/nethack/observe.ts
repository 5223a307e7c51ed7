// What stops a batch: the effects of one step (HP lost, a new level, a new monster, many turns) as the
// [EVENT] line and the batch rules name them.
import type { StepEffect } from "./game.ts";

/** Turns one action may take before the rest of its batch is dropped (a long search, a prayer, sleeping). */
export const MANY_TURNS = 20;

/** Why the rest of a batch is dropped after this step: HP lost, a new level, a new monster, many turns. */
export function batchStops(effect: StepEffect): string[] {
  const out: string[] = [];
  if (effect.hpLost > 0) out.push(`hp lost ${effect.hpLost}`);
  if (effect.dlvlChanged) out.push("dungeon level changed");
  if (effect.newMonster !== undefined) out.push(`new monster ${effect.newMonster}`);
  if (effect.turns >= MANY_TURNS) out.push(`${effect.turns} turns passed`);
  return out;
}
