// `prolong plan`: an experiment as data (games × arms × runs, stable job ids) for a cluster's scheduler;
// `prolong plan show plan.json [--estimate]`: the job table, and what the sweep will cost before it is spent.
import { jsonText, terminalLine } from "../terminal-text.ts";
import { formatError } from "../errors.ts";
import { writeFileReplacing } from "../safe-file.ts";
import { gamesOf } from "../plan/games.ts";
import { buildPlan, jobSettingsText, readPlan, type Plan, type PlanArmInput } from "../plan/plan.ts";
import { DEFAULTS, ENV_KINDS, fieldsFromFlags, KIND_PLACES, type RunConfigInput } from "../config/run-config.ts";
import { fieldsFromFlagValues, settingFlags } from "../setting/declaration.ts";
import { findRuns } from "../score/find-runs.ts";
import { flag, operandsFit, parseArgv, parseCommandArgs } from "./args.ts";
import { argumentProblem } from "./argument-problem.ts";
import type { Command } from "./command.ts";
import { playFlags } from "./play.ts";
import { envKind } from "../game/kinds.ts";

/** Where each kind's games lie on this machine (--arc-games): the plan's, since it names the games. */
const placeFlags = settingFlags(KIND_PLACES);
const placeHelp = Object.values(KIND_PLACES)
  .map((s) => `  --${s.flag!.name} ${s.help?.arg ?? "VALUE"}`.padEnd(22) + `${s.help?.text.split("\n")[0] ?? ""}`)
  .join("\n");

const usage = `usage: prolong plan --games all|a,b,c --runs K --arm NAME='<play flags>' [--arm ...] [--env E] [--seed N] -o plan.json
       prolong plan show plan.json [--estimate [--from RUN-DIR | --tokens-per-action N]] [--json]

Writes the experiment as data: every job (game × arm × run, in a stable order: arm, game, run), each with a
stable id derived from its content, its seed (run k plays seed + k − 1) and its output directory
<arm>/<game>-r<k>; the prolong version and each game's version. \`prolong run-plan\` runs it in slices on any
scheduler; \`prolong score DIR --plan plan.json\` merges what comes back.

  --games all|a,b,c   the games (all: every committed game, or every game under --arc-games)
  --runs K            runs per game and arm (default 1)
  --arm NAME='FLAGS'  an arm: its name and the play flags that make it; repeat for each arm, for example
                      full='' window25='--log-window 25' claude='--agent claude --model M'
                      (the games, runs, seed and env belong to the plan, not to an arm)
  --env KIND          where the games come from: ${ENV_KINDS.join(" | ")} (as for play)
${placeHelp}
  --seed N            the first run's seed (default 0)
  -o, --out FILE      where to write the plan (default: print it)

plan show:
  --estimate          agent calls and billed tokens the plan will cost: from a past run directory's
  --from DIR          measured calls and billed tokens per action, or from
  --tokens-per-action N   a given billed-tokens-per-action figure; without either, the bounds on calls
  --json              the plan (or the estimate) as JSON

exit status: 0 ok, 2 on bad options or a bad plan file.`;

const flags = {
  games: flag.text(),
  runs: flag.int(1, 100_000),
  arm: flag.list(),
  env: flag.choice(ENV_KINDS),
  ...placeFlags,
  seed: flag.int(0, 2 ** 32 - 1),
  out: flag.text({ short: "o" }),
  estimate: flag.bool(),
  from: flag.text(),
  "tokens-per-action": flag.num(0, 1e12),
  json: flag.bool(),
} as const;

/** Words of a flag string as a POSIX shell would split them (single and double quotes, backslash escapes). */
export function shellWords(text: string): string[] | string {
  const words: string[] = [];
  let word = "";
  let has = false;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === "\\" && i + 1 < text.length && '"\\$`'.includes(text[i + 1]!)) word += text[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      has = true;
    } else if (c === "\\" && i + 1 < text.length) {
      word += text[++i];
      has = true;
    } else if (/\s/.test(c)) {
      if (has || word) words.push(word);
      word = "";
      has = false;
    } else word += c;
  }
  if (quote) return `an unclosed ${quote} quote`;
  if (has || word) words.push(word);
  return words;
}

