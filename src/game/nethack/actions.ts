// The named actions of the NetHack environment, as BALROG's NetHack prompts name them (NLE's language action
// names: "north", "far east", "search", "more", "esc", "down"...), each mapped to the keys it sends with
// number_pad off; plus single letters, digits and two-digit numbers for prompts and menus, as BALROG offers.
// An entry of actions.json is one of these names (case and "_"/"-" for spaces do not matter).
import { err, ok, type Result } from "neverthrow";
import type { KeyAction } from "../../game-model.ts";

export interface NamedAction {
  readonly name: string;
  readonly keys: string;
  readonly help: string;
}

const ext = (cmd: string): string => `#${cmd}\r`;

const TABLE: readonly NamedAction[] = [
  { name: "north", keys: "k", help: "move one square north" },
  { name: "east", keys: "l", help: "move one square east" },
  { name: "south", keys: "j", help: "move one square south" },
  { name: "west", keys: "h", help: "move one square west" },
  { name: "northeast", keys: "u", help: "move one square northeast" },
  { name: "southeast", keys: "n", help: "move one square southeast" },
  { name: "southwest", keys: "b", help: "move one square southwest" },
  { name: "northwest", keys: "y", help: "move one square northwest" },
  { name: "far north", keys: "K", help: "move north until something interesting" },
  { name: "far east", keys: "L", help: "move east until something interesting" },
  { name: "far south", keys: "J", help: "move south until something interesting" },
  { name: "far west", keys: "H", help: "move west until something interesting" },
  { name: "far northeast", keys: "U", help: "move northeast until something interesting" },
  { name: "far southeast", keys: "N", help: "move southeast until something interesting" },
  { name: "far southwest", keys: "B", help: "move southwest until something interesting" },
  { name: "far northwest", keys: "Y", help: "move northwest until something interesting" },
  { name: "up", keys: "<", help: "go up a staircase" },
  { name: "down", keys: ">", help: "go down a staircase" },
  { name: "wait", keys: ".", help: "rest one turn" },
  { name: "search", keys: "s", help: "search adjacent squares for hidden doors and traps (one turn)" },
  { name: "more", keys: "\r", help: "dismiss --More-- or confirm (Enter)" },
  { name: "esc", keys: "\x1b", help: "cancel a prompt or close a menu" },
  { name: "space", keys: " ", help: "next menu page" },
  { name: "apply", keys: "a", help: "apply (use) a tool" },
  { name: "close", keys: "c", help: "close a door" },
  { name: "open", keys: "o", help: "open a door" },
  { name: "cast", keys: "Z", help: "cast a spell" },
  { name: "eat", keys: "e", help: "eat something" },
  { name: "engrave", keys: "E", help: "write on the floor" },
  { name: "fire", keys: "f", help: "fire ammunition from the quiver" },
  { name: "fight", keys: "F", help: "fight a monster in a direction (even if unseen)" },
  { name: "inventory", keys: "i", help: "show the inventory" },
  { name: "kick", keys: "\x04", help: "kick something" },
  { name: "look", keys: ":", help: "look at what is here" },
  { name: "loot", keys: ext("loot"), help: "loot a box on the floor" },
  { name: "pay", keys: "p", help: "pay the shopkeeper" },
  { name: "pickup", keys: ",", help: "pick up things here" },
  { name: "pray", keys: ext("pray"), help: "pray to the gods for help" },
  { name: "puton", keys: "P", help: "put on an accessory" },
  { name: "quaff", keys: "q", help: "quaff (drink) something" },
  { name: "read", keys: "r", help: "read a scroll or spellbook" },
  { name: "remove", keys: "R", help: "remove an accessory" },
  { name: "ride", keys: ext("ride"), help: "ride a saddled creature" },
  { name: "rub", keys: ext("rub"), help: "rub a lamp or a stone" },
  { name: "sit", keys: ext("sit"), help: "sit down" },
  { name: "swap", keys: "x", help: "swap wielded and secondary weapons" },
  { name: "takeoff", keys: "T", help: "take off one piece of armor" },
  { name: "throw", keys: "t", help: "throw something" },
  {
    name: "travel",
    keys: "_",
    help: "travel to a map location (then move the cursor, '.' to confirm; '<' or '>' jumps to stairs)",
  },
  { name: "turn", keys: ext("turn"), help: "turn undead" },
  { name: "twoweapon", keys: "X", help: "toggle two-weapon combat" },
  { name: "untrap", keys: ext("untrap"), help: "disarm a trap" },
  { name: "wear", keys: "W", help: "wear a piece of armor" },
  { name: "wield", keys: "w", help: "wield a weapon" },
  { name: "zap", keys: "z", help: "zap a wand" },
  { name: "drop", keys: "d", help: "drop an item" },
  { name: "dropmany", keys: "D", help: "drop specific item types" },
  { name: "offer", keys: ext("offer"), help: "offer a sacrifice to the gods" },
  { name: "chat", keys: ext("chat"), help: "talk to someone" },
  { name: "force", keys: ext("force"), help: "force a lock" },
  { name: "dip", keys: ext("dip"), help: "dip an object into something" },
  { name: "enhance", keys: ext("enhance"), help: "advance or check weapon and spell skills" },
  { name: "jump", keys: ext("jump"), help: "jump to another location" },
  { name: "quiver", keys: "Q", help: "select ammunition for the quiver" },
  { name: "whatis", keys: ";", help: "show what type of thing a symbol corresponds to" },
  { name: "minus", keys: "-", help: "the '-' key (bare hands, nothing)" },
  { name: "dollar", keys: "$", help: "the '$' key (gold)" },
  { name: "question", keys: "?", help: "the '?' key (list choices)" },
  { name: "asterisk", keys: "*", help: "the '*' key (list every item)" },
];

