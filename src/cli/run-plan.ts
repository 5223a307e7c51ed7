// `prolong run-plan plan.json --out DIR [--shard i/n | --job ID] [--parallel P]`: one worker's slice of a plan.
// Each job writes only its own directory under DIR (a shared file system is enough); complete jobs are
// skipped, started ones resumed, jobs another worker holds are left to it, and a directory holding anything
// else is reported and never overwritten. Each run is a child process, as with `play --runs`.
import { jsonText, terminalLine } from "../terminal-text.ts";
import os from "node:os";
import { join, resolve } from "node:path";
import { formatError } from "../errors.ts";
import { claimJobs } from "../plan/claim.ts";
import { jobState } from "../plan/job-state.ts";
import { jobSettingsText, readPlan } from "../plan/plan.ts";
import { findJob, parseShard, shardJobs } from "../plan/slice.ts";
import { swarmSummary } from "../run/swarm-view.ts";
import { flag, parseCommandArgs } from "./args.ts";
import { argumentProblem } from "./argument-problem.ts";
import type { Command } from "./command.ts";
import { runClaimed } from "./run-jobs.ts";

const usage = `usage: prolong run-plan plan.json --out DIR [--shard i/n | --job ID] [--parallel P] [--dry-run] [--json] [--quiet]

Runs exactly one slice of a plan (\`prolong plan\`): every job (--shard omitted), shard i of n (jobs dealt
round-robin in plan order; i from 1 to n), or one job. Each job writes only DIR/<arm>/<game>-r<k>/, so any
number of workers on any machines can share DIR, or each write its own DIR and \`prolong score DIRS --plan plan.json\`
merges them. A job whose directory holds a finished run is skipped; a started one is resumed from its log; a job
another worker is running is left to it (an exclusive claim on job.lock, freed by the kernel when a worker
dies); a directory holding another run or other files is reported and not touched. Running a plan twice does
nothing the second time.

  --out DIR       where the jobs' directories go (required)
  --shard i/n     this worker's share. Slurm (array 1-n): $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT;
                  Kubernetes: $((JOB_COMPLETION_INDEX+1))/N; GNU parallel: {}/N
  --job ID        just this job (ids in \`prolong plan show\`)
  --parallel P    runs at once on this worker (default: this machine's cores, ${os.availableParallelism()} here)
  --dry-run       list the slice's jobs and what each directory holds (new, partial, complete, foreign);
                  run nothing
  --json          each run's event lines, then {"kind":"run-plan-summary",...}
  --quiet         no live lines

exit status: 0 when every job of the slice is complete (run now or before, or running elsewhere), 1 when a
run failed or a directory holds something else, 2 on bad options or a bad plan.`;

const flags = {
  out: flag.text(),
  shard: flag.text(),
  job: flag.text(),
  parallel: flag.int(1, 4096),
  "dry-run": flag.bool(),
  json: flag.bool(),
  quiet: flag.bool(),
} as const;

export const runPlanCommand: Command = {
  name: "run-plan",
  summary: "run one slice of a plan (--shard i/n, --job ID) into DIR: complete jobs skipped, partial ones resumed",
  usage,
  flags,
  async run(args) {
    const parsed = parseCommandArgs("run-plan", args, flags, 1);
    if (!parsed) return 2;
    const o = parsed.values;
    const file = parsed.positionals[0];
    if (file === undefined || o.out === undefined)
      return argumentProblem(
        "run-plan",
        `missing ${file === undefined ? "<plan.json>, the plan to run" : "--out DIR, the directory the runs go in"}`,
        "e.g. prolong run-plan plan.json --out runs/sweep --shard 1/4",
      );
    if (o.shard !== undefined && o.job !== undefined)
      return argumentProblem("run-plan", "--shard and --job choose the slice two ways", "give one of them");
    const plan = readPlan(file);
    if (plan.isErr()) {
      console.error(formatError(plan.error));
      return 2;
    }
    let jobs = plan.value.jobs;
    if (o.shard !== undefined) {
      const shard = parseShard(o.shard);
      if (shard.isErr()) {
        console.error(formatError(shard.error));
        return 2;
      }
      jobs = shardJobs(plan.value, shard.value);
    } else if (o.job !== undefined) {
      const job = findJob(plan.value, o.job);
      if (job.isErr()) {
        console.error(formatError({ ...job.error, path: file }));
        return 2;
      }
      jobs = [job.value];
    }
    const out = resolve(o.out);
    if (o["dry-run"]) {
      const rows = jobs.map((j) => ({
        job: j.id,
        arm: j.arm,
        game: j.game,
        run: j.run,
        seed: j.seed,
        dir: join(out, j.dir),
        state: jobState(join(out, j.dir), j).kind,
        // What the job will run, from its own settings (not the arm's recorded flags).
        settings: jobSettingsText(j.config),
      }));
      if (o.json) console.log(jsonText({ kind: "run-plan-slice", slice: o.shard ?? o.job ?? "all", jobs: rows }));
      else for (const r of rows) console.log(terminalLine(`${r.job}  ${r.state.padEnd(8)}  ${r.dir}  ${r.settings}`));
      return 0;
    }
    const claimed = claimJobs(jobs, out);
    for (const x of claimed.others) {
      const what =
        x.kind === "done"
          ? `already complete (${x.detail})`
          : x.kind === "busy"
            ? `left to another worker: ${x.detail}`
            : `NOT RUN: the directory ${x.detail}; fix: move it away or give another --out`;
      if (!o.json && x.kind !== "done" && (x.kind === "foreign" || !o.quiet)) console.error(`${x.job.id} ${x.job.dir}: ${what}`);
    }
    const slice = o.shard !== undefined ? ` --shard ${o.shard}` : o.job !== undefined ? ` --job ${o.job}` : "";
    const again = `prolong run-plan ${file} --out ${o.out}${slice}`;
    const result = await runClaimed(claimed, {
      parallel: o.parallel ?? os.availableParallelism(),
      json: o.json,
      quiet: o.quiet,
      again,
    });
    const count = (k: string) => claimed.others.filter((x) => x.kind === k).length;
    const summary = {
      kind: "run-plan-summary",
      plan: file,
      out,
      slice: o.shard ?? o.job ?? "all",
      jobs: jobs.length,
      ran: result.filter((s) => !s.run.resume).length,
      resumed: result.filter((s) => s.run.resume).length,
      done: result.filter((s) => s.state === "done").length,
      failed: result
        .filter((s) => s.state !== "done")
        .map((s) => ({
          dir: s.run.dir,
          state: s.state,
          exitCode: s.exitCode ?? null,
          detail: s.stderrTail.trim().split("\n").at(-1) ?? "",
        })),
      alreadyComplete: count("done"),
      elsewhere: count("busy"),
      foreign: claimed.others.filter((x) => x.kind === "foreign").map((x) => ({ job: x.job.id, dir: x.dir, detail: x.detail })),
    };
    if (o.json) console.log(JSON.stringify(summary));
    else {
      if (result.length > 0) console.log(swarmSummary(result, out, again));
      console.log(
        `${summary.slice === "all" ? "all jobs" : `slice ${summary.slice}`}: ${summary.jobs} job(s): ${summary.ran} started, ${summary.resumed} resumed, ${summary.alreadyComplete} already complete, ${summary.elsewhere} running elsewhere, ${summary.foreign.length} blocked by other files, ${summary.failed.length} not finished`,
      );
    }
    return summary.failed.length === 0 && summary.foreign.length === 0 ? 0 : 1;
  },
};
