// An observation of the game → the body of its log section: the status as one line, the message line, the
// inventory when it changed, what happened (for the batch rules), how the game ended, and the screen.
import type { SectionHeader } from "../../log/format.ts";
import type { Observation, StepEffect } from "./game.ts";
import type { NethackSection } from "./section.ts";
import { formatStatus } from "./status.ts";

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

export function sectionOf(
  obs: Observation,
  header: SectionHeader,
  extra: { plan?: string; action?: string; effect?: StepEffect; episode?: { index: number; total: number } },
): NethackSection {
  const events = extra.effect ? [...batchStops(extra.effect), ...(extra.effect.escaped ? [extra.effect.escaped] : [])] : [];
  return {
    header,
    status: obs.status ? formatStatus(obs.status) : "unknown",
    message: obs.screen.rows[0]?.trimEnd() ?? "",
    board: obs.screen.rows.slice(1),
    ...(extra.plan !== undefined ? { plan: extra.plan } : {}),
    ...(extra.action !== undefined ? { action: extra.action } : {}),
    ...(extra.episode ? { episode: extra.episode } : {}),
    ...(obs.inventory ? { inventory: obs.inventory } : {}),
    ...(events.length > 0 ? { events } : {}),
    ...(obs.ended !== undefined ? { end: obs.ended } : {}),
  };
}
