// An experiment plan as data: games × arms × runs, each job with a stable id derived from its content, its seed
// and its output directory, plus the prolong version and the game versions it was made for. A cluster's
// scheduler runs it in slices (`run-plan --shard i/n`); `score --plan` merges what comes back. The plan file is
// external input when read back: checked against its schema and its version.
import { createHash } from "node:crypto";
import { err, ok, type Result } from "neverthrow";
import * as v from "valibot";
import { prolongError, type ProlongError } from "../errors.ts";
import { armOf, settingText } from "../config/arm.ts";
import { FULL_WINDOW, windowText, type LogWindow } from "../config/log-window.ts";
import { FILE_CAPS, readRegularText } from "../safe-file.ts";
import { DEFAULTS, defaultsFor, newConfig, RunConfigSchema, type RunConfig, type RunConfigInput } from "../config/run-config.ts";
import { VERSION } from "../version.ts";

export const PLAN_FORMAT = "prolong-plan/1";

/**
 * The most jobs a plan may hold: far beyond a study (100 games x 10 arms x 50 runs), far below a plan file
 * that costs hundreds of megabytes to read (600,000 jobs made 389 MB).
 */
export const MAX_PLAN_JOBS = 50_000;

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
  jobs: v.pipe(v.array(JobSchema), v.minLength(1), v.maxLength(MAX_PLAN_JOBS, `a plan holds at most ${MAX_PLAN_JOBS} jobs`)),
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

/** A run's settings as one canonical text: every field, keys in order, the job's own id left out. */
function canonicalSettings(config: RunConfig): string {
  const { job: _job, ...rest } = config;
  return JSON.stringify(
    Object.keys(rest)
      .sort()
      .map((k) => [k, (rest as Record<string, unknown>)[k]]),
  );
}

/**
 * A job's id: its content — the game and its version, the arm, the run, the seed and EVERY setting the job
 * runs with (the sandbox, the variables passed in, the timeouts and retries as much as the arm's own) — so
 * the same plan made twice has the same ids and any edit gives new ones.
 */
export function jobId(content: {
  game: string;
  gameVersion: string | null;
  arm: string;
  config: RunConfig;
  seed: number;
  run: number;
}): string {
  const text = JSON.stringify([
    content.game,
    content.gameVersion,
    content.arm,
    canonicalSettings(content.config),
    content.seed,
    content.run,
  ]);
  return `j-${createHash("sha256").update(text, "utf8").digest("hex").slice(0, 12)}`;
}

/**
 * What a job will run, as the flags that give it: every setting that differs from its environment's default
 * (the game, seed, arm name and version aside), read from the job itself, never from the arm's recorded flags.
 * "(defaults)" only when the job really runs with the defaults.
 */
export function jobSettingsText(config: RunConfig): string {
  const defaults = defaultsFor(config.env) as Readonly<Record<string, unknown>>;
  const parts: string[] = [];
  for (const key of Object.keys(config).sort()) {
    if (key === "game" || key === "seed" || key === "arm" || key === "job" || key === "version") continue;
    const value = (config as Record<string, unknown>)[key];
    if (value === undefined) continue;
    const shown =
      key === "logWindow" ? windowText(value as LogWindow) : typeof value === "object" ? JSON.stringify(value) : value;
    const fallback = key === "logWindow" ? windowText(FULL_WINDOW) : defaults[key];
    if (shown === fallback) continue;
    parts.push(settingText(key, shown as string | number | boolean | null));
  }
  return parts.length === 0 ? "(defaults)" : parts.join(" ");
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
  const total = p.arms.length * p.games.length * p.runs;
  if (total > MAX_PLAN_JOBS)
    return err(
      prolongError(
        "plan-too-large",
        `${total} jobs (${p.arms.length} arm(s) x ${p.games.length} game(s) x ${p.runs} run(s)): a plan holds at most ${MAX_PLAN_JOBS}`,
        {
          fix: "split the experiment into several plans (fewer games or arms each)",
        },
      ),
    );
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
        const id = jobId({ game: g.id, gameVersion: g.version, arm: a.name, config: config.value, seed, run: k });
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
  const text = readRegularText(path, FILE_CAPS.plan, "the plan");
  // A plan is a file the user names (or a batch's plan.json): the run directory's own fix does not fit it.
  if (text.isErr())
    return err({
      ...text.error,
      code: "bad-plan",
      fix:
        text.error.code === "not-a-regular-file"
          ? "give the plan's own file (made by `prolong plan ... -o plan.json`; a batch's is DIR/plan.json)"
          : (text.error.fix ?? "make it with `prolong plan ... -o plan.json`"),
    });
  let json: unknown;
  try {
    json = JSON.parse(text.value);
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
    if (jobId({ game: j.game, gameVersion: version, arm: j.arm, config: j.config, seed: j.seed, run: j.run }) !== j.id) {
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
  // Anyone can make ids that match (the hash is public): what a plan claims about its arms is recomputed
  // from the jobs. Each arm's fingerprint is its jobs' own, and every job of an arm runs with the same
  // settings but its game and seed — one job cannot run something else under the arm's name.
  for (const a of plan.arms) {
    const mine = plan.jobs.filter((j) => j.arm === a.name);
    const first = mine[0];
    if (first === undefined) continue;
    const shared = (c: RunConfig) => canonicalSettings({ ...c, game: "", seed: 0 });
    for (const j of mine) {
      const fp = armOf(j.config).fingerprint;
      if (fp !== a.fingerprint)
        return err(
          prolongError("bad-plan", `arm "${a.name}" records fingerprint ${a.fingerprint}, but job ${j.id} runs as ${fp}`, {
            path,
            fix: "the plan was edited; make it again with `prolong plan`",
          }),
        );
      if (shared(j.config) !== shared(first.config))
        return err(
          prolongError(
            "bad-plan",
            `job ${j.id} of arm "${a.name}" runs with ${jobSettingsText(j.config)}, unlike job ${first.id} (${jobSettingsText(first.config)})`,
            {
              path,
              fix: "the plan was edited; make it again with `prolong plan`",
            },
          ),
        );
    }
  }
  for (const j of plan.jobs)
    if (!plan.arms.some((a) => a.name === j.arm))
      return err(
        prolongError("bad-plan", `job ${j.id} names arm "${j.arm}", which the plan does not list`, {
          path,
          fix: "the plan was edited; make it again with `prolong plan`",
        }),
      );
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
