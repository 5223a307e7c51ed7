// `score --plan` and a run its log does not back (score/evidence.ts): the job is there, so it is not "missing";
// it is named as refused, with why, and the plan is not complete (exit 3) until the run is mended. The plan is
// made and scored by the commands in this process; run-plan is the real CLI (it starts each job as a child
// process of its own executable).
import { describe, expect, test } from "bun:test";
import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { planCommand } from "../../src/cli/plan.ts";
import { scoreCommand } from "../../src/cli/score.ts";
import { tempRoot } from "../run/helpers.ts";
import { runCaptured } from "../support/captured.ts";

const MAIN = path.resolve(import.meta.dir, "../../src/main.ts");

function prolong(cwd: string, ...args: string[]) {
  const p = Bun.spawnSync([process.execPath, MAIN, ...args], { cwd, stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode ?? -1, out: p.stdout.toString(), err: p.stderr.toString() };
}

describe("score --plan with a run whose log does not back its scorecard", () => {
  test("named as refused, not missing; the plan is incomplete (exit 3); the Markdown says why", async () => {
    const work = tempRoot();
    const planFile = path.join(work, "plan.json");
    const runs = path.join(work, "runs");
    const made = await runCaptured(planCommand, [
      "--games",
      "glide",
      "--runs",
      "2",
      "--arm",
      "a=--max-actions 20",
      "-o",
      planFile,
    ]);
    expect(made.code).toBe(0);
    expect(prolong(work, "run-plan", "plan.json", "--out", "runs", "--quiet").code).toBe(0);
    const armDir = path.join(work, "runs", "a");
    const first = readdirSync(armDir).sort()[0]!;
    rmSync(path.join(armDir, first, "logs.txt"));

    const json = await runCaptured(scoreCommand, [runs, "--plan", planFile, "--json"]);
    expect(json.code).toBe(3);
    const plan = JSON.parse(json.out).plan as {
      missing: unknown[];
      refused: { dir: string; job: string; why: string }[];
    };
    expect(plan.missing).toEqual([]);
    expect(plan.refused.map((r) => [path.basename(r.dir), r.why])).toEqual([[first, "no-log"]]);
    expect(plan.refused[0]!.job).toMatch(/^j-/);

    const md = await runCaptured(scoreCommand, [runs, "--plan", planFile]);
    expect(md.code).toBe(3);
    expect(md.out).toContain("(1 refused: the log does not back the scorecard), 0 missing");
    expect(md.out).toContain("Refused (the log does not back the scorecard; not scored):");
    expect(md.out).not.toContain("Missing (no run directory)");
    // The other run is scored as usual.
    expect(md.out).toContain("| glide | 1 | 0 | 0 |");
  }, 120_000);
});