const PLAN_LEVEL = new Set([
  "games",
  "runs",
  "parallel",
  "run-dir",
  "runs-dir",
  "json",
  "quiet",
  "arm",
  "env",
  "seed",
  ...Object.keys(placeFlags),
]);

/** `NAME=FLAGS` → the arm's name and settings, through play's own flag table. */
export function parseArmSpec(spec: string): PlanArmInput | string {
  const eq = spec.indexOf("=");
  if (eq <= 0) return `--arm takes NAME='FLAGS' (e.g. --arm window25='--log-window 25'), got '${spec}'`;
  const name = spec.slice(0, eq).trim();
  const text = spec.slice(eq + 1);
  const words = shellWords(text);
  if (typeof words === "string") return `--arm ${name}: ${words}`;
  const parsed = parseArgv(words, playFlags, 0);
  if (parsed.isErr()) return `--arm ${name}: ${parsed.error}`;
  const given = Object.entries(parsed.value.values)
    .filter(([k, v]) => v !== undefined && v !== false && PLAN_LEVEL.has(k))
    .map(([k]) => `--${k}`);
  if (given.length > 0)
    return `--arm ${name}: ${given.join(", ")} belong${given.length === 1 ? "s" : ""} to the plan, not to an arm`;
  if (fieldsFromFlags(parsed.value.values).agent === "human") return `--arm ${name}: --agent human cannot run unattended`;
  return { name, flags: text.trim(), fields: fieldsFromFlags(parsed.value.values) };
}

