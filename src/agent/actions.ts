// THE actions.json parser. The agent's only output channel: {"actions": ["ACTION6(30,40)", "ACTION1", "RESET"]}.
// A malformed file is an error (the runner asks the agent again); a bad entry is dropped with a warning that
// names it, as in the paper, so one typo does not cost a whole turn.
import { err, ok, type Result } from "neverthrow";
import * as v from "valibot";
import { prolongError, type ProlongError } from "../errors.ts";
import { GRID_SIZE, type Action, type ActionId } from "../game/types.ts";

export const ACTIONS_FILE = "actions.json";

const ActionsFileSchema = v.object({
  actions: v.array(v.string("each entry of \"actions\" must be a string such as \"ACTION1\" or \"ACTION6(30,40)\"")),
  /** The agent says it has nothing more to try: the run ends with reason "agent-stopped". */
  stop: v.optional(v.boolean()),
});

export interface ActionBatch {
  readonly actions: Action[];
  readonly warnings: string[];
  readonly stop: boolean;
}

const ENTRY = /^\s*(RESET|ACTION([1-7]))\s*(?:\(\s*(?:(-?\d+)\s*,\s*(-?\d+)|\{\s*\})?\s*\))?\s*$/i;
const ENTRY_OBJ = /^\s*ACTION6\s*\(\s*\{\s*"x"\s*:\s*(-?\d+)\s*,\s*"y"\s*:\s*(-?\d+)\s*\}\s*\)\s*$/i;

/** One entry → an Action, or the reason it is not one. Accepts `ACTION6(x,y)` and the log's `ACTION6({"x": 1, "y": 2})`. */
export function parseActionEntry(entry: string): Result<Action, string> {
  const obj = ENTRY_OBJ.exec(entry);
  if (obj) return clickAction(Number(obj[1]), Number(obj[2]), entry);
  const m = ENTRY.exec(entry);
  if (!m) return err(`'${entry}' is not an action (expected RESET, ACTION1..ACTION7 or ACTION6(x,y))`);
  if (m[1]!.toUpperCase() === "RESET") {
    if (m[3] !== undefined) return err(`'${entry}': RESET takes no coordinates`);
    return ok({ id: 0 });
  }
  const id = Number(m[2]) as ActionId;
  if (id === 6) {
    if (m[3] === undefined || m[4] === undefined) return err(`'${entry}': ACTION6 needs coordinates, e.g. ACTION6(30,40)`);
    return clickAction(Number(m[3]), Number(m[4]), entry);
  }
  if (m[3] !== undefined) return err(`'${entry}': only ACTION6 takes coordinates`);
  return ok({ id: id as 1 | 2 | 3 | 4 | 5 | 7 });
}

function clickAction(x: number, y: number, entry: string): Result<Action, string> {
  if (!Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y < 0 || x >= GRID_SIZE || y >= GRID_SIZE) {
    return err(`'${entry}': click coordinates must be 0..${GRID_SIZE - 1}`);
  }
  return ok({ id: 6, x, y });
}

/**
 * Parses the text of actions.json. Entries beyond `cap` are discarded and entries the game does not offer
 * now are dropped, each with a warning. `path` only names the file in messages.
 */
export function parseActions(text: string, opts: { cap: number; available: readonly ActionId[]; path: string }): Result<ActionBatch, ProlongError> {
  const fix = 'write {"actions": ["ACTION1", "ACTION6(30,40)"]} (a JSON object with an "actions" array of strings)';
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return err(prolongError("bad-actions-json", `not valid JSON (${(e as Error).message})`, { path: opts.path, fix }));
  }
  const parsed = v.safeParse(ActionsFileSchema, json);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const where = issue.path?.map((p) => String(p.key)).join(".") ?? "";
    return err(prolongError("bad-actions-json", `${where ? `field '${where}': ` : ""}${issue.message}`, { path: opts.path, fix }));
  }
  const warnings: string[] = [];
  let entries = parsed.output.actions;
  if (entries.length > opts.cap) {
    warnings.push(`${entries.length - opts.cap} action(s) beyond the cap of ${opts.cap} discarded: ${entries.slice(opts.cap).join(", ")}`);
    entries = entries.slice(0, opts.cap);
  }
  const actions: Action[] = [];
  for (const entry of entries) {
    const a = parseActionEntry(entry);
    if (a.isErr()) {
      warnings.push(`dropped ${a.error}`);
    } else if (a.value.id !== 0 && !opts.available.includes(a.value.id)) {
      warnings.push(`dropped '${entry}': this game offers only ${opts.available.filter((x) => x !== 0).map((x) => `ACTION${x}`).join(", ")} and RESET`);
    } else {
      actions.push(a.value);
    }
  }
  return ok({ actions, warnings, stop: parsed.output.stop === true });
}

/** An action as an actions.json entry: "RESET", "ACTION3", "ACTION6(30,40)". */
export function actionEntry(a: Action): string {
  return a.id === 6 ? `ACTION6(${a.x},${a.y})` : a.id === 0 ? "RESET" : `ACTION${a.id}`;
}

/** The text an agent would write for these actions (used by the built-in explorer and tests). */
export function actionsFileText(actions: readonly Action[], stop = false): string {
  const entries = actions.map(actionEntry);
  return JSON.stringify(stop ? { actions: entries, stop: true } : { actions: entries }) + "\n";
}
