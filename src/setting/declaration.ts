// A run setting is one declaration: its run.json schema, the play flag that gives it (and how the flag's text
// is read), its default, which agents or environment kinds it means something to, whether it is part of the
// arm, and its help. Everything else about settings is derived here from a table of declarations: the flag
// table, the run's fields from parsed flags, the defaults, the applicability check, the arm's settings and the
// help text. config/run-config.ts holds the table.
import * as v from "valibot";
import { flag, type Flag } from "./flag.ts";

/** Which agents, or which environment kinds, a setting means something to (anything else is an error). */
export type AppliesTo = { readonly agent: readonly string[] } | { readonly env: readonly string[] };

export interface SettingHelp {
  /** The --help section it is listed under (play's usage places each section). */
  readonly group: string;
  /** What follows the flag on its help line ("N", "'SHELL COMMAND'"); absent for a switch. */
  readonly arg?: string;
  /** The help text; `{default}` is replaced by the declared default. New lines continue under it. */
  readonly text: string;
}

export interface Setting<S extends v.GenericSchema = v.GenericSchema> {
  /** The value as run.json (and a scorecard's settings) hold it; an optional setting's schema is v.optional. */
  readonly schema: S;
  /** The play flag that gives it (without --) and how its text is read; absent: not a flag (the game, the version). */
  readonly flag?: {
    readonly name: string;
    readonly read: Flag<unknown>;
    /** The flag's value as the setting holds it (a path made absolute); absent: as read. */
    readonly toField?: (value: unknown) => unknown;
  };
  /** The value when nothing gives one; absent: the setting is unset (optional) or required. */
  readonly default?: v.InferOutput<S>;
  readonly appliesTo?: AppliesTo;
  /**
   * Whether it changes what the agent sees or does: then it is part of the arm's fingerprint and of the arm's
   * derived name (config/arm.ts). Where the game files lie, timeouts and how the agent is confined are not.
   */
  readonly arm: boolean;
  /** How messages and derived arm names spell it; absent: its flag (`--max-actions`). */
  readonly label?: string;
  /**
   * A preset: what this setting's value brings with it. `fixed` settings take the given values and a flag
   * giving another is refused (it would no longer be the preset); `defaults` replace the declared and the
   * kind's defaults and a flag may still change them (a shorter budget).
   */
  readonly preset?: (value: unknown) => {
    readonly fixed?: Readonly<Record<string, unknown>>;
    readonly defaults?: Readonly<Record<string, unknown>>;
  };
  readonly help?: SettingHelp;
}

/** A free-text setting: bounded, one line of printable text (it is shown in summaries and tables). */
export const Text = (max: number, what: string, lines: "one line" | "lines" = "one line") =>
  v.pipe(
    v.string(),
    v.maxLength(max, `${what} is longer than ${max} characters`),
    lines === "lines"
      ? v.regex(/^[^\u0000-\u0008\u000b-\u001f\u007f-\u009f]*$/, `${what} must hold no control characters but tab and newline`)
      : v.regex(/^[^\u0000-\u0008\u000a-\u001f\u007f-\u009f]*$/, `${what} must be one line without control characters`),
  );

/**
 * A number setting held to one range, declared once: the flag accepts exactly [min, max] and run.json is held
 * to the same, so a hand-edited run.json cannot carry what the flag refuses (a 1e7 s timeout overflows a
 * timer). `what` names it in run.json's message; `unit` reads after "a whole number" in the flag's
 * (" of tokens"). Whole numbers unless `fractions` (a number of seconds).
 */
export function bounded(
  name: string,
  what: string,
  [min, max]: readonly [number, number],
  o: { readonly unit?: string; readonly fractions?: true } = {},
) {
  const msg = `${what} must be a ${o.fractions ? "number" : "whole number"}${o.unit ?? ""} from ${min} to ${max}`;
  const read = o.fractions ? flag.num(min, max, { unit: o.unit ?? "" }) : flag.int(min, max, { unit: o.unit ?? "" });
  const whole = o.fractions ? v.number(msg) : v.pipe(v.number(msg), v.integer(msg));
  return {
    schema: v.pipe(whole, v.minValue(min, msg), v.maxValue(max, msg)),
    flag: { name, read },
  };
}

/** The same, for a setting that may be left unset. */
export function boundedOptional(...args: Parameters<typeof bounded>) {
  const b = bounded(...args);
  return { ...b, schema: v.optional(b.schema) };
}

/** Declares a setting, keeping its schema's type so that the run's config type is inferred from the table. */
export function setting<S extends v.GenericSchema>(s: Setting<S>): Setting<S> {
  return s;
}

export type SettingTable = Readonly<Record<string, Setting>>;

