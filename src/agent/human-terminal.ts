// The human player of a terminal game: the game's own 80x24 screen drawn as the game left it, in its colours,
// with the cursor where the game put it; and each key typed passed on as the action that sends that key, as
// the game's kind says (game/kind.ts's TerminalKeys: NetHack's `<` is "up", Enter "more"), `#` then a name
// as that extended command. Keys the environment does not offer are refused on screen, never sent. The
// harness keeps two keys: Ctrl-C pauses the run (resumable) and Ctrl-X ends it after a confirm. Pure.
import type { TerminalKeys, TerminalPicture } from "../game/kinds.ts";

/** A terminal game's screen size: the terminal must be at least this big. */
export const TERMINAL_GAME_SIZE = { cols: 80, rows: 24 } as const;

export type TerminalKey =
  /** An actions.json entry of the environment: the action that sends the key. */
  | { readonly kind: "entry"; readonly entry: string }
  /** `#`: the start of an extended command, typed on prolong's own line. */
  | { readonly kind: "extended" }
  | { readonly kind: "end" }
  | { readonly kind: "interrupt" }
  /** A key no action sends: said on screen. */
  | { readonly kind: "refused"; readonly why: string };

/** What a key (as parseInput names it) does in a terminal game whose keyboard is `keys` (its kind's). */
export function terminalKey(key: string, keys: TerminalKeys): TerminalKey {
  if (key === "ctrl-c") return { kind: "interrupt" };
  if (key === "ctrl-x") return { kind: "end" };
  if (key === "#") return { kind: "extended" };
  const entry = keys.entryOfKey(key);
  if (entry !== undefined) return { kind: "entry", entry };
  return { kind: "refused", why: `the key ${key} is not offered; keys that are: ${keys.offered} #` };
}

const SGR: Record<string, string> = Object.fromEntries(
  [..."krgybmcw"].flatMap((c, i) => [
    [c, `\x1b[${30 + i}m`],
    [c.toUpperCase(), `\x1b[${90 + i}m`],
  ]),
);

/** One screen row in its colours (codes as terminal.ts writes them; "." the default), cut to the width. */
function colourRow(text: string, codes: string | undefined, cols: number): string {
  const row = text.padEnd(TERMINAL_GAME_SIZE.cols).slice(0, cols);
  if (!codes || !/[^.]/.test(codes)) return row.trimEnd();
  let out = "";
  let current = ".";
  for (let x = 0; x < row.length; x++) {
    const c = codes[x] ?? ".";
    if (c !== current) out += c === "." ? "\x1b[39m" : (SGR[c] ?? "\x1b[39m");
    current = c;
    out += row[x];
  }
  return `${out}\x1b[39m`;
}

export interface TerminalScreenInput {
  readonly screen: TerminalPicture;
  /** prolong's own line: the run's counts and keys (below the game when there is room, else on its message row). */
  readonly tag: string;
  /** What prolong has to say (a refused key, the end confirm, the extended prompt): on the message row, loudly. */
  readonly notice: string;
  readonly cols: number;
  readonly rows: number;
}

/** The whole screen as one write; the cursor is left where the game has it (or after prolong's prompt). */
export function renderTerminalScreen(s: TerminalScreenInput): string {
  const game = [s.screen.message, ...s.screen.rows];
  const colours = s.screen.colours;
  const lines = game.slice(0, TERMINAL_GAME_SIZE.rows).map((row, y) => colourRow(row, colours?.[y], s.cols));
  let cursor = s.screen.cursor ? { x: s.screen.cursor.x, y: s.screen.cursor.y } : undefined;
  if (s.notice) {
    lines[0] = `\x1b[7m${s.notice.slice(0, s.cols - 1)}\x1b[27m`;
    cursor = { x: Math.min(s.notice.length, s.cols - 1), y: 0 };
  } else if (s.rows > TERMINAL_GAME_SIZE.rows) {
    lines.push(s.tag.slice(0, s.cols - 1));
  } else if (s.screen.message.trimEnd().length + s.tag.length + 2 <= s.cols) {
    // No free row at 80x24: the tag sits at the right of the message row while the message leaves room.
    const message = s.screen.message.trimEnd();
    lines[0] = `${colourRow(message, colours?.[0], s.cols)}${" ".repeat(s.cols - 1 - message.length - s.tag.length)}\x1b[2m${s.tag}\x1b[22m`;
  }
  const at = cursor ? `\x1b[${cursor.y + 1};${cursor.x + 1}H\x1b[?25h` : "\x1b[?25l";
  return `\x1b[H${lines.map((l) => `${l}\x1b[K`).join("\r\n")}\x1b[J${at}`;
}
