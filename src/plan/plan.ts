// An experiment plan as data: games × arms × runs, each job with a stable id derived from its content, its seed
// and its output directory, plus the prolong version and the game versions it was made for. A cluster's
// scheduler runs it in slices (`run-plan --shard i/n`); `score --plan` merges what comes back. The plan file is
// external input when read back: checked against its schema and its version.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { err, ok, type Result } from "neverthrow";
import * as v from "valibot";
import { prolongError, type ProlongError } from "../errors.ts";
import { armOf } from "../config/arm.ts";
import { DEFAULTS, newConfig, RunConfigSchema, type RunConfig, type RunConfigInput } from "../config/run-config.ts";
import { VERSION } from "../version.ts";

export const PLAN_FORMAT = "prolong-plan/1";

const JobSchema = v.object({
  /** "j-" + 12 hex digits of sha256 over the job's content (game, its version, arm, settings, seed, run). */
  id: v.pipe(v.string(), v.regex(/^j-[0-9a-f]{12}$/)),
  /** Also a path component of the job's directory: letters, digits, '.', '_', '-', not starting with '.'. */
  game: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-][A-Za-z0-9._-]*$/, "a game id is letters, digits, '.', '_' and '-'")),
  arm: v.pipe(v.string(), v.minLength(1)),
  /** 1-based repeat number within (game, arm). */
  run: v.pipe(v.number(), v.integer(), v.minValue(1)),
  seed: v.pipe(v.number(), v.integer()),
  /** Relative to run-plan's --out: "<arm>/<game>-r<run>", or "<game>-r<run>" in a batch (jobDir). */
  dir: v.pipe(v.string(), v.regex(/^[^/.][^/]*(\/[^/]+)?$/, "a job directory is <arm>/<game>-r<k> (or <game>-r<k> in a batch)")),
  config: RunConfigSchema,
});

const ArmSchema = v.object({
  name: v.pipe(v.string(), v.minLength(1)),
  /** The play flags the arm was given, as typed. */
  flags: v.string(),
  fingerprint: v.pipe(v.string(), v.regex(/^[0-9a-f]{12}$/)),
});

/**
 * arms: jobs go to <arm>/<game>-r<k> (`prolong plan`); batch: one arm, jobs go to <game>-r<k> (the plan
 * `play --games … --runs …` writes into its own directory, so that `prolong resume <batch-dir>` runs it).
 */
export const PLAN_LAYOUTS = ["arms", "batch"] as const;
export type PlanLayout = (typeof PLAN_LAYOUTS)[number];

/** The file a batch's plan is kept in, in the batch's directory. */
export const BATCH_PLAN_FILE = "plan.json";

export const PlanSchema = v.object({
  format: v.literal(PLAN_FORMAT),
  /** Absent in plans made before batches were plans: arms. */
  layout: v.optional(v.picklist(PLAN_LAYOUTS)),
  /** The prolong that made the plan; run-plan refuses a plan from another version (its runs would differ). */
  prolong: v.string(),
  env: v.string(),
  /** Each game's version when the plan was made (null where the environment cannot tell before playing). */
  games: v.array(v.object({ id: v.string(), version: v.nullable(v.string()) })),
  runs: v.pipe(v.number(), v.integer(), v.minValue(1)),
  arms: v.pipe(v.array(ArmSchema), v.minLength(1)),
  jobs: v.pipe(v.array(JobSchema), v.minLength(1)),
});

export type Plan = v.InferOutput<typeof PlanSchema>;
export type Job = v.InferOutput<typeof JobSchema>;

export interface PlanArmInput {
  readonly name: string;
  readonly flags: string;
  readonly fields: Partial<RunConfigInput>;
}

export interface PlanInput {
  /** Default arms; a batch has exactly one arm. */
  readonly layout?: PlanLayout;
  readonly games: readonly { readonly id: string; readonly version: string | null }[];
  readonly runs: number;
  readonly arms: readonly PlanArmInput[];
  /** Settings common to every arm (--env, --arc-games, --seed as the first run's seed). */
  readonly common: Partial<RunConfigInput>;
}

/** A job's id: its content, so the same plan made twice has the same ids and any change gives new ones. */
export function jobId(content: {
  game: string;
  gameVersion: string | null;
  arm: string;
  fingerprint: string;
  seed: number;
  run: number;
}): string {
  const text = JSON.stringify([content.game, content.gameVersion, content.arm, content.fingerprint, content.seed, content.run]);
  return `j-${createHash("sha256").update(text, "utf8").digest("hex").slice(0, 12)}`;
}

/** A name safe as one path component: the arm's name with anything but letters, digits, '.', '_' and '-' as '-'. */
export function dirName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[-.]+/, "");
  return safe === "" ? "arm" : safe;
}

/** Where a job's run goes, relative to the plan's output directory. */
export function jobDir(layout: PlanLayout | undefined, arm: string, game: string, run: number): string {
  return layout === "batch" ? `${game}-r${run}` : `${dirName(arm)}/${game}-r${run}`;
}

