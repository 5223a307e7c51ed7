// The explorer beside random play, per game: plays every given game with each agent (default the built-in
// explorer and `--agent random`) at each seed, through the real CLI (`prolong play --games ...`, one batch per
// agent and seed), then reads each run directory back: levels, actions, RHAE, how the run ended, the longest
// run of one action repeated, and the explorer's decision times (agent-reply "ms" in events.jsonl). Prints,
// per game, each agent's levels per seed and the ratio of the totals, then a line per set of games (the local
// tuning set, the local check set never tuned on, ARC's public games) saying whether the explorer clears at
// least twice random's levels and no fewer on any game. `--doc FILE` also writes the tables into FILE between
// the markers `<!-- sweep:<env>:begin -->` and `<!-- sweep:<env>:end -->`, with the command that made them.
// Usage: bun scripts/explorer-sweep.ts [--env arc-local|local] [--games a,b,c] [--agents explorer,random]
//        [--seeds 0,1] [--max-actions 500] [--parallel 2] [--runs-dir DIR] [--doc FILE] [--json]
// For arc-local the games come from --arc-games or PROLONG_ARC_GAMES (see docs/arc.md); default: all of them.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import * as v from "valibot";
import { formatRhae } from "../src/score/rhae.ts";

/**
 * The committed games the explorer's rules were written and tuned on. Every other committed game is the check
 * set: written to test the rules on mechanics they were not tuned on (pushing, sorting, counting, timing, undo),
 * and never tuned on — a rule is kept only when the check set does not get worse.
 */
const TUNING_SET = ["glide", "lumen", "vault", "murk", "switchyard", "echo"];

