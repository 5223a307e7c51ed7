// What the built-in NetHack agent reads back from its copy of the log: the sections of the current episode
// on the current dungeon level (the native index finds them; only those are parsed), newest last.
import { parseHeader } from "../../log/format.ts";
import { parseNethackSection, type NethackSection } from "../../game/nethack/section.ts";
import type { SectionTable } from "../../native.ts";
import type { StairsToAvoid } from "./lifetime.ts";

/** Most sections read back per turn: enough memory for one level, bounded time on a 20,000-action log. */
const MAX_SECTIONS = 3000;

export interface LevelHistory {
  /** Sections of the current episode on the current level, oldest first; the last is the present. */
  readonly sections: readonly NethackSection[];
  /** The inventory as last written anywhere in the episode. */
  readonly inventory: readonly string[];
  /** The episode's first screen (its pet stands next to the hero there). */
  readonly start: NethackSection | undefined;
  /** The turn of the episode's last prayer, if it prayed. */
  readonly lastPrayerTurn: number | undefined;
  /** How careful to be: 0 normally, the number of earlier episodes of the lifetime that died. */
  readonly caution: number;
  /** Earlier episodes of the lifetime: each explores in another order of directions. */
  readonly variant: number;
  /** A down staircase not to take (into the Gnomish Mines, where an earlier episode died). */
  readonly avoid?: StairsToAvoid;
}

/** An [INVENTORY] block that lists items (a message mistaken for one lists none). */
function isInventory(lines: readonly string[] | undefined): lines is readonly string[] {
  return lines !== undefined && lines.some((l) => /^[a-zA-Z$#] - /.test(l));
}

export function readLevelHistory(
  bytes: Uint8Array,
  table: SectionTable,
  lifetime: { readonly caution: number; readonly variant: number; readonly avoid?: StairsToAvoid } = {
    caution: 0,
    variant: 0,
  },
): LevelHistory | undefined {
  const decoder = new TextDecoder();
  const out: NethackSection[] = [];
  let inventory: readonly string[] | undefined;
  let level: number | undefined;
  let episode: number | undefined;
  let contiguous = true;
  for (let k = table.count - 1; k >= 0 && out.length < MAX_SECTIONS; k--) {
    const lvl = table.level[k]!;
    const ep = table.attempt[k]!;
    if (level === undefined) {
      level = lvl;
      episode = ep;
    }
    if (ep !== episode) break;
    if (lvl !== level) contiguous = false;
    if (!contiguous && inventory !== undefined) break;
    const parsed = parseNethackSection(decoder.decode(bytes.subarray(table.start[k]!, table.end[k]!)), parseHeader);
    if (typeof parsed === "string") {
      if (out.length === 0) continue; // a cut last section: the one before it is the present
      break;
    }
    if (inventory === undefined && isInventory(parsed.inventory)) inventory = parsed.inventory;
    if (contiguous) out.push(parsed);
  }
  if (out.length === 0) return undefined;
  // The episode's first section and its last prayer: found from the header table, parsing only what is needed.
  let start: NethackSection | undefined;
  let lastPrayerTurn: number | undefined;
  const prayer = new TextEncoder().encode("Tool Call: pray\n");
  for (let k = table.count - 1; k >= 0; k--) {
    if (table.attempt[k] !== episode) continue;
    const body = bytes.subarray(table.start[k]!, table.end[k]!);
    if (lastPrayerTurn === undefined && Buffer.from(body).includes(prayer)) {
      const parsed = parseNethackSection(decoder.decode(body), parseHeader);
      if (typeof parsed !== "string") lastPrayerTurn = Number(/T:(\d+)/.exec(parsed.status)?.[1] ?? 0);
    }
    if (table.kind[k] === 0 || k === 0 || table.attempt[k - 1] !== episode) {
      const parsed = parseNethackSection(decoder.decode(body), parseHeader);
      if (typeof parsed !== "string") start = parsed;
      break;
    }
  }
  return { sections: out.reverse(), inventory: inventory ?? [], start, lastPrayerTurn, ...lifetime };
}
