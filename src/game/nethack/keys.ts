// NetHack's keyboard for a person playing it (`--agent human`): a letter or digit as itself, arrows as the
// hjkl moves, Enter as "more", and every key that is a named action of its own (`<` is "up", `,` "pickup");
// `#` then a name is that extended command. Keys no action sends are refused, never passed on.
import { screenOf } from "./screen-frame.ts";
import type { TerminalKeys } from "../kind.ts";
import { NAMED_ACTIONS } from "./actions.ts";

/** Keys that are named actions of their own (a single key each), by the key. */
const BY_KEY = new Map(NAMED_ACTIONS.filter((a) => a.keys.length === 1).map((a) => [a.keys, a.name]));
/** Extended commands (`#pray` Enter) by name. */
const EXTENDED = new Map(
  NAMED_ACTIONS.filter((a) => a.keys.startsWith("#")).map((a) => [a.keys.slice(1).replace(/\r$/, ""), a.name]),
);
/** Keys the terminal reader names, as the characters NetHack reads (number_pad off: the arrows are hjkl). */
const NAMED_KEYS: Record<string, string> = {
  enter: "\r",
  esc: "\x1b",
  "ctrl-d": "\x04",
  up: "k",
  down: "j",
  left: "h",
  right: "l",
};

export const nethackKeys: TerminalKeys = {
  entryOfKey(key) {
    if (/^[a-zA-Z0-9]$/.test(key)) return key;
    const sent = NAMED_KEYS[key] ?? key;
    return /^[hjkl]$/.test(sent) ? sent : BY_KEY.get(sent);
  },
  extendedEntry: (text) => EXTENDED.get(text.trim().toLowerCase()),
  extendedNames: [...EXTENDED.keys()],
  offered: `a-z A-Z 0-9 ${[...BY_KEY.keys()].filter((k) => k > " ").join(" ")} Enter Esc space ^D`,
  title: "the NetHack environment",
  screen: screenOf,
};