function normalise(name: string): string {
  return name.trim().toLowerCase().replace(/[_-]+/g, " ").replace(/\s+/g, " ");
}

const BY_NAME = new Map<string, NamedAction>(TABLE.map((a) => [a.name, a]));

/** Every named action, in the order the instructions list them. */
export const NAMED_ACTIONS = TABLE;

/**
 * An actions.json entry → the action, or the reason it is not one. Letters a–z and A–Z and digits answer
 * prompts and menus (exact case); "00".."99" send two digits (a count prefix).
 */
export function parseNethackAction(entry: string): { ok: true; action: NamedAction } | { ok: false; reason: string } {
  if (/^[a-zA-Z0-9]$/.test(entry)) return { ok: true, action: { name: entry, keys: entry, help: `the key '${entry}'` } };
  if (/^\d\d$/.test(entry)) return { ok: true, action: { name: entry, keys: entry, help: `the number ${entry}` } };
  const named = BY_NAME.get(normalise(entry));
  if (named) return { ok: true, action: named };
  return {
    ok: false,
    reason: `'${entry.slice(0, 60)}' is not a NetHack action; valid: ${TABLE.map((a) => a.name).join(", ")}, a single letter a-z/A-Z, a digit 0-9 or a two-digit number 00-99`,
  };
}

/**
 * An actions.json entry of a NetHack run → the action the runner plays (see parseNethackAction). An entry that
 * is no action is dropped with the reason, or under BALROG's protocol played as Esc (BALROG's default action).
 */
export function nethackEntry(
  entry: string,
  invalid: "drop" | "esc" = "drop",
): Result<KeyAction & { readonly note?: string }, string> {
  const a = parseNethackAction(entry);
  if (a.ok) return ok({ id: "key", name: a.action.name, keys: a.action.keys });
  if (invalid === "drop") return err(a.reason);
  const said = JSON.stringify(entry.slice(0, 60));
  return ok({ id: "key", name: "esc", keys: "\x1b", note: `${said} is not a NetHack action: esc was played in its place` });
}

/** The action list for the instructions: one "name: what it does" per line. */
export function actionHelpText(): string {
  return [
    ...TABLE.map((a) => `${a.name}: ${a.help}`),
    "a-z, A-Z: that letter (answers prompts, picks menu items; y/n answer yes/no questions)",
    "0-9, 00-99: digits (a count before a command, a menu quantity)",
  ].join("\n");
}
