// Learning across a lifetime. The episodes of one run share its seed, and the game is the same for the same
// keys, so what an earlier episode did is a route that can be taken again: the earlier episode that went
// deepest (the later one on a tie) is replayed action for action up to its arrival on its deepest level —
// each step only while the newest screen is byte for byte the one that episode saw at the same step, so a
// difference ends the replay — and from there the agent plays on with more caution for each earlier death
// and another exploration order, so the episodes of a lifetime do not end the same way. An earlier death in
// the Gnomish Mines (gnome and dwarf packs) stops the replay at the branch level and the Mines' staircase is
// not taken again: the main dungeon goes deeper.
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
  /** The down staircase by which the reference entered the Gnomish Mines, where it died: not taken again. */
  readonly avoid?: StairsToAvoid;
}

export interface StairsToAvoid {
  readonly dlvl: number;
  readonly x: number;
  readonly y: number;
}

/** Sections at the end of an episode that show the death, not the map (--More--, goodbye, the end). */
const DEATH_SCREENS = 6;

/** Corridor squares on a level's screen: main-dungeon levels are rooms joined by them, Mines levels are caves. */
const CAVE_CORRIDORS = 4;

/** The map rows (screen rows 1..21) of a section's text. */
function mapRows(section: string): string[] {
  const at = section.indexOf("BOARD STATE]\n");
  if (at < 0) return [];
  return section
    .slice(at + "BOARD STATE]\n".length)
    .split("\n")
    .slice(0, 21);
}

/**
 * Where the reference went into the Gnomish Mines, when it died there: the levels from the one it died on
 * back up that look like caves (fewer than CAVE_CORRIDORS corridor squares on the last screen of the visit)
 * are the Mines; the level above them is the branch level (Dlvl 2 to 4), and the '>' the hero stood on last
 * there is the Mines' staircase. The replay then stops on arrival at the branch level.
 */
function minesEntrance(
  bytes: Uint8Array,
  table: SectionTable,
  ref: EarlierEpisode,
): { arrival: number; avoid: StairsToAvoid } | undefined {
  if (!/\n\[END\] [^\n]*Gnomish Mines/.test(text(bytes, table, ref.last))) return undefined;
  // Each level's visit: its first and last section (the route only goes down).
  const visits: { level: number; first: number; last: number }[] = [];
  for (let k = ref.first; k <= ref.last; k++) {
    const v = visits[visits.length - 1];
    if (v && v.level === table.level[k]) v.last = k;
    else visits.push({ level: table.level[k]!, first: k, last: k });
  }
  const corridors = (k: number) =>
    mapRows(text(bytes, table, k))
      .join("")
      .split("#").length - 1;
  let m = visits.length - 1;
  // The death screen has no map: the level it happened on is judged by the screen before.
  const lastMap = (v: { first: number; last: number }) =>
    v === visits[visits.length - 1] ? Math.max(v.first, v.last - DEATH_SCREENS) : v.last;
  while (m > 0 && corridors(lastMap(visits[m]!)) < CAVE_CORRIDORS) m--;
  if (m === visits.length - 1) return undefined;
  const branch = visits[m]!;
  if (branch.level < 2 || branch.level > 4 || visits[m + 1]!.level !== branch.level + 1) return undefined;
  const rows = mapRows(text(bytes, table, branch.last));
  for (let y = 0; y < rows.length; y++) {
    const x = rows[y]!.indexOf("@");
    if (x >= 0) return { arrival: branch.first, avoid: { dlvl: branch.level, x, y } };
  }
  return undefined;
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

/**
 * Where the replay of the reference ends: its arrival on its deepest level, or — when more episodes already
 * died after reaching that same level (a replay to the same point tends to end the same way) — its arrival
 * one level higher for each of them beyond the first, so the next attempt diverges earlier.
 */
function retreat(table: SectionTable, ref: EarlierEpisode, earlier: readonly EarlierEpisode[]): number {
  const same = earlier.filter((e) => e.died && e.deepest === ref.deepest).length;
  if (same < 2) return ref.arrival;
  const level = ref.deepest - (same - 1);
  for (let k = ref.first; k <= ref.arrival; k++) if (table.level[k]! >= level) return k;
  return ref.arrival;
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
  const mines = minesEntrance(bytes, table, reference);
  const cut = mines?.arrival ?? retreat(table, reference, earlier);
  const avoid = mines ? { avoid: mines.avoid } : {};

  // Still on the reference's route: the newest section is the one the reference had at the same step.
  const step = last - currentFirst;
  const at = reference.first + step;
  if (at >= cut) return { earlier, deaths, ...avoid };
  const mine = text(bytes, table, last);
  const theirs = text(bytes, table, at);
  if (observation(mine) === "" || observation(mine) !== observation(theirs) || toolCall(mine) !== toolCall(theirs))
    return { earlier, deaths, ...avoid };
  const actions: string[] = [];
  for (let k = at + 1; k <= cut && actions.length < REPLAY_BATCH; k++) {
    const name = toolCall(text(bytes, table, k));
    if (name === undefined) break;
    actions.push(name);
  }
  if (actions.length === 0) return { earlier, deaths, ...avoid };
  const goal = mines ? `Dlvl ${mines.avoid.dlvl}, short of the Gnomish Mines where it died` : `Dlvl ${reference.deepest}`;
  return {
    earlier,
    deaths,
    ...avoid,
    replay: {
      actions,
      reason: `replaying episode ${reference.episode}'s route to ${goal}: step ${step + 1} of ${cut - reference.first}`,
    },
  };
}
