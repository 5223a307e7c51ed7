// The --client flag shared by init, status and uninstall: repeatable, comma-separated, "all" for every client.
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";
import { didYouMean } from "../suggest.ts";
import { CLIENT_NAMES, isClientName, type ClientName } from "./layout.ts";

/** null when no --client was given (each command has its own default). */
export function parseClientFlags(values: readonly string[] | undefined): Result<ClientName[] | null, ProlongError> {
  if (values === undefined || values.length === 0) return ok(null);
  const names = new Set<ClientName>();
  for (const raw of values.flatMap((v) => v.split(","))) {
    const name = raw.trim();
    if (name === "all") CLIENT_NAMES.forEach((n) => names.add(n));
    else if (isClientName(name)) names.add(name);
    else
      return err(
        prolongError("bad-client", `unknown client '${name}'${didYouMean(name, [...CLIENT_NAMES, "all"])}`, {
          fix: `use one of ${CLIENT_NAMES.join(", ")} or all`,
        }),
      );
  }
  return ok(CLIENT_NAMES.filter((n) => names.has(n)));
}
