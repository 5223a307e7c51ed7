// Learning across a lifetime. The episodes of one run share its seed, and the game is the same for the same
// keys, so what an earlier episode did is a route that can be taken again: the earlier episode that went
// deepest (the later one on a tie) is replayed action for action up to its arrival on its deepest level —
// each step only while the newest screen is byte for byte the one that episode saw at the same step, so a
// difference ends the replay — and from there the agent plays on with more caution for each earlier death
// and another exploration order, so the episodes of a lifetime do not end the same way.
import type { SectionTable } from "../../native.ts";

/** Most replayed actions handed over per turn (the harness's batch cap cuts it further). */
const REPLAY_BATCH = 30;

export interface EarlierEpisode {
  readonly episode: number;
  readonly deepest: number;
  /** Table indexes: the episode's first section, its first section on its deepest level, its last section. */
  readonly first: number;
  readonly arrival: number;
  readonly last: number;
  readonly died: boolean;
}

export interface Lifetime {
  readonly earlier: readonly EarlierEpisode[];
  /** Earlier episodes that ended in death. */
  readonly deaths: number;
  /** The next actions of the replay, with why, while the current episode still follows the reference. */
  readonly replay?: { readonly actions: string[]; readonly reason: string };
}

const decoder = new TextDecoder();

function text(bytes: Uint8Array, table: SectionTable, k: number): string {
  return decoder.decode(bytes.subarray(table.start[k]!, table.end[k]!));
}

/**
 * The part of a section that is the game's (status, message, inventory, events, screen), not the harness's
 * (header, plan, episode marker); without the blank lines that join it to the next section.
 */
function observation(section: string): string {
  const at = section.indexOf("\n[STATUS] ");
  return at < 0 ? "" : section.slice(at).trimEnd();
}

function toolCall(section: string): string | undefined {
  return /\nTool Call: ([^\n]*)\n/.exec(section)?.[1];
}

export function readLifetime(bytes: Uint8Array, table: SectionTable): Lifetime {
  const last = table.count - 1;
  if (last < 0) return { earlier: [], deaths: 0 };
  const current = table.attempt[last]!;
  let currentFirst = last;
  while (currentFirst > 0 && table.attempt[currentFirst - 1] === current) currentFirst--;

  const earlier: EarlierEpisode[] = [];
  for (let k = 0; k < currentFirst; ) {
    const episode = table.attempt[k]!;
    let end = k;
    let deepest = table.level[k]!;
    let arrival = k;
    while (end + 1 < currentFirst && table.attempt[end + 1] === episode) {
      end++;
      if (table.level[end]! > deepest) {
        deepest = table.level[end]!;
        arrival = end;
      }
    }
    const died = /\n\[END\] [^\n]*\b(died|killed|starved|drowned|choked|burned|petrified|turned to stone)\b/.test(
      text(bytes, table, end),
    );
    earlier.push({ episode, deepest, first: k, arrival, last: end, died });
    k = end + 1;
  }
  const deaths = earlier.filter((e) => e.died).length;
  const reference = earlier.reduce<EarlierEpisode | undefined>(
    (best, e) => (!best || e.deepest >= best.deepest ? e : best),
    undefined,
  );
  if (!reference) return { earlier, deaths };

  // Still on the reference's route: the newest section is the one the reference had at the same step.
  const step = last - currentFirst;
  const at = reference.first + step;
  if (at >= reference.arrival) return { earlier, deaths };
  const mine = text(bytes, table, last);
  const theirs = text(bytes, table, at);
  if (observation(mine) === "" || observation(mine) !== observation(theirs) || toolCall(mine) !== toolCall(theirs))
    return { earlier, deaths };
  const actions: string[] = [];
  for (let k = at + 1; k <= reference.arrival && actions.length < REPLAY_BATCH; k++) {
    const name = toolCall(text(bytes, table, k));
    if (name === undefined) break;
    actions.push(name);
  }
  if (actions.length === 0) return { earlier, deaths };
  return {
    earlier,
    deaths,
    replay: {
      actions,
      reason: `replaying episode ${reference.episode}'s route to Dlvl ${reference.deepest}: step ${step + 1} of ${reference.arrival - reference.first}`,
    },
  };
}
