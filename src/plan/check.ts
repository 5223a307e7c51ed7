// `score --plan`: run directories gathered from any number of machines, checked against the plan before they
// are scored. Each job should be there exactly once, as the plan describes it; everything else is named:
// jobs missing, jobs found twice (the first directory in path order is kept), runs that are no job of this
// plan, and runs of a job whose settings, prolong version or fingerprint differ from the plan's.
import { armOf } from "../config/arm.ts";
import type { RunConfig } from "../config/run-config.ts";
import type { Collected } from "../score/collect.ts";
import type { SkippedRun } from "../score/find-runs.ts";
import type { Result } from "neverthrow";
import type { ProlongError } from "../errors.ts";
import { readPlan, sameConfig, type Job, type Plan } from "./plan.ts";

export interface PlanCheck {
  /** Jobs with no run directory at all. */
  readonly missing: { readonly job: string; readonly dir: string }[];
  /** Jobs found in more than one directory: the first is scored, the others are not. */
  readonly duplicated: { readonly job: string; readonly dirs: string[] }[];
  /** Runs that are not jobs of this plan. */
  readonly foreign: { readonly dir: string; readonly why: string }[];
  /** Runs of a plan job that differ from it (settings, version, fingerprint). */
  readonly mismatched: { readonly dir: string; readonly job: string; readonly why: string }[];
  /** Jobs present but not finished (counted in the tables' unfinished column). */
  readonly unfinished: number;
  /** Runs of a plan job whose scorecard its log does not back (score/evidence.ts): present, not scored. */
  readonly refused: { readonly dir: string; readonly job: string; readonly why: string }[];
}

/** Whether the runs complete the plan: every job present, finished and backed by its log. Duplicates, foreign
 * runs and differing runs are named but do not make a plan incomplete (the first copy of each job is scored). */
export function planComplete(c: PlanCheck): boolean {
  return c.missing.length === 0 && c.unfinished === 0 && c.refused.length === 0;
}

/** Exit status of `score --plan` / `report --plan` when runs were scored but the plan is not complete, so a
 * script gathering a cluster's results can tell "done" from "scored what is there so far". */
export const PLAN_INCOMPLETE_EXIT = 3;

export function checkAgainstPlan(found: Collected, plan: Plan): { kept: Collected; check: PlanCheck } {
  const jobs = new Map(plan.jobs.map((j) => [j.id, j]));
  const fingerprints = new Map(plan.arms.map((a) => [a.name, a.fingerprint]));
  const seen = new Map<string, string[]>();
  const foreign: PlanCheck["foreign"] = [];
  const mismatched: PlanCheck["mismatched"] = [];
  /** Whether a run with these settings in `dir` is a faithful copy of a plan job; records why not. */
  const admit = (dir: string, c: RunConfig): boolean => {
    if (c.job === undefined) {
      foreign.push({ dir, why: `not a plan job (game ${c.game}, arm ${armOf(c).name}, seed ${c.seed})` });
      return false;
    }
    const job: Job | undefined = jobs.get(c.job);
    if (!job) {
      foreign.push({ dir, why: `job ${c.job} is not in this plan` });
      return false;
    }
    const why =
      c.version !== plan.prolong
        ? `played by prolong ${c.version}, the plan is prolong ${plan.prolong}`
        : armOf(c).fingerprint !== fingerprints.get(job.arm)
          ? `fingerprint ${armOf(c).fingerprint}, the plan's arm ${job.arm} has ${fingerprints.get(job.arm)}`
          : !sameConfig(c, job.config)
            ? "its run.json differs from the plan's settings for the job"
            : null;
    if (why) {
      mismatched.push({ dir, job: job.id, why });
      return false;
    }
    const dirs = seen.get(job.id) ?? [];
    dirs.push(dir);
    seen.set(job.id, dirs);
    return dirs.length === 1;
  };
  const runs = found.runs.filter((r) => admit(r.dir, r.card.settings));
  const skipped: SkippedRun[] = [];
  let unfinished = 0;
  const refused: PlanCheck["refused"] = [];
  for (const s of found.skipped) {
    if (s.unfinished) {
      if (admit(s.dir, s.unfinished)) {
        skipped.push(s);
        unfinished++;
      }
    } else if (s.refused) {
      // Its job is there (not missing), but what it claims is not taken: named apart, the plan not complete.
      if (admit(s.dir, s.refused)) {
        skipped.push(s);
        refused.push({ dir: s.dir, job: s.refused.job!, why: s.evidence ?? s.reason });
      }
    } else skipped.push(s);
  }
  const missing = plan.jobs.filter((j) => !seen.has(j.id)).map((j) => ({ job: j.id, dir: j.dir }));
  const duplicated = [...seen.entries()].filter(([, d]) => d.length > 1).map(([job, dirs]) => ({ job, dirs }));
  return { kept: { runs, skipped }, check: { missing, duplicated, foreign, mismatched, unfinished, refused } };
}

/** `--plan FILE` of `score` and `report`: the plan read, the runs checked against it, the check as text. */
export function checkAgainstPlanFile(
  found: Collected,
  planFile: string,
): Result<{ kept: Collected; check: PlanCheck; text: string }, ProlongError> {
  return readPlan(planFile).map((plan) => {
    const c = checkAgainstPlan(found, plan);
    return { ...c, text: planCheckMarkdown(c.check, plan.jobs.length) };
  });
}

/** The check as Markdown lines for `score`'s output (empty when everything matches). */
export function planCheckMarkdown(c: PlanCheck, planJobs: number): string {
  const lines = [
    `Plan: ${planJobs} job(s); ${planJobs - c.missing.length} found${c.unfinished ? ` (${c.unfinished} unfinished)` : ""}${c.refused.length ? ` (${c.refused.length} refused: the log does not back the scorecard)` : ""}, ${c.missing.length} missing, ${c.duplicated.length} duplicated, ${c.foreign.length} foreign, ${c.mismatched.length} differing from the plan.`,
  ];
  const few = <T>(xs: readonly T[], f: (x: T) => string) => [
    ...xs.slice(0, 20).map((x) => `- ${f(x)}`),
    ...(xs.length > 20 ? [`- … and ${xs.length - 20} more (--json lists all)`] : []),
  ];
  if (c.missing.length) lines.push("", "Missing (no run directory):", ...few(c.missing, (m) => `${m.job} ${m.dir}`));
  if (c.refused.length)
    lines.push(
      "",
      "Refused (the log does not back the scorecard; not scored):",
      ...few(c.refused, (r) => `${r.dir} (${r.job}): ${r.why}`),
    );
  if (c.duplicated.length)
    lines.push("", "Duplicated (the first is scored):", ...few(c.duplicated, (d) => `${d.job}: ${d.dirs.join(", ")}`));
  if (c.foreign.length) lines.push("", "Not in the plan (not scored):", ...few(c.foreign, (f) => `${f.dir}: ${f.why}`));
  if (c.mismatched.length)
    lines.push("", "Differing from the plan (not scored):", ...few(c.mismatched, (m) => `${m.dir} (${m.job}): ${m.why}`));
  return lines.join("\n");
}
