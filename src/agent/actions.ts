// THE actions.json parser (one entry's grammar is game/action-text.ts). The agent's only output channel: {"actions": ["ACTION6(30,40)", "ACTION1", "RESET"]}.
// A malformed file is an error (the runner asks the agent again); a bad entry is dropped with a warning that
// names it, as in the paper, so one typo does not cost a whole turn.
import { err, ok, type Result } from "neverthrow";
import * as v from "valibot";
import { prolongError, type ProlongError } from "../errors.ts";
import { parseActionEntry, actionText, quote, QUOTE_CHARS } from "../action-text.ts";
import type { Action, ActionId } from "../game-model.ts";

export const ACTIONS_FILE = "actions.json";

const ActionsFileSchema = v.object({
  actions: v.array(v.string('each entry of "actions" must be a string such as "ACTION1" or "ACTION6(30,40)"')),
  /** The agent says it has nothing more to try: the run ends with reason "agent-stopped". */
  stop: v.optional(v.boolean()),
});

export interface ActionBatch {
  readonly actions: Action[];
  readonly warnings: string[];
  readonly stop: boolean;
}

/** actions.json larger than this is not read at all (the instructions state it). */
export const ACTIONS_MAX_BYTES = 1024 * 1024;
/**
 * Parses the text of actions.json. Entries beyond `cap` are discarded and entries the game does not offer
 * now are dropped, each with a warning. `path` only names the file in messages.
 */
export function parseActions(
  text: string,
  opts: { cap: number; available: readonly ActionId[]; path: string; entry?: EntryParser },
): Result<ActionBatch, ProlongError> {
  const fix = opts.entry
    ? 'write {"actions": ["far east", "search"]} (a JSON object with an "actions" array of action names)'
    : 'write {"actions": ["ACTION1", "ACTION6(30,40)"]} (a JSON object with an "actions" array of strings)';
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return err(
      prolongError("bad-actions-json", `not valid JSON (${(e as Error).message.slice(0, QUOTE_CHARS)})`, {
        path: opts.path,
        fix,
      }),
    );
  }
  const parsed = v.safeParse(ActionsFileSchema, json);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const where = issue.path?.map((p) => String(p.key)).join(".") ?? "";
    return err(
      prolongError("bad-actions-json", `${where ? `field '${where}': ` : ""}${issue.message}`, { path: opts.path, fix }),
    );
  }
  const warnings: string[] = [];
  let entries = parsed.output.actions;
  if (entries.length > opts.cap) {
    warnings.push(
      `${entries.length - opts.cap} action(s) beyond the cap of ${opts.cap} discarded: ${quote(entries.slice(opts.cap).join(", "))}`,
    );
    entries = entries.slice(0, opts.cap);
  }
  const actions: Action[] = [];
  for (const entry of entries) {
    if (opts.entry) {
      const named = opts.entry(entry);
      if (named.isErr()) {
        warnings.push(`dropped ${named.error}`);
      } else {
        const { note, ...action } = named.value;
        if (note !== undefined) warnings.push(note);
        actions.push(action as Action);
      }
      continue;
    }
    const a = parseActionEntry(entry);
    if (a.isErr()) {
      warnings.push(`dropped ${a.error}`);
    } else if (a.value.id !== 0 && !opts.available.includes(a.value.id)) {
      warnings.push(
        `dropped ${quote(entry)}: this game offers only ${opts.available
          .filter((x) => x !== 0)
          .map((x) => `ACTION${x}`)
          .join(", ")} and RESET`,
      );
    } else {
      actions.push(a.value);
    }
  }
  return ok({ actions, warnings, stop: parsed.output.stop === true });
}

/** How an environment with its own action names (NetHack) reads one entry: the action, or why it is none. */
export type EntryParser = (entry: string) => Result<NotedAction, string>;

/** An action as an entry parser gives it: with a note for the agent when it is not what the entry said. */
export type NotedAction = Action & { readonly note?: string };

/** The text an agent would write for these actions (used by the built-in explorer and tests). */
export function actionsFileText(actions: readonly Action[], stop = false): string {
  const entries = actions.map((a) => actionText(a, "entry"));
  return JSON.stringify(stop ? { actions: entries, stop: true } : { actions: entries }) + "\n";
}
