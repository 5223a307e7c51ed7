// Which jobs of a plan one worker runs: all of them, one (--job ID), or shard i of n (--shard i/n, 1-based as
// Slurm array ids and `seq` count; Kubernetes' 0-based JOB_COMPLETION_INDEX is given as $((i+1))). Jobs are
// dealt round-robin in plan order, so each shard gets a mix of arms and games and the shards' sizes differ by
// at most one.
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";
import type { Job, Plan } from "./plan.ts";

export interface Shard {
  readonly index: number;
  readonly count: number;
}

export function parseShard(text: string): Result<Shard, ProlongError> {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const fix =
    "give --shard i/n with 1 ≤ i ≤ n, e.g. --shard 1/4 … --shard 4/4 (Kubernetes: --shard $((JOB_COMPLETION_INDEX+1))/N)";
  if (!m) return err(prolongError("bad-shard", `--shard '${text}' is not i/n`, { fix }));
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || index < 1 || index > count)
    return err(prolongError("bad-shard", `--shard ${index}/${count} names no shard: i must be from 1 to n`, { fix }));
  return ok({ index, count });
}

export function shardJobs(plan: Plan, s: Shard): Job[] {
  return plan.jobs.filter((_, i) => i % s.count === s.index - 1);
}

export function findJob(plan: Plan, id: string): Result<Job, ProlongError> {
  const job = plan.jobs.find((j) => j.id === id);
  if (job) return ok(job);
  const near = plan.jobs
    .filter((j) => j.id.startsWith(id.slice(0, 4)))
    .slice(0, 3)
    .map((j) => j.id);
  return err(
    prolongError("unknown-job", `job ${id} is not in the plan`, {
      fix: `\`prolong plan show PLAN\` lists the job ids${near.length ? ` (e.g. ${near.join(", ")})` : ""}`,
    }),
  );
}