function pad(cells: string[][]): string {
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  return cells
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

export interface Estimate {
  readonly jobs: number;
  /** Most actions of all jobs (each job's budget × episodes): runs that win stop earlier. */
  readonly maxActions: number;
  readonly agentCalls: { readonly low: number; readonly high: number; readonly expected: number | null };
  readonly billedTokens: number | null;
  /** Where the rates came from. */
  readonly basis: string;
}

/** The sweep's cost before it runs: bounds on agent calls, and billed tokens from a past run or a given rate. */
export function estimatePlan(
  plan: Plan,
  rate: { callsPerAction: number; tokensPerAction: number; basis: string } | null,
): Estimate {
  let actions = 0;
  let low = 0;
  for (const j of plan.jobs) {
    const a = j.config.maxActions * j.config.episodes;
    actions += a;
    low += Math.ceil(a / j.config.actionCap);
  }
  return {
    jobs: plan.jobs.length,
    maxActions: actions,
    agentCalls: { low, high: actions, expected: rate ? Math.round(actions * rate.callsPerAction) : null },
    billedTokens: rate ? Math.round(actions * rate.tokensPerAction) : null,
    basis: rate?.basis ?? "no rate: give --from RUN-DIR or --tokens-per-action N for tokens",
  };
}

/** Calls and billed tokens per action over the finished runs under `dir`. */
function measuredRate(dir: string): { callsPerAction: number; tokensPerAction: number; basis: string } | string {
  const found = findRuns([dir]);
  const actions = found.runs.reduce((n, r) => n + r.card.actions, 0);
  if (actions === 0)
    return `--from ${dir}: no finished run with actions there${found.skipped[0] ? ` (${found.skipped[0].reason})` : ""}`;
  const calls = found.runs.reduce((n, r) => n + r.card.agent_calls, 0);
  const billed = found.runs.reduce((n, r) => n + r.card.billed_tokens, 0);
  return {
    callsPerAction: calls / actions,
    tokensPerAction: billed / actions,
    basis: `measured over ${found.runs.length} run(s) under ${dir}: ${(calls / actions).toFixed(3)} calls and ${Math.round(billed / actions).toLocaleString("en-US")} billed tokens per action`,
  };
}

const int = (n: number) => n.toLocaleString("en-US");

async function show(
  file: string,
  o: { estimate: boolean; from: string | undefined; tpa: number | undefined; json: boolean },
): Promise<number> {
  const plan = readPlan(file);
  if (plan.isErr()) {
    console.error(formatError(plan.error));
    return 2;
  }
  const p = plan.value;
  if (o.estimate) {
    let rate: { callsPerAction: number; tokensPerAction: number; basis: string } | null = null;
    if (o.from !== undefined) {
      const r = measuredRate(o.from);
      if (typeof r === "string") {
        console.error(`prolong plan show: ${r}`);
        return 2;
      }
      rate = r;
    } else if (o.tpa !== undefined)
      rate = { callsPerAction: Number.NaN, tokensPerAction: o.tpa, basis: `given: ${int(o.tpa)} billed tokens per action` };
    const e = estimatePlan(p, rate);
    const fixed = {
      ...e,
      agentCalls: {
        ...e.agentCalls,
        expected: e.agentCalls.expected !== null && Number.isNaN(e.agentCalls.expected) ? null : e.agentCalls.expected,
      },
    };
    if (o.json) console.log(jsonText(fixed, null, 2));
    else {
      console.log(
        [
          `${int(e.jobs)} jobs, at most ${int(e.maxActions)} actions in all (runs that win stop earlier)`,
          `agent calls: between ${int(e.agentCalls.low)} (every call uses the whole action cap) and ${int(e.agentCalls.high)} (one action per call)${fixed.agentCalls.expected !== null ? `; expected ${int(fixed.agentCalls.expected)}` : ""}`,
          `billed tokens: ${e.billedTokens === null ? "unknown" : `up to ${int(e.billedTokens)}`} (${e.basis})`,
        ].join("\n"),
      );
    }
    return 0;
  }
  if (o.json) {
    console.log(jsonText(p, null, 2));
    return 0;
  }
  // Every string below is the plan file's: shown through the one terminal escaping.
  console.log(
    terminalLine(
      `plan ${file}: prolong ${p.prolong}, env ${p.env}, ${p.games.length} game(s), ${p.arms.length} arm(s), ${p.runs} run(s) each: ${p.jobs.length} jobs`,
    ),
  );
  // What each arm runs is read from its jobs (readPlan holds every job of an arm to one set of settings and
  // its fingerprint), never from the flags the file records: a plan cannot show "(defaults)" and run a --cmd.
  const runsWith = (arm: string) => {
    const job = p.jobs.find((j) => j.arm === arm);
    return job ? jobSettingsText(job.config) : "(no jobs)";
  };
  console.log(
    pad([
      ["arm", "fingerprint", "each job runs with"],
      ...p.arms.map((a) => [a.name, a.fingerprint, runsWith(a.name)].map(terminalLine)),
    ]),
  );
  console.log("");
  console.log(
    pad([
      ["job", "arm", "game", "run", "seed", "dir"],
      ...p.jobs.map((j) => [j.id, j.arm, j.game, String(j.run), String(j.seed), j.dir].map(terminalLine)),
    ]),
  );
  return 0;
}

const PLAN_FILE = { name: "<plan.json>", what: "the plan file to read" };

export const planCommand: Command = {
  name: "plan",
  summary: "an experiment plan for a cluster: games × arms × runs with stable job ids (plan show: the table, --estimate)",
  usage,
  flags,
  async run(args) {
    // A play flag given to the plan itself belongs to an arm: say where it goes instead of "unknown option".
    const misplaced = args.findIndex((a) => {
      const name = /^--([a-z][a-z0-9-]*)(=|$)/.exec(a)?.[1];
      return name !== undefined && !(name in flags) && name in playFlags;
    });
    if (misplaced >= 0) {
      const given = args[misplaced]!;
      const value = !given.includes("=") && args[misplaced + 1] !== undefined && !args[misplaced + 1]!.startsWith("--");
      const words = value ? `${given} ${args[misplaced + 1]}` : given;
      console.error(
        `prolong plan: ${given.split("=")[0]} is a play flag: it belongs to an arm\n  fix: put it in the arm's flags, e.g. --arm NAME='${words.replaceAll("'", "'\\''")}'`,
      );
      return 2;
    }
    const parsed = parseCommandArgs("plan", args, flags);
    if (!parsed) return 2;
    const o = parsed.values;
    const [first, ...rest] = parsed.positionals;
    if (first === "show") {
      if (!operandsFit("plan", rest, [PLAN_FILE], { form: "plan show" })) return 2;
      const misplaced = ["games", "runs", "env", "seed", "out", ...Object.keys(placeFlags)]
        .filter((k) => (o as Record<string, unknown>)[k] !== undefined)
        .concat(o.arm.length > 0 ? ["arm" as never] : []);
      if (misplaced.length > 0) {
        return argumentProblem(
          "plan",
          `${misplaced.map((k) => `--${k}`).join(", ")} make a plan; plan show only reads one`,
          `drop ${misplaced.length > 1 ? "them" : "it"} from plan show`,
        );
      }
      if ((o.from !== undefined || o["tokens-per-action"] !== undefined) && !o.estimate) {
        return argumentProblem("plan", "--from and --tokens-per-action go with --estimate", "add --estimate, or drop them");
      }
      return show(rest[0]!, { estimate: o.estimate, from: o.from, tpa: o["tokens-per-action"], json: o.json });
    }
    if (first !== undefined) {
      return argumentProblem(
        "plan",
        `unexpected argument '${first}' (the only subcommand is 'show')`,
        "games go in --games a,b,c; prolong plan show <plan.json> reads a plan",
      );
    }
    if (o.estimate || o.from !== undefined || o["tokens-per-action"] !== undefined) {
      return argumentProblem("plan", "--estimate reads a plan, it does not make one", "prolong plan show plan.json --estimate");
    }
    const env = o.env ?? DEFAULTS.env;
    const missing = [
      ...(o.games === undefined && envKind(env).soleGame === undefined ? ["--games (which games)"] : []),
      ...(o.arm.length === 0 ? ["--arm (at least one arm)"] : []),
    ];
    if (missing.length > 0)
      return argumentProblem(
        "plan",
        `missing ${missing.join(" and ")}`,
        "e.g. prolong plan --games all --runs 3 --arm full='' --arm window25='--log-window 25' -o plan.json",
      );
    const arms: PlanArmInput[] = [];
    for (const spec of o.arm) {
      const a = parseArmSpec(spec);
      if (typeof a === "string") {
        console.error(`prolong plan: ${a}`);
        return 2;
      }
      arms.push(a);
    }
    const common: Partial<RunConfigInput> = {
      env,
      ...fieldsFromFlagValues(KIND_PLACES, o),
      ...(o.seed !== undefined ? { seed: o.seed } : {}),
    };
    const games = await gamesOf(o.games, common);
    if (typeof games === "string") {
      console.error(`prolong plan: ${games}`);
      return 2;
    }
    const plan = buildPlan({ games, runs: o.runs ?? 1, arms, common });
    if (plan.isErr()) {
      console.error(formatError(plan.error));
      return 2;
    }
    const text = JSON.stringify(plan.value, null, 2) + "\n";
    if (o.out === undefined) process.stdout.write(text);
    else {
      const wrote = writeFileReplacing(o.out, text);
      if (wrote.isErr()) {
        console.error(formatError(wrote.error));
        return 2;
      }
      console.error(
        `wrote ${o.out}: ${plan.value.jobs.length} jobs (${plan.value.arms.length} arm(s) × ${games.length} game(s) × ${plan.value.runs} run(s)); \`prolong plan show ${o.out}\` lists them`,
      );
    }
    return 0;
  },
};
