// What a job's output directory holds, so that run-plan runs each job exactly once across re-runs and
// workers: nothing yet (run it), a finished run of this job (skip it), a started one (resume it), or something
// else — another job's run, other settings, files that are not a run — which is never overwritten.
import { existsSync, readdirSync } from "node:fs";
import { readConfigFile } from "../config/run-config.ts";
import { runPaths } from "../run-files/layout.ts";
import { isResumableEnd } from "../score/find-runs.ts";
import { readScorecard } from "../score/scorecard.ts";
import { sameConfig, type Job } from "./plan.ts";

export type JobState =
  | { readonly kind: "new" }
  | { readonly kind: "complete"; readonly end: string }
  | { readonly kind: "partial"; readonly detail: string }
  | { readonly kind: "foreign"; readonly detail: string };

/** Files run-plan itself may leave in a job directory before the run starts. */
const OURS = new Set(["job.lock"]);

export function jobState(dir: string, job: Job): JobState {
  if (!existsSync(dir)) return { kind: "new" };
  const p = runPaths(dir);
  if (!existsSync(p.config)) {
    const other = readdirSync(dir).filter((f) => !OURS.has(f));
    return other.length === 0
      ? { kind: "new" }
      : {
          kind: "foreign",
          detail: `holds ${other.slice(0, 3).join(", ")}${other.length > 3 ? ", …" : ""} but no run.json: not a prolong run`,
        };
  }
  const config = readConfigFile(p.config);
  if (config.isErr()) return { kind: "foreign", detail: `its run.json cannot be read (${config.error.message})` };
  if (config.value.job !== job.id)
    return {
      kind: "foreign",
      detail: config.value.job
        ? `holds the run of another job (${config.value.job})`
        : `holds a run that is not a plan job (game ${config.value.game}, seed ${config.value.seed})`,
    };
  if (!sameConfig(config.value, job.config))
    return {
      kind: "foreign",
      detail: "holds this job's run with other settings than the plan's (edited run.json, or another plan)",
    };
  if (existsSync(p.scorecard)) {
    const card = readScorecard(p.scorecard);
    if (card.isOk() && !isResumableEnd(card.value.end_reason)) return { kind: "complete", end: card.value.end_reason };
  }
  if (existsSync(p.log)) return { kind: "partial", detail: "started, not finished" };
  return { kind: "new" };
}
