// The one argv parser of the commands: node's parseArgs, with a bad flag turned into a message that names
// the command and points at its --help.
import { parseArgs, type ParseArgsConfig } from "node:util";

type Options = NonNullable<ParseArgsConfig["options"]>;

export function parseCommandArgs<O extends Options>(command: string, args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    console.error(`prolong ${command}: ${(e as Error).message}\n  fix: see 'prolong ${command} --help'`);
    return undefined;
  }
}
