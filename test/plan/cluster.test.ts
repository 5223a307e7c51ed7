// A plan for a cluster: 3 arms × every local game × 2 runs; Slurm- and Kubernetes-style environments pick the
// right slice; a job another worker holds is left to it; bad input is refused before anything is written. The
// plan run by GNU parallel in 4 shards with one killed by kill -9, merged and compared with a one-process run,
// is a whole-process trial in the slow tier (cluster.slow.test.ts).
import { describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { runPlanCommand } from "../../src/cli/run-plan.ts";
import { lockRun } from "../../src/run/lock.ts";
import { shardJobs } from "../../src/plan/slice.ts";
import { runCaptured } from "../support/captured.ts";
import { clusterPlan, JOBS } from "./cluster-plan.ts";

const MAIN = path.resolve(import.meta.dir, "../../src/main.ts");
const { work, planFile, plan, made, prolong } = await clusterPlan();

describe("a plan for a cluster", () => {
  test("the plan: 3 arms × every committed game × 2 runs", () => {
    expect(made.code).toBe(0);
    expect(plan.jobs).toHaveLength(JOBS);
  });
});

describe("schedulers' environments pick the slice", () => {
  const slice = (cmd: string, env: Record<string, string>) => {
    const p = Bun.spawnSync(["sh", "-c", cmd], {
      cwd: work,
      stdout: "pipe",
      stderr: "pipe",
      env: { ...process.env, ...env, PROLONG: `${process.execPath} ${MAIN}` },
    });
    expect(p.exitCode).toBe(0);
    return (JSON.parse(p.stdout.toString()) as { jobs: { job: string }[] }).jobs.map((j) => j.job);
  };
  test("Slurm: --shard $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT", () => {
    const ids = slice(
      '$PROLONG run-plan plan.json --out slurm --shard "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT" --dry-run --json',
      { SLURM_ARRAY_TASK_ID: "3", SLURM_ARRAY_TASK_COUNT: "4" },
    );
    expect(ids).toEqual(shardJobs(plan, { index: 3, count: 4 }).map((j) => j.id));
  });
  test("Kubernetes: --shard $((JOB_COMPLETION_INDEX + 1))/8", () => {
    const ids = slice('$PROLONG run-plan plan.json --out k8s --shard "$((JOB_COMPLETION_INDEX + 1))/8" --dry-run --json', {
      JOB_COMPLETION_INDEX: "0",
    });
    expect(ids).toEqual(shardJobs(plan, { index: 1, count: 8 }).map((j) => j.id));
  });
});

describe("two workers on one job", () => {
  test("a job another worker has claimed is left to it: not run, not counted as a failure", () => {
    const out = path.join(work, "shared");
    const job = plan.jobs[2]!;
    const dir = path.join(out, job.dir);
    mkdirSync(dir, { recursive: true });
    const held = lockRun(dir, "job.lock")._unsafeUnwrap(); // this test process plays the other worker
    try {
      const r = prolong(["run-plan", planFile, "--out", out, "--job", job.id, "--json"]);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.out.trim().split("\n").at(-1)!)).toMatchObject({ jobs: 1, ran: 0, resumed: 0, elsewhere: 1 });
      expect(existsSync(path.join(dir, "logs.txt"))).toBe(false);
    } finally {
      held.release();
    }
    // Released (as the kernel does when a worker dies), the job is this worker's.
    const r = prolong(["run-plan", planFile, "--out", out, "--job", job.id, "--json"]);
    expect(JSON.parse(r.out.trim().split("\n").at(-1)!)).toMatchObject({ ran: 1, done: 1, elsewhere: 0 });
  });
});

// The refusals run the run-plan command in this process (the exit statuses are its return values); the
// scheduler slices, the other worker above and every job played are real processes.
async function runPlan(args: string[]) {
  const r = await runCaptured(runPlanCommand, args);
  return { code: r.code, err: r.errText };
}

describe("bad input is refused before anything is written", () => {
  const out = path.join(work, "bad");
  test.each([
    ["--shard", "5/4"],
    ["--shard", "0/4"],
    ["--job", "j-000000000000"],
  ])("%s %s: exit 2, named", async (flag, value) => {
    const r = await runPlan([planFile, "--out", out, flag, value]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      value === "j-000000000000" ? "job j-000000000000 is not in the plan" : `--shard ${value} names no shard`,
    );
    expect(existsSync(out)).toBe(false);
  });

  test("a plan from another prolong version: exit 2, both versions named", async () => {
    const other = path.join(work, "old-plan.json");
    writeFileSync(other, JSON.stringify({ ...plan, prolong: "0.0.1" }));
    const r = await runPlan([other, "--out", out]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("made by prolong 0.0.1");
    expect(existsSync(out)).toBe(false);
  });

  test("an output directory holding a different run: reported, exit 1, not overwritten", async () => {
    const [a, b] = plan.jobs;
    // Job a played alone, as a worker leaves it.
    const one = path.join(work, "one");
    // Played by the real CLI: run-plan starts each job as a child process of its own executable.
    expect(prolong(["run-plan", planFile, "--out", one, "--job", a!.id, "--quiet"]).code).toBe(0);
    mkdirSync(path.dirname(path.join(out, b!.dir)), { recursive: true });
    cpSync(path.join(one, a!.dir), path.join(out, b!.dir), { recursive: true });
    const snapshot = () => ({
      files: readdirSync(path.join(out, b!.dir)).sort(),
      config: readFileSync(path.join(out, b!.dir, "run.json"), "utf8"),
      log: readFileSync(path.join(out, b!.dir, "logs.txt"), "utf8"),
    });
    const before = snapshot();
    const r = await runPlan([planFile, "--out", out, "--job", b!.id]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`holds the run of another job (${a!.id})`);
    expect(snapshot()).toEqual(before);
  });
});
