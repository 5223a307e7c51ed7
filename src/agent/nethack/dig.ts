// Digging down: a pick-axe (dwarves in the Gnomish Mines carry them) takes the hero through the floor to the
// next level in a few turns wherever the floor can be dug, which is the quickest way deeper. The agent
// picks one up where the log showed it lying (or where it killed a dwarf, whose pack drops there), and then
// digs down instead of searching a level for its stairs. A two-handed mattock is left alone (the hero wears
// a shield).
import type { NethackSection } from "../../game/nethack/section.ts";
import type { Decision } from "./decision.ts";

/** The inventory letter of a pick-axe, if the hero carries one. */
export function pickAxeLetter(inventory: readonly string[]): string | undefined {
  return inventory.find((l) => /^[a-zA-Z] - .*\bpick-axe\b/.test(l))?.[0];
}

/** The screen shows a pick-axe lying where the hero stands ("You see here", or the list of things here). */
export function showsPickAxeHere(s: NethackSection): boolean {
  if (/You see here .*\bpick-axe\b|There is .*\bpick-axe\b here/.test(s.message)) return true;
  const listing = s.board.some((r) => /Things that are here:/.test(r)) || /Things that are here:/.test(s.message);
  return listing && s.board.some((r) => /\bpick-axe\b/.test(r));
}

/** The game said the floor here cannot be dug (stairs, an altar, a hard floor, a shop's wrath...). */
export function digRefused(message: string): boolean {
  return /too hard to dig|cannot dig|can't dig|cannot reach the (floor|ground)|here is too hard|no room to dig|would be unwise/.test(
    message,
  );
}

/** The pick-up menu: select the pick-axe's line, then confirm; undefined when it is another menu. */
export function pickUpMenu(board: readonly string[]): Decision | undefined {
  if (!board.some((r) => /Pick up what\?/.test(r))) return undefined;
  for (const row of board) {
    const m = /(?:^|\s)([a-zA-Z]) ([-+]) .*\bpick-axe\b/.exec(row);
    if (!m) continue;
    if (m[2] === "+") return { actions: ["more"], reason: "picking up the pick-axe" };
    return { actions: [m[1]!], reason: "selecting the pick-axe" };
  }
  return undefined;
}

/** Answers to the prompts of applying a pick-axe downwards. */
export function digPrompt(msg: string, inventory: readonly string[]): Decision | undefined {
  const apply = /What do you want to use or apply\? \[([^\]]*)\]/.exec(msg);
  const letter = pickAxeLetter(inventory);
  if (apply && letter && apply[1]!.includes(letter)) return { actions: [letter], reason: "applying the pick-axe" };
  if (/In what direction do you want to dig\?/.test(msg)) return { actions: ["down"], reason: "digging down" };
  if (/Continue digging\?|You are (?:already )?digging/.test(msg) && /\[yn/.test(msg))
    return { actions: ["y"], reason: "digging on" };
  return undefined;
}
