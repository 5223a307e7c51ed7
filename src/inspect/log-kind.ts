// Which kind wrote a log, when its run says so: the `env` of the run.json beside a logs.txt. A reader tries that
// kind's codec first; a bare log (the published ones) or a run.json that cannot be read leaves the choice to the
// registry (game/kinds.ts viewSection), which finds the codec that reads each section.
import path from "node:path";
import * as v from "valibot";
import { DEFAULT_ENV_KIND, ENV_KINDS, envKind, type EnvKind } from "../game/kinds.ts";
import { RUN_FILES } from "../run-files/layout.ts";
import { FILE_CAPS, readFileIfPresent } from "../safe-file.ts";

/** The one field read: other fields are run.json's own schema's business (config/run-config.ts). */
const RunKind = v.object({ env: v.optional(v.picklist(ENV_KINDS)) });

/** The kind the run beside this log names, or undefined when the log has no run.json beside it that says. */
export function logKind(logPath: string): EnvKind | undefined {
  if (path.basename(logPath) !== RUN_FILES.log) return undefined;
  const file = path.join(path.dirname(logPath), RUN_FILES.config);
  const bytes = readFileIfPresent(file, FILE_CAPS.settings, "the run's settings (run.json)");
  if (bytes.isErr() || bytes.value === null) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes.value));
  } catch {
    return undefined;
  }
  // run.json is an object of settings; anything else (an array, a bare value) names no kind.
  if (typeof json !== "object" || json === null || Array.isArray(json)) return undefined;
  const parsed = v.safeParse(RunKind, json);
  return parsed.success ? envKind(parsed.output.env ?? DEFAULT_ENV_KIND) : undefined;
}
