// Before a worker runs its slice of a plan: claim each job (an exclusive lock on <job dir>/job.lock, held until
// the worker exits, so two workers that pick the same job never both run it — the kernel frees the claim of a
// killed worker), then look at what the job's directory holds. Complete jobs are skipped, started ones resumed,
// directories holding anything else are reported and left untouched.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { lockRun, type RunLock } from "../run/lock.ts";
import type { PlannedRun } from "../run/swarm.ts";
import { jobState } from "./job-state.ts";
import type { Job } from "./plan.ts";

export interface JobOutcome {
  readonly job: Job;
  readonly dir: string;
  /** done: already complete; busy: another worker holds it; foreign: the directory holds something else. */
  readonly kind: "done" | "busy" | "foreign";
  readonly detail: string;
}

export interface Claimed {
  /** Jobs this worker runs now (new ones started, partial ones resumed). */
  readonly runs: PlannedRun[];
  readonly others: JobOutcome[];
  /** Held until the worker is done. */
  readonly locks: RunLock[];
}

export function claimJobs(jobs: readonly Job[], out: string): Claimed {
  const runs: PlannedRun[] = [];
  const others: JobOutcome[] = [];
  const locks: RunLock[] = [];
  for (const job of jobs) {
    const dir = join(out, job.dir);
    const before = jobState(dir, job);
    // Never create anything in a directory that holds something else.
    if (before.kind === "foreign") {
      others.push({ job, dir, kind: "foreign", detail: before.detail });
      continue;
    }
    if (before.kind === "complete") {
      others.push({ job, dir, kind: "done", detail: before.end });
      continue;
    }
    try {
      mkdirSync(dir, { recursive: true });
    } catch (e) {
      others.push({ job, dir, kind: "foreign", detail: `cannot create it: ${(e as Error).message}` });
      continue;
    }
    const lock = lockRun(dir, "job.lock");
    if (lock.isErr()) {
      others.push({ job, dir, kind: "busy", detail: lock.error.message });
      continue;
    }
    // Looked at again under the claim: another worker may have finished it in between.
    const state = jobState(dir, job);
    if (state.kind === "new" || state.kind === "partial") {
      locks.push(lock.value);
      runs.push({
        name: job.dir,
        game: job.game,
        repeat: job.run,
        dir,
        config: job.config,
        ...(state.kind === "partial" ? { resume: true } : {}),
      });
    } else {
      lock.value.release();
      others.push({
        job,
        dir,
        kind: state.kind === "complete" ? "done" : "foreign",
        detail: state.kind === "complete" ? state.end : state.detail,
      });
    }
  }
  return { runs, others, locks };
}
