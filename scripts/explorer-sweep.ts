// The explorer's per-game table: plays every given game once with the built-in explorer (through the real
// CLI, `prolong play --games ...`), then reads each run directory back for levels, actions, RHAE, the longest
// run of one action repeated in a row, and the explorer's decision times (agent-reply "ms" in events.jsonl).
// Usage: bun scripts/explorer-sweep.ts [--env arc-local|local] [--games a,b,c] [--max-actions 500] [--seed 0]
//        [--parallel 2] [--runs-dir DIR] [--json]
// For arc-local the games come from --arc-games or PROLONG_ARC_GAMES (see docs/arc.md); default: all of them.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import * as v from "valibot";
import { formatRhae } from "../src/score/rhae.ts";

const { values } = parseArgs({
  options: {
    env: { type: "string", default: "arc-local" },
    games: { type: "string" },
    "arc-games": { type: "string" },
    "max-actions": { type: "string", default: "500" },
    seed: { type: "string", default: "0" },
    parallel: { type: "string", default: "2" },
    "runs-dir": { type: "string", default: "runs/explorer-sweep" },
    json: { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  console.log(
    "bun scripts/explorer-sweep.ts [--env arc-local|local] [--games a,b,c] [--arc-games DIR] [--max-actions N] [--seed N] [--parallel P] [--runs-dir DIR] [--json]\n  plays each game once with the explorer and prints levels, actions, RHAE, longest repeat and decision times per game",
  );
  process.exit(0);
}

const root = resolve(import.meta.dir, "..");
const arcGames = values["arc-games"] ?? process.env.PROLONG_ARC_GAMES;
let games = values.games?.split(",").filter(Boolean);
if (!games) {
  if (values.env === "arc-local") {
    if (!arcGames || !existsSync(arcGames)) {
      console.error(
        "explorer-sweep: no ARC games directory; give --arc-games DIR or set PROLONG_ARC_GAMES (see docs/arc.md for fetching them)",
      );
      process.exit(2);
    }
    games = readdirSync(arcGames)
      .filter((d) => existsSync(join(arcGames, d)) && !d.startsWith("."))
      .sort();
  } else {
    games = ["glide", "lumen", "vault", "murk", "switchyard", "echo"];
  }
}
const runsDir = resolve(values["runs-dir"]);
const started = performance.now();
const args = [
  "bun",
  join(root, "src/main.ts"),
  "play",
  "--games",
  games.join(","),
  "--env",
  values.env!,
  "--max-actions",
  values["max-actions"]!,
  "--seed",
  values.seed!,
  "--parallel",
  values.parallel!,
  "--runs-dir",
  runsDir,
  "--quiet",
];
if (arcGames && values.env === "arc-local") args.push("--arc-games", arcGames);
const child = Bun.spawnSync(args, { stdout: "pipe", stderr: "inherit" });
const wallS = (performance.now() - started) / 1000;
const batch = readdirSync(runsDir).sort().at(-1);
if (!batch) {
  console.error(`explorer-sweep: no run directory appeared in ${runsDir} (play exited ${child.exitCode})`);
  process.exit(1);
}

const Card = v.looseObject({
  game_id: v.string(),
  levels_completed: v.number(),
  win_levels: v.number(),
  actions: v.number(),
  score: v.number(),
  end_reason: v.string(),
});
const Reply = v.looseObject({ kind: v.literal("agent-reply"), ms: v.number() });

interface Row {
  game: string;
  logMB: number;
  levels: number;
  winLevels: number;
  actions: number;
  rhae: number;
  end: string;
  longestRepeat: number;
  calls: number;
  medianMs: number;
  p99Ms: number;
  maxMs: number;
}

const rows: Row[] = [];
const allMs: number[] = [];
for (const game of games) {
  const dir = join(runsDir, batch, `${game}-r1`);
  const cardFile = join(dir, "scorecard.json");
  if (!existsSync(cardFile)) {
    console.error(`explorer-sweep: ${game}: no scorecard.json in ${dir} (the run failed; see its events.jsonl)`);
    continue;
  }
  const card = v.parse(Card, JSON.parse(readFileSync(cardFile, "utf8")));
  const ms: number[] = [];
  for (const line of readFileSync(join(dir, "events.jsonl"), "utf8").split("\n")) {
    if (!line.includes('"agent-reply"')) continue;
    const r = v.safeParse(Reply, JSON.parse(line));
    if (r.success) ms.push(r.output.ms);
  }
  allMs.push(...ms);
  ms.sort((a, b) => a - b);
  rows.push({
    game,
    logMB: statSync(join(dir, "logs.txt")).size / 1e6,
    levels: card.levels_completed,
    winLevels: card.win_levels,
    actions: card.actions,
    rhae: card.score,
    end: card.end_reason,
    longestRepeat: longestRepeat(readFileSync(join(dir, "logs.txt"), "utf8")),
    calls: ms.length,
    medianMs: quantile(ms, 0.5),
    p99Ms: quantile(ms, 0.99),
    maxMs: ms.at(-1) ?? 0,
  });
}
allMs.sort((a, b) => a - b);
const total = {
  games: rows.length,
  levels: rows.reduce((n, r) => n + r.levels, 0),
  winLevels: rows.reduce((n, r) => n + r.winLevels, 0),
  gamesWithLevel: rows.filter((r) => r.levels > 0).length,
  meanRhae: rows.reduce((n, r) => n + r.rhae, 0) / Math.max(1, rows.length),
  longestRepeat: Math.max(0, ...rows.map((r) => r.longestRepeat)),
  medianMs: quantile(allMs, 0.5),
  p99Ms: quantile(allMs, 0.99),
  wallS,
  runs: join(runsDir, batch),
};
if (values.json) {
  console.log(JSON.stringify({ rows, total }));
} else {
  console.log("| game | levels | actions | RHAE | end | longest repeat | log MB | decisions | median ms | p99 ms |");
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
  for (const r of rows) {
    console.log(
      `| ${r.game} | ${r.levels}/${r.winLevels} | ${r.actions} | ${formatRhae(r.rhae)} | ${r.end} | ${r.longestRepeat} | ${r.logMB.toFixed(1)} | ${r.calls} | ${r.medianMs.toFixed(1)} | ${r.p99Ms.toFixed(1)} |`,
    );
  }
  console.log(
    `| **all ${total.games}** | ${total.levels}/${total.winLevels} (≥1 level on ${total.gamesWithLevel}) | | ${formatRhae(total.meanRhae)} (mean) | | ${total.longestRepeat} | | ${allMs.length} | ${total.medianMs.toFixed(1)} | ${total.p99Ms.toFixed(1)} |`,
  );
  const largest = [...rows].sort((a, b) => b.logMB - a.logMB)[0];
  if (largest)
    console.log(
      `\nlargest log: ${largest.game} (${largest.logMB.toFixed(1)} MB): decision median ${largest.medianMs.toFixed(1)} ms, p99 ${largest.p99Ms.toFixed(1)} ms, max ${largest.maxMs.toFixed(1)} ms`,
    );
  console.log(`${total.runs}, ${wallS.toFixed(0)} s wall`);
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
