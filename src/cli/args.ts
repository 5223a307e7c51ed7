// The one argv parser of the commands: node's parseArgs, with a bad flag turned into a message that names
// the command and points at its --help.
import { parseArgs, type ParseArgsConfig } from "node:util";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** Parses argv; on a bad flag (or any positional when `positionals` is false) prints why and returns undefined. */
export function parseCommandArgs<O extends Options>(command: string, args: string[], options: O, positionals = true) {
  const fail = (why: string) => {
    console.error(`prolong ${command}: ${why}\n  fix: see 'prolong ${command} --help'`);
    return undefined;
  };
  try {
    const parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
    if (!positionals && parsed.positionals.length > 0) return fail(`unexpected argument '${parsed.positionals[0]}'`);
    return parsed;
  } catch (e) {
    return fail((e as Error).message);
  }
}
