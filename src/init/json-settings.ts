// JSON settings files shared with the user (.claude/settings.json, .codex/hooks.json): read strictly,
// merge prolong's hook groups in, take them out again, and leave everything else as it was.
// Both clients use the same shape: {"hooks": {"<Event>": [{"matcher"?: "...", "hooks": [{"type": "command", ...}]}]}}.
import path from "node:path";
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";
import { RUNTIME_PATH } from "./layout.ts";

export type JsonObject = { [key: string]: unknown };

export interface HookGroup {
  readonly matcher?: string;
  readonly hooks: readonly { readonly type: "command"; readonly command: string; readonly timeout?: number }[];
}

/** Event name → the one group prolong adds to it. */
export type HookGroups = Readonly<Record<string, HookGroup>>;

function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Parses a settings file's text (null: no file yet → {}); a malformed file is an error naming it and the fix. */
export function parseSettings(text: string | null, abs: string): Result<JsonObject, ProlongError> {
  if (text === null || text.trim() === "") return ok({});
  const fix = `repair or remove ${path.basename(abs)} (prolong left it untouched), then run the command again`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return err(prolongError("malformed-settings", `not valid JSON (${(e as Error).message})`, { path: abs, fix }));
  }
  if (!isObject(value)) return err(prolongError("malformed-settings", "the top level is not a JSON object", { path: abs, fix }));
  const hooks = value["hooks"];
  if (hooks !== undefined) {
    if (!isObject(hooks)) return err(prolongError("malformed-settings", `"hooks" is not an object`, { path: abs, fix }));
    for (const [event, groups] of Object.entries(hooks)) {
      if (!Array.isArray(groups))
        return err(prolongError("malformed-settings", `"hooks.${event}" is not an array`, { path: abs, fix }));
    }
  }
  return ok(value);
}

export function formatSettings(value: JsonObject): string {
  return JSON.stringify(value, null, 2) + "\n";
}

/** A group is prolong's when every command in it runs the project's .prolong runtime. */
function isProlongGroup(group: unknown): boolean {
  if (!isObject(group) || !Array.isArray(group["hooks"]) || group["hooks"].length === 0) return false;
  return group["hooks"].every((h) => isObject(h) && typeof h["command"] === "string" && h["command"].includes(RUNTIME_PATH));
}

function hooksOf(settings: JsonObject): Record<string, unknown[]> {
  const hooks = settings["hooks"];
  return isObject(hooks) ? (hooks as Record<string, unknown[]>) : {};
}

/** The settings with "hooks" replaced in place (key order kept), dropped when null, or appended when new. */
function replaceHooks(settings: JsonObject, hooks: Record<string, unknown[]> | null): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(settings)) {
    if (key !== "hooks") out[key] = value;
    else if (hooks !== null) out[key] = hooks;
  }
  if (hooks !== null && !("hooks" in settings)) out["hooks"] = hooks;
  return out;
}

/** Settings with prolong's groups removed (events and the hooks object dropped when left empty). */
export function withoutProlongHooks(settings: JsonObject): JsonObject {
  if (!isObject(settings["hooks"])) return settings;
  const kept: Record<string, unknown[]> = {};
  for (const [event, groups] of Object.entries(hooksOf(settings))) {
    const rest = groups.filter((g) => !isProlongGroup(g));
    if (rest.length > 0) kept[event] = rest;
  }
  return replaceHooks(settings, Object.keys(kept).length > 0 ? kept : null);
}

/** Settings with exactly prolong's groups installed: any older prolong group replaced, the user's kept first. */
export function withProlongHooks(settings: JsonObject, groups: HookGroups): JsonObject {
  const hooks: Record<string, unknown[]> = {};
  for (const [event, existing] of Object.entries(hooksOf(settings))) hooks[event] = existing.filter((g) => !isProlongGroup(g));
  for (const [event, group] of Object.entries(groups)) hooks[event] = [...(hooks[event] ?? []), group];
  for (const [event, list] of Object.entries(hooks)) if (list.length === 0) delete hooks[event];
  return replaceHooks(settings, hooks);
}

/** Prolong's groups as found in the file, in a canonical text (events sorted) (for the manifest checksum). */
export function prolongHooksText(settings: JsonObject): string | null {
  const found: Record<string, unknown[]> = {};
  for (const [event, groups] of Object.entries(hooksOf(settings)).sort(([a], [b]) => a.localeCompare(b))) {
    const ours = groups.filter(isProlongGroup);
    if (ours.length > 0) found[event] = ours;
  }
  return Object.keys(found).length === 0 ? null : JSON.stringify(found);
}

/** Prolong's groups as init writes them, in the same canonical text. */
export function expectedHooksText(groups: HookGroups): string {
  const sorted = Object.entries(groups).sort(([a], [b]) => a.localeCompare(b));
  return JSON.stringify(Object.fromEntries(sorted.map(([event, group]) => [event, [group]])));
}

export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