/** The job matrix in a stable order: arm, then game, then run. Every config is checked now, not on the cluster. */
export function buildPlan(p: PlanInput): Result<Plan, ProlongError> {
  if (p.layout === "batch" && p.arms.length !== 1)
    return err(prolongError("bad-plan", "a batch has one arm", { fix: "make a plan with `prolong plan` for several arms" }));
  const names = new Set<string>();
  const dirs = new Set<string>();
  for (const a of p.arms) {
    if (names.has(a.name))
      return err(prolongError("bad-plan", `arm "${a.name}" is given twice`, { fix: "give each --arm a different NAME" }));
    names.add(a.name);
    if (dirs.has(dirName(a.name)))
      return err(
        prolongError("bad-plan", `arms "${a.name}" and another name share the directory name "${dirName(a.name)}"`, {
          fix: "use arm names that differ in letters or digits",
        }),
      );
    dirs.add(dirName(a.name));
  }
  const arms: Plan["arms"] = [];
  const jobs: Job[] = [];
  const baseSeed = typeof p.common.seed === "number" ? p.common.seed : 0;
  for (const a of p.arms) {
    let fingerprint: string | null = null;
    for (const g of p.games) {
      for (let k = 1; k <= p.runs; k++) {
        const seed = baseSeed + k - 1;
        const config = newConfig({ ...p.common, ...a.fields, arm: a.name, game: g.id, seed });
        if (config.isErr()) return err({ ...config.error, message: `arm "${a.name}": ${config.error.message}` });
        const arm = armOf(config.value);
        fingerprint ??= arm.fingerprint;
        const id = jobId({ game: g.id, gameVersion: g.version, arm: a.name, fingerprint: arm.fingerprint, seed, run: k });
        jobs.push({
          id,
          game: g.id,
          arm: a.name,
          run: k,
          seed,
          dir: jobDir(p.layout, a.name, g.id, k),
          config: { ...config.value, job: id },
        });
      }
    }
    arms.push({ name: a.name, flags: a.flags, fingerprint: fingerprint! });
  }
  return ok({
    format: PLAN_FORMAT,
    ...(p.layout === "batch" ? { layout: p.layout } : {}),
    prolong: VERSION,
    env: String(p.common.env ?? DEFAULTS.env),
    games: p.games.map((g) => ({ id: g.id, version: g.version })),
    runs: p.runs,
    arms,
    jobs,
  });
}

/** Reads and checks a plan file: its schema, and that this prolong made it. */
export function readPlan(path: string): Result<Plan, ProlongError> {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    return err(
      prolongError("bad-plan", `cannot read the plan: ${(e as Error).message}`, {
        path,
        fix: "make it with `prolong plan ... -o plan.json`",
      }),
    );
  }
  const format = (json as { format?: unknown } | null)?.format;
  if (format !== PLAN_FORMAT)
    return err(
      prolongError("bad-plan", `not a prolong plan (format ${JSON.stringify(format ?? null)}, expected "${PLAN_FORMAT}")`, {
        path,
        fix: "make it with `prolong plan ... -o plan.json`",
      }),
    );
  const parsed = v.safeParse(PlanSchema, json);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const field = issue.path?.map((x) => String(x.key)).join(".") ?? "(top level)";
    return err(
      prolongError("bad-plan", `field ${field}: ${issue.message}`, {
        path,
        fix: "the plan was edited or cut; make it again with `prolong plan`",
      }),
    );
  }
  const plan = parsed.output;
  if (plan.prolong !== VERSION) {
    return err(
      prolongError(
        "plan-version",
        `made by prolong ${plan.prolong}, this is prolong ${VERSION}: its runs would not be the runs it describes`,
        { path, fix: `run it with prolong ${plan.prolong}, or make the plan again with this prolong` },
      ),
    );
  }
  if (plan.layout === "batch" && plan.arms.length !== 1)
    return err(
      prolongError("bad-plan", `a batch's plan has ${plan.arms.length} arms, not one`, {
        path,
        fix: "the plan was edited; make it again with `prolong plan`",
      }),
    );
  const ids = new Set<string>();
  for (const j of plan.jobs) {
    if (ids.has(j.id))
      return err(
        prolongError("bad-plan", `job ${j.id} is listed twice`, {
          path,
          fix: "the plan was edited; make it again with `prolong plan`",
        }),
      );
    ids.add(j.id);
    const version = plan.games.find((g) => g.id === j.game)?.version ?? null;
    if (
      jobId({
        game: j.game,
        gameVersion: version,
        arm: j.arm,
        fingerprint: armOf(j.config).fingerprint,
        seed: j.seed,
        run: j.run,
      }) !== j.id
    ) {
      return err(
        prolongError("bad-plan", `job ${j.id}: its id does not match its content (settings or game version edited)`, {
          path,
          fix: "make the plan again with `prolong plan`",
        }),
      );
    }
    // The directory is where a worker writes: it must be the one the plan's rule gives, inside --out.
    const dir = jobDir(plan.layout, j.arm, j.game, j.run);
    if (j.dir !== dir) {
      return err(
        prolongError("bad-plan", `job ${j.id}: directory "${j.dir}" is not ${dir}`, {
          path,
          fix: "the plan was edited; make it again with `prolong plan`",
        }),
      );
    }
    if (j.config.job !== j.id || j.config.game !== j.game || j.config.seed !== j.seed || j.config.arm !== j.arm) {
      return err(
        prolongError("bad-plan", `job ${j.id}: its settings do not match its game, seed or arm`, {
          path,
          fix: "the plan was edited; make it again with `prolong plan`",
        }),
      );
    }
  }
  return ok(plan);
}

/** Settings equal as run.json holds them (key order aside). */
export function sameConfig(a: RunConfig, b: RunConfig): boolean {
  const canon = (c: RunConfig) =>
    JSON.stringify(
      Object.keys(c)
        .sort()
        .map((k) => [k, (c as Record<string, unknown>)[k]]),
    );
  return canon(a) === canon(b);
}