/** The table's run.json schema entries, in declaration order (which is run.json's key order). */
export function schemaEntries<T extends SettingTable>(table: T): { [K in keyof T]: T[K]["schema"] } {
  return Object.fromEntries(Object.entries(table).map(([k, s]) => [k, s.schema])) as { [K in keyof T]: T[K]["schema"] };
}

/** The play flags of the settings, by flag name. */
export function settingFlags(table: SettingTable): Readonly<Record<string, Flag<unknown>>> {
  return Object.fromEntries(Object.values(table).flatMap((s) => (s.flag ? [[s.flag.name, s.flag.read]] : [])));
}

/**
 * The settings parsed flags give, by field: a flag left out (undefined, a switch not given, a repeatable flag
 * given no times) gives nothing, so the default or run.json's value stands.
 */
export function fieldsFromFlagValues(table: SettingTable, values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [key, s] of Object.entries(table)) {
    if (!s.flag) continue;
    const value = values[s.flag.name];
    if (value === undefined || value === false || (Array.isArray(value) && value.length === 0)) continue;
    fields[key] = s.flag.toField ? s.flag.toField(value) : value;
  }
  return fields;
}

/** The declared defaults, by field. */
export function defaultsOf(table: SettingTable): Record<string, unknown> {
  return Object.fromEntries(Object.entries(table).flatMap(([k, s]) => (s.default === undefined ? [] : [[k, s.default]])));
}

/** What the presets among the given fields bring: the fixed values and the defaults, and a fixed value contradicted. */
export function presetsOf(
  table: SettingTable,
  fields: Readonly<Record<string, unknown>>,
): {
  fixed: Record<string, unknown>;
  defaults: Record<string, unknown>;
  conflict?: { preset: string; value: unknown; label: string; fixed: unknown; given: unknown };
} {
  const fixed: Record<string, unknown> = {};
  const defaults: Record<string, unknown> = {};
  for (const [key, s] of Object.entries(table)) {
    const value = fields[key];
    if (!s.preset || value === undefined) continue;
    const p = s.preset(value);
    Object.assign(defaults, p.defaults ?? {});
    for (const [k, v] of Object.entries(p.fixed ?? {})) {
      const given = fields[k];
      if (given !== undefined && given !== v) {
        return { fixed, defaults, conflict: { preset: labelOf(table, key), value, label: labelOf(table, k), fixed: v, given } };
      }
      fixed[k] = v;
    }
  }
  return { fixed, defaults };
}

/** The fields that are not part of the arm. */
export function notArmKeys(table: SettingTable): ReadonlySet<string> {
  return new Set(Object.entries(table).flatMap(([k, s]) => (s.arm ? [] : [k])));
}

/** How a setting is named in messages and derived arm names: its label, its flag, or the field as a flag. */
export function labelOf(table: SettingTable, key: string): string {
  const s = table[key];
  return s?.label ?? (s?.flag ? `--${s.flag.name}` : `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
}

/** A setting that is given but does not apply to the run's agent or environment kind. */
export interface NotApplicable {
  readonly label: string;
  readonly on: "agent" | "env";
  readonly kind: string;
  readonly kinds: readonly string[];
}

export function notApplicable(table: SettingTable, c: Readonly<Record<string, unknown>>): NotApplicable | undefined {
  for (const [key, s] of Object.entries(table)) {
    if (s.appliesTo === undefined || c[key] === undefined) continue;
    const on = "agent" in s.appliesTo ? "agent" : "env";
    const kinds = "agent" in s.appliesTo ? s.appliesTo.agent : s.appliesTo.env;
    const kind = String(c[on]);
    if (!kinds.includes(kind)) return { label: labelOf(table, key), on, kind, kinds };
  }
  return undefined;
}

const HELP_COLUMN = 26;

/** One --help section: a line per setting of the group, the flag in the first column, its text from column 27. */
export function settingsHelp(table: SettingTable, group: string): string {
  const lines: string[] = [];
  for (const s of Object.values(table)) {
    if (!s.flag || s.help?.group !== group) continue;
    const head = `  --${s.flag.name}${s.help.arg ? ` ${s.help.arg}` : ""}`;
    const shownDefault =
      s.default === undefined ? "" : typeof s.default === "object" ? JSON.stringify(s.default) : String(s.default);
    const [first = "", ...more] = s.help.text.replaceAll("{default}", shownDefault).split("\n");
    if (head.length < HELP_COLUMN - 1) lines.push(`${head.padEnd(HELP_COLUMN)}${first}`);
    else lines.push(`${head}   ${first}`);
    for (const m of more) lines.push(`${" ".repeat(HELP_COLUMN)}${m}`);
  }
  return lines.join("\n");
}
