// How one flag's value is read and checked: the kinds of flag (a switch, a text, a choice, a bounded number,
// a list, a flag with its own schema), each a valibot schema over the raw text whose messages speak of the
// value only. Settings (config/run-config.ts) declare their flags with these; cli/args.ts tokenizes argv and
// checks a table of them.
import * as v from "valibot";
import { didYouMean } from "../suggest.ts";

/** How a flag appears on the command line: alone, followed by one value, or repeatable with a value each time. */
export type Takes = "none" | "value" | "many";

export interface Flag<T> {
  readonly takes: Takes;
  /** One-letter alias, e.g. "o" for -o. */
  readonly short?: string;
  /** Checks the raw value (string, true, or string[] for "many") and gives the typed one; messages are about the value only. */
  readonly schema: v.GenericSchema<unknown, T>;
}

export type FlagTable = Readonly<Record<string, Flag<unknown>>>;
export type FlagValues<F extends FlagTable> = { [K in keyof F]: F[K] extends Flag<infer T> ? T : never };

/** A number as people type it: digits, an optional fraction, an optional exponent ("1e3"). Nothing else. */
export const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

export function numberOf(text: string): number {
  return NUMBER_TEXT.test(text.trim()) ? Number(text) : Number.NaN;
}

const range = (min: number, max: number) => (max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`);

function opt<T>(schema: v.GenericSchema<unknown, T>): v.GenericSchema<unknown, T | undefined> {
  return v.optional(schema) as v.GenericSchema<unknown, T | undefined>;
}

// parseArgv gives every flag a key (undefined when absent), so the default is applied here, after the check.
function withDefault<T>(schema: v.GenericSchema<unknown, T>, fallback: T): v.GenericSchema<unknown, T> {
  return v.pipe(
    v.optional(schema),
    v.transform((x) => (x === undefined ? fallback : x)),
  ) as v.GenericSchema<unknown, T>;
}

function intSchema(min: number, max: number, unit: string) {
  return v.pipe(
    v.string(),
    v.check(
      (s) => {
        const n = numberOf(s);
        return Number.isInteger(n) && n >= min && n <= max;
      },
      (issue) => `must be a whole number${unit} ${range(min, max)}, got '${String(issue.input)}'`,
    ),
    v.transform((s) => numberOf(s)),
  );
}

function numSchema(min: number, max: number, unit: string) {
  return v.pipe(
    v.string(),
    v.check(
      (s) => {
        const n = numberOf(s);
        return Number.isFinite(n) && n >= min && n <= max;
      },
      (issue) => `must be a number${unit} ${range(min, max)}, got '${String(issue.input)}'`,
    ),
    v.transform((s) => numberOf(s)),
  );
}

function choiceSchema<const C extends readonly string[]>(choices: C) {
  return v.pipe(
    v.string(),
    v.check(
      (s) => choices.includes(s),
      (issue) => `must be one of ${choices.join(", ")}, got '${String(issue.input)}'${didYouMean(String(issue.input), choices)}`,
    ),
    v.transform((s) => s as C[number]),
  );
}

interface Opts {
  short?: string;
}

/** The kinds of flag. Each returns a Flag whose value is undefined when absent unless a default is given. */
export const flag = {
  bool: (o: Opts = {}): Flag<boolean> => ({
    takes: "none",
    ...o,
    schema: withDefault(v.literal(true), false) as v.GenericSchema<unknown, boolean>,
  }),
  text: (o: Opts = {}): Flag<string | undefined> => ({ takes: "value", ...o, schema: opt(v.string()) }),
  textOr: (fallback: string, o: Opts = {}): Flag<string> => ({ takes: "value", ...o, schema: withDefault(v.string(), fallback) }),
  list: (o: Opts = {}): Flag<string[]> => ({ takes: "many", ...o, schema: withDefault(v.array(v.string()), [] as string[]) }),
  choice: <const C extends readonly string[]>(choices: C, o: Opts = {}): Flag<C[number] | undefined> => ({
    takes: "value",
    ...o,
    schema: opt(choiceSchema(choices)),
  }),
  choiceOr: <const C extends readonly string[]>(choices: C, fallback: C[number], o: Opts = {}): Flag<C[number]> => ({
    takes: "value",
    ...o,
    schema: withDefault(choiceSchema(choices), fallback),
  }),
  /** A whole number in [min, max]; `unit` reads after "a whole number", e.g. " of seconds". */
  int: (min: number, max = Number.MAX_SAFE_INTEGER, o: Opts & { unit?: string } = {}): Flag<number | undefined> => ({
    takes: "value",
    ...o,
    schema: opt(intSchema(min, max, o.unit ?? "")),
  }),
  intOr: (fallback: number, min: number, max = Number.MAX_SAFE_INTEGER, o: Opts & { unit?: string } = {}): Flag<number> => ({
    takes: "value",
    ...o,
    schema: withDefault(intSchema(min, max, o.unit ?? ""), fallback),
  }),
  /** Any finite number in [min, max] (fractions allowed). */
  num: (min: number, max = Number.MAX_SAFE_INTEGER, o: Opts & { unit?: string } = {}): Flag<number | undefined> => ({
    takes: "value",
    ...o,
    schema: opt(numSchema(min, max, o.unit ?? "")),
  }),
  /** A flag with its own schema over the raw string (e.g. --log-window: "full" or a whole number ≥ -1). */
  custom: <T>(schema: v.GenericSchema<string, T>, o: Opts = {}): Flag<T | undefined> => ({
    takes: "value",
    ...o,
    schema: opt(schema as v.GenericSchema<unknown, T>),
  }),
};
