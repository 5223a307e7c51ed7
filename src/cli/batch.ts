// `play --games … --runs …` and `resume <batch-dir>`: a batch is a plan kept in its own directory
// (runs/<stamp>/plan.json, jobs in <game>-r<k>/), run by the same claim-and-swarm as `run-plan`. So an
// interrupted batch is continued as a whole: finished runs are left, started ones resumed, never-started ones
// started, and the batch's score is what an uninterrupted batch would have scored.
import { existsSync, rmdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join, resolve } from "node:path";
import { armOf } from "../config/arm.ts";
import { DEFAULTS, newConfig, type RunConfigInput } from "../config/run-config.ts";
import { formatError } from "../errors.ts";
import { argumentProblem } from "./argument-problem.ts";
import { unconfinedWarning } from "../agent/sandbox.ts";
import { claimJobs } from "../plan/claim.ts";
import { gamesOf, placeFields } from "../plan/games.ts";
import { BATCH_PLAN_FILE, buildPlan, readPlan, type Plan } from "../plan/plan.ts";
import { claimStamp } from "../run-files/layout.ts";
import type { RunStatus } from "../run/swarm.ts";
import { swarmSummary } from "../run/swarm-view.ts";
import { scoreTables } from "../score/markdown.ts";
import { fieldsFromFlags, startedIn, type PlayFlags } from "./play.ts";
import { runClaimed } from "./run-jobs.ts";
import { markdownForStdout } from "./markdown-stdout.ts";

export interface BatchOutput {
  readonly parallel: number;
  readonly json: boolean;
  readonly quiet: boolean;
}

/** Is `dir` a batch's directory (its plan, no run of its own)? */
export function isBatchDir(dir: string): boolean {
  return existsSync(join(dir, BATCH_PLAN_FILE)) && !existsSync(join(dir, "run.json"));
}

/** --games / --runs / --parallel: the batch's plan written to runs/<stamp>/plan.json, then run. */
export async function startBatch(positionals: readonly string[], f: PlayFlags, args: readonly string[]): Promise<number> {
  if (positionals.length > (f.games === undefined ? 1 : 0)) {
    return argumentProblem(
      "play",
      `unexpected argument '${positionals[f.games === undefined ? 1 : 0]}': the games go either as one <game> or with --games, not both`,
      `list them all in --games (--games ${[...positionals, ...(f.games !== undefined ? [f.games] : [])].join(",")})`,
    );
  }
  const fields = startedIn(process.cwd(), fieldsFromFlags(f));
  if (fields.agent === "human") {
    return argumentProblem(
      "play",
      "--agent human plays one game in this terminal; it cannot run with --games, --runs or --parallel",
      "prolong play <game> --agent human",
    );
  }
  const env = fields.env ?? DEFAULTS.env;
  const places = placeFields(fields);
  const games = await gamesOf(f.games ?? (positionals.length > 0 ? positionals.join(",") : undefined), { env, ...places });
  if (typeof games === "string") {
    console.error(`prolong play: ${games}`);
    return 2;
  }
  // The games, where they lie and the seed belong to the batch's plan; the rest is its one arm.
  const { seed, ...rest } = fields;
  const armFields = Object.fromEntries(Object.entries(rest).filter(([k]) => !(k in places))) as Partial<RunConfigInput>;
  const common: Partial<RunConfigInput> = { env, ...places, ...(seed !== undefined ? { seed } : {}) };
  // The arm's name is the one each run would have had alone: --arm, or the one its settings give.
  const first = newConfig({ ...common, ...armFields, game: games[0]!.id });
  if (first.isErr()) {
    console.error(formatError(first.error));
    return 2;
  }
  const plan = buildPlan({
    layout: "batch",
    games,
    runs: f.runs ?? 1,
    arms: [{ name: armOf(first.value).name, flags: args.join(" "), fields: armFields }],
    common,
  });
  if (plan.isErr()) {
    console.error(formatError(plan.error));
    return 2;
  }
  const root = resolve(f["runs-dir"] ?? "runs");
  const stamp = claimStamp(root, new Date());
  if (stamp.isErr()) {
    console.error(formatError(stamp.error));
    return 2;
  }
  const dir = join(root, stamp.value);
  try {
    writeFileSync(join(dir, BATCH_PLAN_FILE), JSON.stringify(plan.value, null, 2) + "\n", { flag: "wx" });
  } catch (e) {
    try {
      rmdirSync(dir);
    } catch {
      // Not empty: leave it.
    }
    console.error(`prolong play: cannot write ${join(dir, BATCH_PLAN_FILE)}: ${(e as Error).message}`);
    return 2;
  }
  return runBatch(plan.value, dir, {
    parallel: f.parallel ?? os.availableParallelism(),
    json: f.json === true,
    quiet: f.quiet === true,
  });
}

/** `prolong resume <batch-dir>`: the batch's own plan, run again. */
export async function resumeBatch(dir: string, o: BatchOutput): Promise<number> {
  const abs = resolve(dir);
  const plan = readPlan(join(abs, BATCH_PLAN_FILE));
  if (plan.isErr()) {
    console.error(formatError(plan.error));
    return 2;
  }
  if (plan.value.layout !== "batch") {
    console.error(
      `prolong resume: ${join(abs, BATCH_PLAN_FILE)} is a plan of arms, not a batch\n  fix: run it with \`prolong run-plan ${join(abs, BATCH_PLAN_FILE)} --out DIR\``,
    );
    return 2;
  }
  return runBatch(plan.value, abs, o);
}

async function runBatch(plan: Plan, dir: string, o: BatchOutput): Promise<number> {
  const again = `prolong resume ${dir}`;
  // Said once here: each run's own warning goes to its child's stderr, which the batch keeps for failures.
  const unconfined = unconfinedWarning(plan.jobs[0]!.config);
  if (unconfined !== null) process.stderr.write(`prolong: warning: ${unconfined}\n`);
  const claimed = claimJobs(plan.jobs, dir);
  const blocked = claimed.others.filter((x) => x.kind !== "done");
  for (const x of blocked)
    console.error(
      x.kind === "busy"
        ? `prolong: ${x.dir}: left to the prolong already running it (${x.detail})`
        : `prolong: ${x.dir}: NOT RUN: the directory ${x.detail}; fix: move it away, then \`${again}\``,
    );
  const result = await runClaimed(claimed, { ...o, again });
  const complete = claimed.others.length - blocked.length;
  if (o.json) {
    const runsOut = result.map((s) => ({
      run: s.run.name,
      dir: s.run.dir,
      game: s.run.game,
      seed: s.run.config.seed,
      resumed: s.run.resume === true,
      state: s.state,
      end: s.end ?? null,
      levelsCompleted: s.levelsCompleted ?? null,
      winLevels: s.winLevels ?? null,
      actions: s.action,
      rhae: s.rhae ?? null,
      exitCode: s.exitCode ?? null,
    }));
    console.log(
      JSON.stringify({ kind: "swarm-summary", dir, runs: runsOut, alreadyComplete: complete, blocked: blocked.length }),
    );
  } else {
    if (result.length > 0) console.log(swarmSummary(result, dir, again));
    if (complete > 0) console.log(`${complete} run(s) of the batch were already complete and left as they were`);
    const tables = scoreTables([dir]);
    if (tables)
      console.log(
        `\n${markdownForStdout(tables)}\n\n(\`prolong score ${dir}\` prints this again; --json, --csv, --at N,M, --compare A B)`,
      );
  }
  return blocked.length === 0 && result.every((s: RunStatus) => s.state === "done") ? 0 : 1;
}
