// The plan both cluster tests run (cluster.test.ts, cluster.slow.test.ts): 3 arms × every committed game × 2
// runs, made by the `prolong plan` command (in this process) in a fresh working directory.
import path from "node:path";
import { planCommand } from "../../src/cli/plan.ts";
import { listGames } from "../../src/game/catalog.ts";
import { type Plan, readPlan } from "../../src/plan/plan.ts";
import { tempRoot } from "../run/helpers.ts";
import { runCaptured } from "../support/captured.ts";

const MAIN = path.resolve(import.meta.dir, "../../src/main.ts");

/** 3 arms × every committed game × 2 runs. */
export const JOBS = 3 * listGames().length * 2;

export interface ClusterPlan {
  readonly work: string;
  readonly planFile: string;
  readonly plan: Plan;
  /** The exit status and output of `prolong plan` making it. */
  readonly made: { code: number; out: string; err: string };
  /** Runs the real CLI in `work`, with `env` added to this process's environment. */
  prolong(args: string[], env?: Record<string, string>): { code: number; out: string; err: string };
}

export async function clusterPlan(): Promise<ClusterPlan> {
  const work = tempRoot();
  const planFile = path.join(work, "plan.json");
  const prolong = (args: string[], env: Record<string, string> = {}) => {
    const p = Bun.spawnSync([process.execPath, MAIN, ...args], {
      cwd: work,
      stdout: "pipe",
      stderr: "pipe",
      env: { ...process.env, ...env },
    });
    return { code: p.exitCode ?? -1, out: p.stdout.toString(), err: p.stderr.toString() };
  };
  const made = await runCaptured(planCommand, [
    "--games",
    "all",
    "--runs",
    "2",
    "--arm",
    "full=--max-actions 30",
    "--arm",
    "w0=--max-actions 30 --log-window 0",
    "--arm",
    "w5=--max-actions 30 --log-window 5",
    "-o",
    planFile,
  ]);
  return {
    work,
    planFile,
    plan: readPlan(planFile)._unsafeUnwrap(),
    made: { code: made.code, out: made.out, err: made.errText },
    prolong,
  };
}
