// What the harness reads off a NetHack screen besides the status: whether the game waits for a command,
// the monsters in view, the inventory menu, and how a game ended.
import type { Screen } from "./terminal.ts";

export const MAP_TOP = 1;
export const MAP_BOTTOM = 21;

const MENU_END = /\((?:end|\d+ of \d+)\)\s*$/;

/** True when the game waits for a command: the cursor sits on the hero on the map, no --More--, no menu. */
export function atCommand(s: Screen): boolean {
  if (s.cursor.y < MAP_TOP || s.cursor.y > MAP_BOTTOM) return false;
  if (s.rows.some((r) => r.includes("--More--"))) return false;
  return !MENU_END.test(s.rows[s.cursor.y] ?? "");
}

export interface Point {
  readonly x: number;
  readonly y: number;
}

/** Monster glyphs on the map (letters, '@' of other humans, '&' demons, ':' lizards, ';' sea monsters, "'" golems), the hero's square excepted. */
export function monstersInView(s: Screen, hero: Point): Map<string, number> {
  const seen = new Map<string, number>();
  for (let y = MAP_TOP; y <= MAP_BOTTOM; y++) {
    const row = s.rows[y] ?? "";
    for (let x = 0; x < row.length; x++) {
      const c = row[x]!;
      if (!/[a-zA-Z@&:;']/.test(c)) continue;
      if (x === hero.x && y === hero.y) continue;
      seen.set(c, (seen.get(c) ?? 0) + 1);
    }
  }
  return seen;
}

/** A monster kind in `now` that `before` did not show, or more of one kind. */
export function newMonster(before: Screen, heroBefore: Point, now: Screen, heroNow: Point): string | undefined {
  const a = monstersInView(before, heroBefore);
  for (const [c, n] of monstersInView(now, heroNow)) if (n > (a.get(c) ?? 0)) return c;
  return undefined;
}

/** The menu page on screen: its item lines from the menu's left column, and whether more pages follow. */
export function menuPage(s: Screen): { lines: string[]; more: boolean } | undefined {
  for (let y = s.rows.length - 1; y >= 0; y--) {
    const row = s.rows[y] ?? "";
    const m = MENU_END.exec(row);
    if (!m) continue;
    const col = row.search(/\((?:end|\d+ of \d+)\)/);
    const page = /\((\d+) of (\d+)\)/.exec(row);
    const lines: string[] = [];
    for (let r = 0; r < y; r++) {
      const text = (s.rows[r] ?? "").slice(col).trimEnd();
      if (text !== "") lines.push(text);
    }
    return { lines, more: page !== null && Number(page[1]) < Number(page[2]) };
  }
  return undefined;
}

const ITEM_LINE = /^[a-zA-Z$#] - /;
/** An object class heading of the inventory menu ("Weapons", "Gems/Stones"): capitalised words, no punctuation. */
const CLASS_HEADING = /^[A-Z][A-Za-z]*(?:[ /][A-Za-z]+)*$/;
const EMPTY_INVENTORY = /^(?:You are not|Not) carrying anything\.?$/;

/**
 * What the inventory command showed, when it was the inventory: a menu page of item lines under class
 * headings, or the one-line message of an empty pack. Anything else is undefined: the 'i' went to something
 * other than a command (a direction after the F prefix, a prompt the cursor did not reveal), and what came
 * back is a game message, not the inventory.
 */
export function inventoryPage(s: Screen): { lines: string[]; more: boolean } | undefined {
  const menu = menuPage(s);
  if (!menu) {
    const msg = (s.rows[0] ?? "").trim();
    return EMPTY_INVENTORY.test(msg) ? { lines: [msg], more: false } : undefined;
  }
  const items = menu.lines.filter((l) => ITEM_LINE.test(l));
  const inventory = items.length > 0 && menu.lines.every((l) => ITEM_LINE.test(l) || CLASS_HEADING.test(l));
  return inventory ? menu : undefined;
}

/**
 * How a game ended, when this screen tells it: the "You died in ... / You quit in ..." summary or the top-ten
 * line ("killed by a jackal"). Undefined for screens that say nothing about it.
 */
export function endReason(s: Screen): string | undefined {
  const text = s.rows
    .map((r) => r.trim())
    .filter(Boolean)
    .join(" ");
  const summary = /You (?:died|quit|starved|escaped|ascended|were turned to stone|turned into slime)[^.]*/.exec(text);
  if (summary) return summary[0].replace(/\s+/g, " ").trim();
  const killed = /killed by [^.]*/.exec(text);
  return killed ? killed[0].replace(/\s+/g, " ").trim() : undefined;
}
