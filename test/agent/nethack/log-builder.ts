// Logs built for the NetHack agent's tests: sections written by the environment's own writer, so the agent
// reads them back the way it reads a real run's log (native index, section parser).
import { appendNethackSection } from "../../../src/game/nethack/section.ts";

export interface Step {
  /** The named action that led to this screen (none for an episode's first screen). */
  readonly action?: string;
  /** Map rows (up to 21; missing rows are blank). */
  readonly map: readonly string[];
  readonly message?: string;
  readonly dlvl?: number;
  readonly hp?: number;
  readonly hpMax?: number;
  readonly turn?: number;
  readonly hunger?: string;
  readonly xl?: number;
  readonly episode?: number;
  readonly episodes?: number;
  readonly inventory?: readonly string[];
  readonly events?: readonly string[];
  readonly end?: string;
}

export const VALKYRIE_INVENTORY = [
  "Weapons",
  "a - a +1 long sword (weapon in hand)",
  "b - a blessed +0 dagger (alternate weapon; not wielded)",
  "Armor",
  "c - an uncursed +3 small shield (being worn)",
  "Comestibles",
  "d - an uncursed food ration",
];

/** The text of a log holding these steps in order; action numbers go on across episodes, as the harness writes. */
export function buildLog(steps: readonly Step[]): string {
  let out = "";
  let action = 0;
  let lastEpisode = 0;
  for (const s of steps) {
    const episode = s.episode ?? 1;
    const first = episode !== lastEpisode;
    lastEpisode = episode;
    const dlvl = s.dlvl ?? 1;
    const hp = s.hp ?? 16;
    const hpMax = s.hpMax ?? 16;
    const turn = s.turn ?? action + 1;
    const hunger = s.hunger ?? "Not Hungry";
    const xl = s.xl ?? 1;
    const rows = Array.from({ length: 21 }, (_, y) => s.map[y] ?? "");
    rows.push("Agent the Stripling            St:18/05 Dx:12 Co:17 In:8 Wi:8 Ch:7 Neutral");
    rows.push(
      `Dlvl:${dlvl} $:0 HP:${hp}(${hpMax}) Pw:2(2) AC:6 Xp:${xl}/0 T:${turn}${hunger === "Not Hungry" ? "" : ` ${hunger}`}`,
    );
    out += appendNethackSection(
      {
        header: { action, level: dlvl, attempt: episode, score: 0, kind: first ? "initial" : "action" },
        ...(first ? {} : { action: s.action ?? "search" }),
        ...(first && episode > 1 ? { episode: { index: episode, total: s.episodes ?? episode } } : {}),
        status: `Dlvl:${dlvl} | $:0 | HP:${hp}(${hpMax}) | Pw:2(2) | AC:6 | Xp:${xl}/0 | T:${turn} | ${hunger} | Unencumbered`,
        message: s.message ?? "",
        ...(s.inventory ? { inventory: s.inventory } : first ? { inventory: VALKYRIE_INVENTORY } : {}),
        ...(s.events ? { events: s.events } : {}),
        ...(s.end !== undefined ? { end: s.end } : {}),
        board: rows,
      },
      out === "",
    );
    action++;
  }
  return out;
}

/** Map rows with the hero drawn at x,y (the rows given must not hold an '@' of their own there). */
export function withHero(rows: readonly string[], x: number, y: number): string[] {
  return rows.map((r, i) => (i === y ? `${r.padEnd(x + 1).slice(0, x)}@${r.padEnd(x + 1).slice(x + 1)}` : r));
}
