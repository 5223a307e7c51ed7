// An action as text, both ways: "RESET", "ACTION3", "ACTION6(30,40)" (and the log's ACTION6({"x": 30, "y": 40})).
// Next to Action itself, so the games' solutions, actions.json and the log's tool calls read one grammar.
import { err, ok, type Result } from "neverthrow";
import { GRID_SIZE, type Action, type GridAction } from "../game-model.ts";
import { terminalLine } from "../terminal-text.ts";

/** An entry longer than this cannot be an action; it is dropped unparsed and quoted short. */
export const ENTRY_MAX_CHARS = 100;
/** The most of the agent's text one warning quotes. */
export const QUOTE_CHARS = 200;

/**
 * Text of the agent's quoted into a message: at most `max` characters, the cut marked, on one line with every
 * control character made visible (terminal-text.ts). The message goes back into the next prompt (which travels
 * in argv, the environment or a file, none of which can carry a NUL) and onto terminals.
 */
export function quote(text: string, max = QUOTE_CHARS): string {
  return text.length <= max
    ? `'${terminalLine(text)}'`
    : `'${terminalLine(text.slice(0, max - 1))}…' (${text.length} characters)`;
}

/**
 * One entry → an Action, or the reason it is not one. Accepts `ACTION6(x,y)` and the log's
 * `ACTION6({"x": 1, "y": 2})`. A single left-to-right scan: no backtracking, so time is linear in the entry.
 */
export function parseActionEntry(entry: string): Result<GridAction, string> {
  if (entry.length > ENTRY_MAX_CHARS)
    return err(`${quote(entry, 40)} is longer than ${ENTRY_MAX_CHARS} characters, so not an action`);
  const e = readEntry(entry);
  if (e === null) return err(`${quote(entry)} is not an action (expected RESET, ACTION1..ACTION7 or ACTION6(x,y))`);
  if (e.id === 0) {
    if (e.xy) return err(`${quote(entry)}: RESET takes no coordinates`);
    return ok({ id: 0 });
  }
  if (e.id === 6) {
    if (!e.xy) return err(`${quote(entry)}: ACTION6 needs coordinates, e.g. ACTION6(30,40)`);
    return clickAction(e.xy[0], e.xy[1], entry);
  }
  if (e.xy) return err(`${quote(entry)}: only ACTION6 takes coordinates`);
  return ok({ id: e.id as 1 | 2 | 3 | 4 | 5 | 7 });
}

interface RawEntry {
  readonly id: number;
  readonly xy: readonly [number, number] | null;
}

/**
 * The grammar, spaces allowed between any two tokens, case-insensitive names:
 *   (RESET | ACTION<1-7>) [ "(" [ int "," int | "{" [ '"x"' ":" int "," '"y"' ":" int ] "}" ] ")" ]
 * The object form with x and y is ACTION6's only. Null when the text does not follow it.
 */
function readEntry(text: string): RawEntry | null {
  const n = text.length;
  let i = 0;
  const space = () => {
    while (i < n && isSpace(text.charCodeAt(i))) i++;
  };
  /** The word at i (case-insensitive), then spaces. */
  const word = (w: string): boolean => {
    if (i + w.length > n || text.slice(i, i + w.length).toUpperCase() !== w) return false;
    i += w.length;
    space();
    return true;
  };
  const int = (): number | null => {
    const from = i;
    if (text[i] === "-") i++;
    const digits = i;
    while (i < n && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
    if (i === digits) return null;
    const value = Number(text.slice(from, i));
    space();
    return value;
  };
  space();
  let id: number;
  if (word("RESET")) id = 0;
  else if (i + 7 <= n && text.slice(i, i + 6).toUpperCase() === "ACTION" && text[i + 6]! >= "1" && text[i + 6]! <= "7") {
    id = Number(text[i + 6]);
    i += 7;
    space();
  } else return null;
  let xy: [number, number] | null = null;
  if (word("(")) {
    if (word("{")) {
      if (id === 6 && word('"X"')) {
        if (!word(":")) return null;
        const x = int();
        if (x === null || !word(",") || !word('"Y"') || !word(":")) return null;
        const y = int();
        if (y === null) return null;
        xy = [x, y];
      }
      if (!word("}")) return null;
    } else if (text[i] !== ")") {
      const x = int();
      if (x === null || !word(",")) return null;
      const y = int();
      if (y === null) return null;
      xy = [x, y];
    }
    if (!word(")")) return null;
  }
  return i === n ? { id, xy } : null;
}

/** What the old pattern's \s accepted: ASCII and Unicode white space (JavaScript's definition). */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || (c > 127 && /\s/.test(String.fromCharCode(c)));
}

function clickAction(x: number, y: number, entry: string): Result<GridAction, string> {
  if (!Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y < 0 || x >= GRID_SIZE || y >= GRID_SIZE) {
    return err(`${quote(entry)}: click coordinates must be 0..${GRID_SIZE - 1}`);
  }
  return ok({ id: 6, x, y });
}

/** An action as an actions.json entry: "RESET", "ACTION3", "ACTION6(30,40)". */
export function actionEntry(a: Action): string {
  if (a.id === "key") return a.name; // a terminal game's action: its name
  return a.id === 6 ? `ACTION6(${a.x},${a.y})` : a.id === 0 ? "RESET" : `ACTION${a.id}`;
}