const { values } = parseArgs({
  options: {
    env: { type: "string", default: "arc-local" },
    games: { type: "string" },
    agents: { type: "string", default: "explorer,random" },
    "arc-games": { type: "string" },
    "max-actions": { type: "string", default: "500" },
    seeds: { type: "string", default: "0" },
    seed: { type: "string" },
    parallel: { type: "string", default: "2" },
    "runs-dir": { type: "string", default: "runs/explorer-sweep" },
    doc: { type: "string" },
    pin: { type: "string" },
    json: { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  console.log(
    `bun scripts/explorer-sweep.ts [--env arc-local|local] [--games a,b,c] [--agents explorer,random] [--seeds 0,1]
    [--arc-games DIR] [--max-actions N] [--parallel P] [--runs-dir DIR] [--doc FILE] [--json]
  plays each game with each agent at each seed and prints, per game, every agent's levels beside the
  explorer's, the ratio, and per set of games whether the explorer clears at least twice random's levels and
  no fewer on any game; then the explorer's detail (actions, RHAE, end, longest repeat, decision times).
  --doc FILE rewrites the block between <!-- sweep:ENV:begin --> and <!-- sweep:ENV:end --> in FILE.
  --pin FILE writes each run's levels and the actions spent on them, for the pinned-results test.`,
  );
  process.exit(0);
}

const root = resolve(import.meta.dir, "..");
const env = values.env!;
const arcGames = values["arc-games"] ?? process.env.PROLONG_ARC_GAMES;
const agents = values.agents!.split(",").filter(Boolean);
const seeds = (values.seed ?? values.seeds!).split(",").map(Number);
if (seeds.some((s) => !Number.isInteger(s))) fail("--seeds takes whole numbers separated by commas, e.g. 0,1");
let games = values.games?.split(",").filter(Boolean);
if (!games) {
  if (env === "arc-local") {
    if (!arcGames || !existsSync(arcGames))
      fail("no ARC games directory; give --arc-games DIR or set PROLONG_ARC_GAMES (see docs/arc.md for fetching them)");
    games = readdirSync(arcGames)
      .filter((d) => existsSync(join(arcGames, d)) && !d.startsWith("."))
      .sort();
  } else games = committedGames();
}
const runsDir = resolve(values["runs-dir"]!);

const Card = v.looseObject({
  game_id: v.string(),
  levels_completed: v.number(),
  win_levels: v.number(),
  actions: v.number(),
  score: v.number(),
  end_reason: v.string(),
  level_actions: v.optional(v.array(v.number())),
});
const Reply = v.looseObject({ kind: v.literal("agent-reply"), ms: v.number() });

interface Run {
  game: string;
  agent: string;
  seed: number;
  logMB: number;
  levels: number;
  winLevels: number;
  actions: number;
  rhae: number;
  end: string;
  longestRepeat: number;
  /** Actions spent on the levels cleared. */
  clearedActions: number;
  ms: number[];
}

const started = performance.now();
const runs: Run[] = [];
for (const agent of agents) for (const seed of seeds) runs.push(...playBatch(agent, seed));
const wallS = (performance.now() - started) / 1000;

const setOf = (game: string) => (env !== "local" ? "public" : TUNING_SET.includes(game) ? "tuning" : "check");
const levelsOf = (game: string, agent: string) =>
  runs.filter((r) => r.game === game && r.agent === agent).reduce((n, r) => n + r.levels, 0);
const base = agents.find((a) => a !== "explorer");

interface Verdict {
  set: string;
  games: number;
  explorer: number;
  other: number;
  winLevels: number;
  twice: boolean;
  below: string[];
}
const sets = [...new Set(games.map(setOf))];
const verdicts: Verdict[] = sets.map((set) => {
  const inSet = games!.filter((g) => setOf(g) === set);
  const explorer = inSet.reduce((n, g) => n + levelsOf(g, "explorer"), 0);
  const other = base ? inSet.reduce((n, g) => n + levelsOf(g, base), 0) : 0;
  const winLevels = runs.filter((r) => inSet.includes(r.game) && r.agent === "explorer").reduce((n, r) => n + r.winLevels, 0);
  return {
    set,
    games: inSet.length,
    explorer,
    other,
    winLevels,
    twice: explorer >= 2 * other,
    below: base ? inSet.filter((g) => levelsOf(g, "explorer") < levelsOf(g, base)) : [],
  };
});

const command = [
  "bun scripts/explorer-sweep.ts",
  `--env ${env}`,
  ...(values.games ? [`--games ${values.games}`] : []),
  `--agents ${agents.join(",")}`,
  `--seeds ${seeds.join(",")}`,
  `--max-actions ${values["max-actions"]}`,
].join(" ");

if (values.json) {
  console.log(JSON.stringify({ runs: runs.map(({ ms, ...r }) => ({ ...r, decisions: ms.length })), verdicts, wallS, command }));
} else {
  const text = tables();
  console.log(text);
  console.log(`\n${runsDir}, ${wallS.toFixed(0)} s wall`);
  if (values.doc) writeDoc(values.doc, text);
  if (values.pin) writePins(values.pin);
}

function tables(): string {
  const out: string[] = [];
  const seedCols = (agent: string) => seeds.map((s) => `${agent} (seed ${s})`);
  out.push(`| game | set | ${agents.flatMap(seedCols).join(" | ")} | ${base ? `explorer ÷ ${base} |` : ""}`);
  out.push(
    `| --- | --- | ${agents
      .flatMap(seedCols)
      .map(() => "---")
      .join(" | ")} |${base ? " --- |" : ""}`,
  );
  for (const game of games!) {
    const cells = agents.flatMap((agent) =>
      seeds.map((seed) => {
        const r = runs.find((x) => x.game === game && x.agent === agent && x.seed === seed);
        return r ? `${r.levels}/${r.winLevels}` : "failed";
      }),
    );
    out.push(
      `| ${game} | ${setOf(game)} | ${cells.join(" | ")} |${base ? ` ${ratio(levelsOf(game, "explorer"), levelsOf(game, base))} |` : ""}`,
    );
  }
  if (base) {
    out.push("");
    for (const v of verdicts)
      out.push(
        `- ${v.set} set (${v.games} games, ${seeds.length} seed${seeds.length === 1 ? "" : "s"}): explorer ${v.explorer}, ${base} ${v.other} of ${v.winLevels} levels (${ratio(v.explorer, v.other)}); at least twice ${base}'s: ${v.twice ? "yes" : "**no**"}; games where it clears fewer: ${v.below.length === 0 ? "none" : `**${v.below.join(", ")}**`}`,
      );
  }
  const explorerRuns = runs.filter((r) => r.agent === "explorer");
  if (explorerRuns.length > 0) {
    out.push("");
    out.push("| game | seed | levels | actions | RHAE | end | longest repeat | log MB | decisions | median ms | p99 ms |");
    out.push("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for (const r of explorerRuns) {
      const ms = [...r.ms].sort((a, b) => a - b);
      out.push(
        `| ${r.game} | ${r.seed} | ${r.levels}/${r.winLevels} | ${r.actions} | ${formatRhae(r.rhae)} | ${r.end} | ${r.longestRepeat} | ${r.logMB.toFixed(1)} | ${ms.length} | ${quantile(ms, 0.5).toFixed(1)} | ${quantile(ms, 0.99).toFixed(1)} |`,
      );
    }
    const all = explorerRuns.flatMap((r) => r.ms).sort((a, b) => a - b);
    const stopped = explorerRuns.filter((r) => r.end === "agent-stopped").map((r) => `${r.game} (seed ${r.seed})`);
    out.push("");
    out.push(
      `Explorer decisions: ${all.length}, median ${quantile(all, 0.5).toFixed(1)} ms, p99 ${quantile(all, 0.99).toFixed(1)} ms; runs it stopped itself: ${stopped.length === 0 ? "none" : stopped.join(", ")}.`,
    );
  }
  out.push(`\nGenerated by \`${command}\`.`);
  return out.join("\n");
}

function writeDoc(file: string, text: string): void {
  const begin = `<!-- sweep:${env}:begin -->`;
  const end = `<!-- sweep:${env}:end -->`;
  const doc = readFileSync(file, "utf8");
  const a = doc.indexOf(begin);
  const b = doc.indexOf(end);
  if (a < 0 || b < a) fail(`${file} has no ${begin} … ${end} block to rewrite; add the two markers where the table goes`);
  writeFileSync(file, `${doc.slice(0, a + begin.length)}\n${text}\n${doc.slice(b)}`);
  console.log(`wrote the tables into ${file}`);
}

/** The pinned-results tests' figures (test/agent/explorer/pinned-play.ts): per agent, seed and game. */
function writePins(file: string): void {
  const agentsOut: Record<string, Record<string, Record<string, { levels: number; clearedActions: number }>>> = {};
  for (const r of runs) {
    const bySeed = (agentsOut[r.agent] ??= {});
    const byGame = (bySeed[String(r.seed)] ??= {});
    byGame[r.game] = { levels: r.levels, clearedActions: r.clearedActions };
  }
  writeFileSync(file, `${JSON.stringify({ maxActions: Number(values["max-actions"]), seeds, agents: agentsOut }, null, 2)}\n`);
  console.log(`wrote the pinned results into ${file}`);
}

function ratio(a: number, b: number): string {
  if (b === 0) return a === 0 ? "—" : "∞";
  return `${(a / b).toFixed(2)}x`;
}

/** One `prolong play --games` batch for an agent and seed; its runs read back. */
function playBatch(agent: string, seed: number): Run[] {
  const dir = join(runsDir, `${agent}-s${seed}`);
  const args = [
    "bun",
    join(root, "src/main.ts"),
    "play",
    "--games",
    games!.join(","),
    "--env",
    env,
    "--agent",
    agent,
    "--max-actions",
    values["max-actions"]!,
    "--seed",
    String(seed),
    "--parallel",
    values.parallel!,
    "--runs-dir",
    dir,
    "--quiet",
  ];
  if (arcGames && env === "arc-local") args.push("--arc-games", arcGames);
  const child = Bun.spawnSync(args, { stdout: "pipe", stderr: "inherit" });
  const batch = existsSync(dir) ? readdirSync(dir).sort().at(-1) : undefined;
  if (!batch) fail(`no run directory appeared in ${dir} (play exited ${child.exitCode})`);
  const out: Run[] = [];
  for (const game of games!) {
    const run = join(dir, batch, `${game}-r1`);
    const cardFile = join(run, "scorecard.json");
    if (!existsSync(cardFile)) {
      console.error(
        `explorer-sweep: ${game} (${agent}, seed ${seed}): no scorecard.json in ${run} (the run failed; see its events.jsonl)`,
      );
      continue;
    }
    const card = v.parse(Card, JSON.parse(readFileSync(cardFile, "utf8")));
    const ms: number[] = [];
    for (const line of readFileSync(join(run, "events.jsonl"), "utf8").split("\n")) {
      if (!line.includes('"agent-reply"')) continue;
      const r = v.safeParse(Reply, JSON.parse(line));
      if (r.success) ms.push(r.output.ms);
    }
    const log = readFileSync(join(run, "logs.txt"), "utf8");
    out.push({
      game,
      agent,
      seed,
      logMB: statSync(join(run, "logs.txt")).size / 1e6,
      levels: card.levels_completed,
      winLevels: card.win_levels,
      actions: card.actions,
      rhae: card.score,
      end: card.end_reason,
      longestRepeat: longestRepeat(log),
      clearedActions: (card.level_actions ?? []).slice(0, card.levels_completed).reduce((n, a) => n + a, 0),
      ms,
    });
  }
  return out;
}

/** The committed games' ids, from data/games. */
function committedGames(): string[] {
  const dir = join(root, "data/games");
  const ids = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => f.slice(0, -5));
  return [...TUNING_SET.filter((g) => ids.includes(g)), ...ids.filter((g) => !TUNING_SET.includes(g)).sort()];
}

/** The longest run of one Tool Call repeated in consecutive sections. */
function longestRepeat(log: string): number {
  let best = 0;
  let run = 0;
  let last = "";
  for (const m of log.matchAll(/^Tool Call: (.*)$/gm)) {
    run = m[1] === last ? run + 1 : 1;
    last = m[1]!;
    if (run > best) best = run;
  }
  return best;
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function fail(message: string): never {
  console.error(`explorer-sweep: ${message}`);
  process.exit(2);
}
