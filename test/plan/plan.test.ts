// Plans as data: stable job ids and order, arms parsed through play's flags, shards that partition the jobs,
// what a job directory holds, and every bad input named: a job id not in the plan, a plan from another
// version or edited, an output directory holding another run, shard specs like 5/4 or 0/4.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { estimatePlan, parseArmSpec, planCommand, shellWords } from "../../src/cli/plan.ts";
import { jobState } from "../../src/plan/job-state.ts";
import { buildPlan, readPlan, type Plan } from "../../src/plan/plan.ts";
import { findJob, parseShard, shardJobs } from "../../src/plan/slice.ts";
import { playGame, tempRoot } from "../run/helpers.ts";
import { runCaptured } from "../support/captured.ts";

const games = [
  { id: "glide", version: "g1" },
  { id: "vault", version: "v1" },
];
function plan(runs = 2): Plan {
  const arms = [parseArmSpec("full=--max-actions 20"), parseArmSpec("w0='--max-actions' 20 --log-window 0")].map((a) => {
    if (typeof a === "string") throw new Error(a);
    return a;
  });
  return buildPlan({ games, runs, arms, common: { env: "local" } })._unsafeUnwrap();
}

describe("a plan", () => {
  const p = plan();
  test("jobs in a stable order (arm, game, run), seeds seed + k − 1, directories <arm>/<game>-r<k>", () => {
    expect(p.jobs.map((j) => `${j.arm}/${j.game}/${j.run}/${j.seed}`)).toEqual([
      "full/glide/1/0",
      "full/glide/2/1",
      "full/vault/1/0",
      "full/vault/2/1",
      "w0/glide/1/0",
      "w0/glide/2/1",
      "w0/vault/1/0",
      "w0/vault/2/1",
    ]);
    expect(p.jobs[5]!.dir).toBe("w0/glide-r2");
    expect(p.jobs.every((j) => j.config.job === j.id && j.config.arm === j.arm)).toBe(true);
    expect(p.jobs[4]!.config.logWindow).toEqual({ kind: "newest" });
  });

  test("ids are derived from content: the same plan twice has the same ids; a changed setting, game version or seed changes them", () => {
    expect(plan().jobs.map((j) => j.id)).toEqual(p.jobs.map((j) => j.id));
    expect(new Set(p.jobs.map((j) => j.id)).size).toBe(p.jobs.length);
    const other = buildPlan({
      games: [{ id: "glide", version: "g2" }],
      runs: 1,
      arms: [{ name: "full", flags: "", fields: { maxActions: 20 } }],
      common: {},
    })._unsafeUnwrap();
    expect(other.jobs[0]!.id).not.toBe(p.jobs[0]!.id);
  });

  test("the arms carry their flags and fingerprints; two arms of one name are refused", () => {
    expect(p.arms.map((a) => [a.name, a.flags])).toEqual([
      ["full", "--max-actions 20"],
      ["w0", "'--max-actions' 20 --log-window 0"],
    ]);
    expect(p.arms[0]!.fingerprint).not.toBe(p.arms[1]!.fingerprint);
    const twice = buildPlan({
      games,
      runs: 1,
      arms: [
        { name: "a", flags: "", fields: {} },
        { name: "a", flags: "", fields: {} },
      ],
      common: {},
    });
    expect(twice._unsafeUnwrapErr().message).toContain('arm "a" is given twice');
  });

  test("a flag that does not apply to the arm's agent is refused when the plan is made, naming the arm", () => {
    const bad = buildPlan({ games, runs: 1, arms: [{ name: "x", flags: "--model m", fields: { model: "m" } }], common: {} });
    expect(bad._unsafeUnwrapErr().message).toMatch(/arm "x": --model does not apply/);
  });
});

describe("arm specs", () => {
  test("shell words: quotes and escapes as a shell splits them", () => {
    expect(shellWords(`--agent command --cmd 'python3 my agent.py' --x "a \\"b\\"" c\\ d ''`)).toEqual([
      "--agent",
      "command",
      "--cmd",
      "python3 my agent.py",
      "--x",
      'a "b"',
      "c d",
      "",
    ]);
    expect(shellWords("--cmd 'open")).toBe("an unclosed ' quote");
  });
  test("through play's flag table: bad flags and plan-level flags are named", () => {
    expect(parseArmSpec("w=--log-window 25")).toMatchObject({ name: "w", fields: { logWindow: { kind: "last", sections: 25 } } });
    expect(parseArmSpec("w=--log-windw 25")).toContain("--log-window");
    expect(parseArmSpec("w=--runs 3 --seed 2")).toBe("--arm w: --seed, --runs belong to the plan, not to an arm");
    expect(parseArmSpec("nameonly")).toContain("NAME='FLAGS'");
    expect(parseArmSpec("h=--agent human")).toContain("cannot run unattended");
  });
});

