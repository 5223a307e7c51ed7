// The one argv layer of every command. A command declares its flags as a table of `flag.*` entries; the
// table becomes a valibot object schema that checks each value (numbers for range and integrality) with a
// message in the flag's own name. The tokenizer is ours rather than node's parseArgs so that a value may
// start with "-" (`--log-window -1` as the docs write it) and so that a mistyped flag gets "did you mean".
import { err, ok, type Result } from "neverthrow";
import * as v from "valibot";
import { didYouMean } from "../suggest.ts";
import { argumentProblem } from "./argument-problem.ts";
import { NUMBER_TEXT, type FlagTable, type FlagValues } from "../setting/flag.ts";

export { flag, numberOf, type Flag, type FlagTable, type FlagValues } from "../setting/flag.ts";

/** The valibot object schema of a flag table: what `parseArgv` checks the tokenized values against. */
export function flagsSchema<F extends FlagTable>(flags: F) {
  const entries = Object.fromEntries(Object.entries(flags).map(([name, f]) => [name, f.schema]));
  return v.object(entries) as unknown as v.GenericSchema<Record<string, unknown>, FlagValues<F>>;
}

export interface Parsed<F extends FlagTable> {
  readonly values: FlagValues<F>;
  readonly positionals: string[];
}

/** Splits argv into flags and positionals and checks every flag; the error is one sentence naming the flag. */
export function parseArgv<F extends FlagTable>(
  args: readonly string[],
  flags: F,
  maxPositionals = Infinity,
): Result<Parsed<F>, string> {
  const names = Object.keys(flags);
  const byShort = new Map(
    Object.entries(flags)
      .filter(([, f]) => f.short !== undefined)
      .map(([n, f]) => [f.short!, n]),
  );
  const raw: Record<string, string | true | string[] | undefined> = Object.fromEntries(names.map((n) => [n, undefined]));
  const positionals: string[] = [];
  const unknown = (token: string) =>
    `unknown option '${token}'${didYouMean(token.replace(/^-+/, "").split("=")[0]!, names, (n) => `--${n}`)}`;
  const put = (name: string, value: string | undefined, shown: string): string | null => {
    const f = flags[name]!;
    if (f.takes === "none") {
      if (value !== undefined) return `${shown} takes no value (got '${value}')`;
      raw[name] = true;
      return null;
    }
    if (value === undefined)
      return `${shown} needs a value${shown.startsWith("--") ? ` (one that starts with -- goes as ${shown}=VALUE)` : ""}`;
    if (f.takes === "many") raw[name] = [...((raw[name] as string[] | undefined) ?? []), value];
    else raw[name] = value;
    return null;
  };
  for (let i = 0; i < args.length; i++) {
    const token = args[i]!;
    if (token === "--") {
      positionals.push(...args.slice(i + 1));
      break;
    }
    // A bare "-" and negative numbers are operands, not flags.
    if (!token.startsWith("-") || token === "-" || NUMBER_TEXT.test(token)) {
      positionals.push(token);
      continue;
    }
    let name: string;
    let inline: string | undefined;
    let shown: string;
    if (token.startsWith("--")) {
      const eq = token.indexOf("=");
      name = eq < 0 ? token.slice(2) : token.slice(2, eq);
      inline = eq < 0 ? undefined : token.slice(eq + 1);
      shown = `--${name}`;
      if (!(name in flags)) return err(unknown(token));
    } else {
      const letters = token.slice(1);
      // -Fi: several one-letter switches together.
      if (letters.length > 1 && [...letters].every((c) => byShort.has(c) && flags[byShort.get(c)!]!.takes === "none")) {
        for (const c of letters) raw[byShort.get(c)!] = true;
        continue;
      }
      const long = byShort.get(letters[0]!);
      if (long === undefined) return err(unknown(token));
      name = long;
      shown = `-${letters[0]}`;
      inline = letters.length > 1 ? letters.slice(1).replace(/^=/, "") : undefined;
    }
    if (inline === undefined && flags[name]!.takes !== "none") {
      // The next token is the value whatever it starts with ("-1"), unless it is itself a --flag.
      const next = args[i + 1];
      if (next !== undefined && !(next.startsWith("--") && next.length > 2)) {
        inline = next;
        i++;
      }
    }
    const problem = put(name, inline, shown);
    if (problem) return err(problem);
  }
  if (positionals.length > maxPositionals) {
    return err(
      maxPositionals === 0
        ? `takes no arguments, got '${positionals[0]}'`
        : `unexpected argument '${positionals[maxPositionals]}'`,
    );
  }
  const checked = v.safeParse(flagsSchema(flags), raw);
  if (!checked.success) {
    const issue = checked.issues[0];
    const key = issue.path?.[0]?.key;
    return err(typeof key === "string" ? `--${key} ${issue.message}` : issue.message);
  }
  return ok({ values: checked.output, positionals });
}

/** A command's argv, or undefined after printing the problem with the command's name and a pointer to its --help. */
export function parseCommandArgs<F extends FlagTable>(
  command: string,
  args: readonly string[],
  flags: F,
  maxPositionals = Infinity,
): Parsed<F> | undefined {
  const parsed = parseArgv(args, flags, maxPositionals);
  if (parsed.isOk()) return parsed.value;
  argumentProblem(command, parsed.error);
  return undefined;
}

/** One positional argument as a command's usage writes it ("<run-dir>") and what it is, for messages. */
export interface Operand {
  readonly name: string;
  readonly what: string;
}

/**
 * Do the positionals fit the operands (the first `required` needed, none beyond the last)? When not, says
 * which operand is missing or which argument is one too many, with the command's shape as the fix. `form` is
 * the command as its usage line writes this shape ("view --png"), when a flag changes the operands.
 */
export function operandsFit(
  command: string,
  given: readonly string[],
  operands: readonly Operand[],
  { required = operands.length, form = command }: { required?: number; form?: string } = {},
): boolean {
  const shape = ["prolong", form, ...operands.map((o, i) => (i < required ? o.name : `[${o.name}]`))].join(" ");
  if (given.length < required) {
    const missing = operands[given.length]!;
    argumentProblem(command, `missing ${missing.name}, ${missing.what}`, shape);
    return false;
  }
  if (given.length > operands.length) {
    const last = operands.at(-1);
    argumentProblem(
      command,
      `unexpected argument '${given[operands.length]}'${last ? ` after ${last.name}` : ""} (${form} takes ${operands.length === 0 ? "none" : operands.map((o) => o.name).join(" ")})`,
      `drop it (quote an argument that holds spaces): ${shape}`,
    );
    return false;
  }
  return true;
}
