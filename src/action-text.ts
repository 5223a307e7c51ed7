// An action as text, both ways, in one grammar and one formatter: next to Action itself, so the games'
// solutions, actions.json, the log's tool calls (written and read back), events and messages spell actions
// one way. Three spellings of the same grammar:
//   entry  what an agent writes in actions.json: "RESET", "ACTION3", "ACTION6(30,40)" (the log's form is
//          accepted too)
//   log    the log's tool call, the published harness's spelling (json.dumps of the click's arguments, "{}"
//          for every other action): 'ACTION6({"x": 30, "y": 40})', 'ACTION3({})', 'RESET({})'
//   name   the action alone: "ACTION6"
// A terminal game's action (a key action) is its name in every form; its kind parses its own names.
// The native scanner copies a tool call's text and never parses it, so it has no twin of this grammar.
import { err, ok, type Result } from "neverthrow";
import { GRID_SIZE, type Action, type GridAction } from "./game-model.ts";
import { terminalLine } from "./terminal-text.ts";

export type ActionForm = "entry" | "log" | "name";

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
 * Text → an Action, or the reason it is not one. `entry` accepts `ACTION6(x,y)` and the log's
 * `ACTION6({"x": 1, "y": 2})`; `log` only the log's spelling, arguments always written. A single
 * left-to-right scan: no backtracking, so time is linear in the text.
 */
export function parseAction(text: string, form: "entry" | "log"): Result<GridAction, string> {
  if (text.length > ENTRY_MAX_CHARS)
    return err(`${quote(text, 40)} is longer than ${ENTRY_MAX_CHARS} characters, so not an action`);
  const e = readEntry(text);
  const expected =
    form === "log"
      ? `expected RESET({}), ACTION1({}) .. ACTION7({}) or ACTION6({"x": X, "y": Y})`
      : "expected RESET, ACTION1..ACTION7 or ACTION6(x,y)";
  if (e === null || (form === "log" && e.args !== "object")) return err(`${quote(text)} is not an action (${expected})`);
  if (e.id === 0) {
    if (e.xy) return err(`${quote(text)}: RESET takes no coordinates`);
    return ok({ id: 0 });
  }
  if (e.id === 6) {
    if (!e.xy)
      return err(
        form === "log"
          ? `${quote(text)}: ACTION6 needs integer x and y, e.g. ACTION6({"x": 30, "y": 40})`
          : `${quote(text)}: ACTION6 needs coordinates, e.g. ACTION6(30,40)`,
      );
    return clickAction(e.xy[0], e.xy[1], text);
  }
  if (e.xy) return err(`${quote(text)}: only ACTION6 takes coordinates`);
  return ok({ id: e.id as 1 | 2 | 3 | 4 | 5 | 7 });
}

/** An actions.json entry → an Action, or the reason it is not one. */
export function parseActionEntry(entry: string): Result<GridAction, string> {
  return parseAction(entry, "entry");
}

interface RawEntry {
  readonly id: number;
  readonly xy: readonly [number, number] | null;
  /** How the arguments were written: not at all, as `(x,y)` or `()`, or as the log's JSON object. */
  readonly args: "none" | "list" | "object";
}

/**
 * The grammar, spaces allowed between any two tokens, case-insensitive names:
 *   (RESET | ACTION<1-7>) [ "(" [ int "," int | "{" [ xy "," xy ] "}" ] ")" ]
 *   xy = ('"x"' | '"y"') ":" int      (one of each, in either order: json.dumps keeps a dict's order)
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
  let args: RawEntry["args"] = "none";
  /** `"x": int` or `"y": int`, the key not `taken`: which key and its value. */
  const pair = (taken?: "X" | "Y"): ["X" | "Y", number] | null => {
    const key = taken !== "X" && word('"X"') ? "X" : taken !== "Y" && word('"Y"') ? "Y" : null;
    if (key === null || !word(":")) return null;
    const value = int();
    return value === null ? null : [key, value];
  };
  if (word("(")) {
    args = "list";
    if (word("{")) {
      args = "object";
      if (id === 6 && text[i] === '"') {
        const first = pair();
        if (first === null || !word(",")) return null;
        const second = pair(first[0]);
        if (second === null) return null;
        xy = first[0] === "X" ? [first[1], second[1]] : [second[1], first[1]];
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
  return i === n ? { id, xy, args } : null;
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

/** An action as text in one of the three spellings (see the top of this file). */
export function actionText(a: Action, form: ActionForm): string {
  if (a.id === "key") return a.name; // a terminal game's action: its name
  const name = a.id === 0 ? "RESET" : `ACTION${a.id}`;
  if (form === "name") return name;
  if (form === "log") return a.id === 6 ? `ACTION6({"x": ${a.x}, "y": ${a.y}})` : `${name}({})`;
  return a.id === 6 ? `ACTION6(${a.x},${a.y})` : name;
}