describe("shards", () => {
  const p = plan(3);
  test("i/n partitions the jobs: disjoint, together all of them, sizes within one", () => {
    const shards = [1, 2, 3, 4, 5].map((i) => shardJobs(p, { index: i, count: 5 }));
    expect(
      shards
        .flat()
        .map((j) => j.id)
        .sort(),
    ).toEqual(p.jobs.map((j) => j.id).sort());
    const sizes = shards.map((s) => s.length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
  });
  test.each(["5/4", "0/4", "1/0", "x", "1/2/3", ""])("'%s' is refused with the rule", (spec) => {
    const e = parseShard(spec)._unsafeUnwrapErr();
    expect(e.code).toBe("bad-shard");
    expect(e.fix).toContain("1 ≤ i ≤ n");
  });
  test("a job id not in the plan is named, with where to find the ids", () => {
    const e = findJob(p, "j-000000000000")._unsafeUnwrapErr();
    expect(e.message).toBe("job j-000000000000 is not in the plan");
    expect(e.fix).toContain("prolong plan show");
  });
});

describe("reading a plan back", () => {
  const root = tempRoot();
  const file = path.join(root, "plan.json");
  const write = (x: unknown) => writeFileSync(file, JSON.stringify(x));
  const p = plan();
  test("a plan reads back equal", () => {
    write(p);
    expect(readPlan(file)._unsafeUnwrap()).toEqual(p);
  });
  test("from another prolong version: refused, both versions named", () => {
    write({ ...p, prolong: "0.0.1" });
    const e = readPlan(file)._unsafeUnwrapErr();
    expect(e.code).toBe("plan-version");
    expect(e.message).toContain("made by prolong 0.0.1");
  });
  test("an edited job (its settings no longer give its id) or a foreign file: refused", () => {
    const edited = structuredClone(p);
    edited.jobs[0]!.config.maxActions = 999;
    write(edited);
    expect(readPlan(file)._unsafeUnwrapErr().message).toContain("does not match its content");
    write({ format: "something-else" });
    expect(readPlan(file)._unsafeUnwrapErr().message).toContain("not a prolong plan");
    writeFileSync(file, "{ cut");
    expect(readPlan(file)._unsafeUnwrapErr().code).toBe("bad-plan");
  });
});

describe("what a job directory holds", () => {
  const root = tempRoot();
  const p = plan();
  const job = p.jobs[0]!;
  const dir = (name: string) => path.join(root, name);
  test("nothing (or only our claim file): new", () => {
    expect(jobState(dir("absent"), job).kind).toBe("new");
    mkdirSync(dir("claimed"));
    writeFileSync(path.join(dir("claimed"), "job.lock"), "1\n");
    expect(jobState(dir("claimed"), job).kind).toBe("new");
  });
  test("other files, another job's run, other settings: foreign, each named", () => {
    mkdirSync(dir("junk"));
    writeFileSync(path.join(dir("junk"), "notes.txt"), "mine");
    expect(jobState(dir("junk"), job)).toEqual({ kind: "foreign", detail: "holds notes.txt but no run.json: not a prolong run" });
    mkdirSync(dir("other"));
    writeFileSync(path.join(dir("other"), "run.json"), JSON.stringify(p.jobs[1]!.config));
    expect(jobState(dir("other"), job)).toEqual({ kind: "foreign", detail: `holds the run of another job (${p.jobs[1]!.id})` });
    mkdirSync(dir("edited"));
    writeFileSync(path.join(dir("edited"), "run.json"), JSON.stringify({ ...job.config, actionCap: 3 }));
    expect(jobState(dir("edited"), job).kind).toBe("foreign");
    expect(readFileSync(path.join(dir("junk"), "notes.txt"), "utf8")).toBe("mine");
  });
  test("started (a log, no final scorecard): partial", () => {
    mkdirSync(dir("started"));
    writeFileSync(path.join(dir("started"), "run.json"), JSON.stringify(job.config));
    writeFileSync(path.join(dir("started"), "logs.txt"), "");
    expect(jobState(dir("started"), job).kind).toBe("partial");
  });
});

describe("plan show --estimate", () => {
  const p = plan(); // 8 jobs, 20 actions each, action cap 20
  test("without a rate: the bounds on agent calls, tokens unknown", () => {
    const e = estimatePlan(p, null);
    expect(e).toMatchObject({ jobs: 8, maxActions: 160, agentCalls: { low: 8, high: 160, expected: null }, billedTokens: null });
  });
  test("with a measured or given rate: calls and billed tokens for the plan's actions", () => {
    const e = estimatePlan(p, { callsPerAction: 0.25, tokensPerAction: 1500, basis: "test" });
    expect(e.agentCalls.expected).toBe(40);
    expect(e.billedTokens).toBe(240_000);
  });
  test("--from a past run directory measures calls and billed tokens per action", async () => {
    const root = tempRoot();
    await playGame({ game: "glide", maxActions: 30 }, root);
    const file = path.join(root, "plan.json");
    writeFileSync(file, JSON.stringify(p));
    const shown = await runCaptured(planCommand, ["show", file, "--estimate", "--from", root, "--json"]);
    expect(shown.code).toBe(0);
    const e = JSON.parse(shown.out);
    // The explorer: one call per batch of at most 20 actions, no tokens.
    expect(e.agentCalls.expected).toBeGreaterThanOrEqual(8);
    expect(e.agentCalls.expected).toBeLessThanOrEqual(160);
    expect(e.billedTokens).toBe(0);
    expect(e.basis).toContain("measured over 1 run(s)");
  });
});

describe("a hostile plan file", () => {
  const root = tempRoot();
  const file = path.join(root, "plan.json");
  test("a job directory that leaves --out (or is not the plan's rule) is refused", () => {
    for (const dir of ["full/..", "../x/glide-r1", "full/other-r1"]) {
      const p = structuredClone(plan());
      p.jobs[0]!.dir = dir;
      writeFileSync(file, JSON.stringify(p));
      expect(readPlan(file).isErr()).toBe(true);
    }
  });
  test("a game id with a path in it is refused", () => {
    const p = structuredClone(plan());
    p.jobs[0]!.game = "../../etc";
    writeFileSync(file, JSON.stringify(p));
    expect(readPlan(file)._unsafeUnwrapErr().message).toContain("jobs.0.game");
  });
});
