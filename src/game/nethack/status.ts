// The two bottom lines of NetHack 3.6's tty screen, parsed into fields (the observation's status, BALROG's
// blstats as text). Line 22: "Agent the Stripling  St:18 Dx:12 Co:18 In:10 Wi:11 Ch:9 Neutral"; line 23:
// "Dlvl:1 $:0 HP:16(16) Pw:2(2) AC:6 Xp:1/0 T:1 Hungry Burdened Conf". A screen without them (a full-screen
// menu, the end of the game) gives undefined and the caller keeps the last status it saw.

import type { HeaderVitals } from "../../log/format.ts";

export const HUNGER = ["Satiated", "Hungry", "Weak", "Fainting", "Fainted", "Starved"] as const;
export const ENCUMBRANCE = ["Burdened", "Stressed", "Strained", "Overtaxed", "Overloaded"] as const;
export const CONDITIONS = [
  "Stone",
  "Slime",
  "Strngl",
  "FoodPois",
  "TermIll",
  "Ill",
  "Blind",
  "Deaf",
  "Stun",
  "Conf",
  "Hallu",
  "Lev",
  "Fly",
  "Ride",
] as const;

export interface Status {
  readonly title: string;
  readonly strength: string;
  readonly dexterity: number;
  readonly constitution: number;
  readonly intelligence: number;
  readonly wisdom: number;
  readonly charisma: number;
  readonly alignment: string;
  /** Dungeon level as the status shows it: the depth in the main dungeon and its branches. */
  readonly dlvl: number;
  /** "Dlvl" outside numbered levels: "Home 1", "Astral Plane"...; otherwise equals `Dlvl:<dlvl>`. */
  readonly place: string;
  readonly gold: number;
  readonly hp: number;
  readonly hpMax: number;
  readonly pw: number;
  readonly pwMax: number;
  readonly ac: number;
  /**
   * The hero's own experience level, what BALROG's progression counts. A polymorphed hero's status shows the
   * monster's hit dice instead (HD:N, in `hitDice`); then this is the level last shown (statusAfter carries it).
   */
  readonly xl: number;
  readonly exp: number;
  /** Hit dice of the monster the hero is polymorphed into (the status shows HD:N, not Xp); absent otherwise. */
  readonly hitDice?: number;
  readonly turn: number;
  readonly hunger: string;
  readonly encumbrance: string;
  readonly conditions: readonly string[];
}

const LINE1 = /^(.*?)\s+St:(\d+(?:\/(?:\d\d|\*\*))?)\s+Dx:(\d+)\s+Co:(\d+)\s+In:(\d+)\s+Wi:(\d+)\s+Ch:(\d+)\s+(\S+)/;
const LINE2 =
  /^(Dlvl:(\d+)|Home (\d+)|Fort Ludios|End Game|Astral Plane|Plane of (?:Earth|Air|Fire|Water))\s+\$:(\d+)\s+HP:(-?\d+)\((\d+)\)\s+Pw:(\d+)\((\d+)\)\s+AC:(-?\d+)\s+(?:Xp|HD):(\d+)(?:\/(\d+))?(?:\s+T:(\d+))?(.*)$/;

export function parseStatus(line1: string, line2: string): Status | undefined {
  const a = LINE1.exec(line1.trimEnd());
  const b = LINE2.exec(line2.trimEnd());
  if (!a || !b) return undefined;
  const words = (b[13] ?? "").trim().split(/\s+/).filter(Boolean);
  const place = b[1]!;
  const polymorphed = /\sHD:\d/.test(line2);
  return {
    title: a[1]!.trim(),
    strength: a[2]!,
    dexterity: Number(a[3]),
    constitution: Number(a[4]),
    intelligence: Number(a[5]),
    wisdom: Number(a[6]),
    charisma: Number(a[7]),
    alignment: a[8]!,
    dlvl: Number(b[2] ?? 0),
    place,
    gold: Number(b[4]),
    hp: Number(b[5]),
    hpMax: Number(b[6]),
    pw: Number(b[7]),
    pwMax: Number(b[8]),
    ac: Number(b[9]),
    ...(polymorphed ? { xl: 0, hitDice: Number(b[10]) } : { xl: Number(b[10]) }),
    exp: Number(b[11] ?? 0),
    turn: Number(b[12] ?? 0),
    hunger: words.find((w) => (HUNGER as readonly string[]).includes(w)) ?? "Not Hungry",
    encumbrance: words.find((w) => (ENCUMBRANCE as readonly string[]).includes(w)) ?? "Unencumbered",
    conditions: words.filter((w) => (CONDITIONS as readonly string[]).includes(w)),
  };
}

/**
 * The status a screen shows, with the hero's own level kept through a polymorph: the HD:N a polymorphed hero's
 * status shows is the monster's, so the level (and experience) last shown stands until Xp is shown again.
 */
export function statusAfter(read: Status, before: Status | undefined): Status {
  if (read.hitDice === undefined) return read;
  return { ...read, xl: before?.xl ?? 1, exp: before?.exp ?? 0 };
}

/** The header's XL, HP and Turn. HP is shown from 0: a dying hero's negative HP stays on the [STATUS] line. */
export function vitalsOf(s: Status): HeaderVitals {
  return { xl: s.xl, hp: Math.max(0, s.hp), hpMax: s.hpMax, turn: s.turn };
}

/** The status as one line of the log: every field by name, so `grep HP:` and friends work on the log. */
export function formatStatus(s: Status): string {
  const cond = s.conditions.length > 0 ? ` | ${s.conditions.join(" ")}` : "";
  return `Dlvl:${s.dlvl} | $:${s.gold} | HP:${s.hp}(${s.hpMax}) | Pw:${s.pw}(${s.pwMax}) | AC:${s.ac} | Xp:${s.xl}/${s.exp}${s.hitDice !== undefined ? ` | HD:${s.hitDice}` : ""} | T:${s.turn} | ${s.hunger} | ${s.encumbrance}${cond}`;
}
