// Benchmark: `prolong score` over 1,000 run directories (target ≤ 2 s, whole process). Writes synthetic
// finished runs — run.json, a logs.txt of two sections (the initial board and the last action, whose header
// backs the scorecard as score's evidence check reads it) and a scorecard.json built by the real builder — for
// 25 games × 40 runs under a temp directory, then times the command end to end (5 runs: CPU, wall, peak memory)
// and its parts in process.
//   bun scripts/bench-score.ts [--runs 1000] [--keep]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { newConfig } from "../src/config/run-config.ts";
import { writeLog } from "../src/log/format.ts";
import { findRuns } from "../src/score/find-runs.ts";
import { groupArms } from "../src/score/arms.ts";
import { armReport } from "../src/score/report.ts";
import { buildScorecard } from "../src/score/scorecard.ts";
import { seededRandom } from "../src/score/stats.ts";

const { values } = parseArgs({ options: { runs: { type: "string" }, keep: { type: "boolean" } } });
const total = Number(values.runs ?? 1000);
const games = 25;
const root = mkdtempSync(join(tmpdir(), "prolong-bench-score-"));
const random = seededRandom(7);

for (let i = 0; i < total; i++) {
  const game = `g${String(i % games).padStart(2, "0")}`;
  const dir = join(root, "2026-01-01T00-00-00", `${game}-r${Math.floor(i / games) + 1}`);
  mkdirSync(join(dir, "workspace"), { recursive: true });
  const config = newConfig({ game, seed: i, logWindow: i % 2 === 0 ? null : 0 })._unsafeUnwrap();
  const levels = 8;
  const baselines = Array.from({ length: levels }, () => 10 + Math.floor(random() * 60));
  const done = Math.floor(random() * (levels + 1));
  const levelActions = baselines.map((b, l) => (l <= done ? Math.floor(b * (1 + 3 * random())) : 0));
  const card = buildScorecard({
    run: `2026-01-01T00-00-00/${game}`,
    config,
    end: { reason: "max-actions", detail: "spent the budget" },
    baselines,
    winLevels: levels,
    episodes: [
      { episode: 1, levels: done, state: "NOT_FINISHED", actions: levelActions.reduce((a, b) => a + b, 0), levelActions },
    ],
    actions: levelActions.reduce((a, b) => a + b, 0),
    agentCalls: 50,
    tokens: { input: 1_000_000, cached: 800_000, output: 20_000 },
    tamperEvents: 0,
    wallMs: 60_000,
  });
  writeFileSync(join(dir, "run.json"), JSON.stringify(config, null, 2));
  writeFileSync(join(dir, "logs.txt"), benchLog(card.actions, levelActions, done));
  writeFileSync(join(dir, "scorecard.json"), JSON.stringify(card, null, 2));
}

/** The initial section and the last action's: a 64x64 board each, the header as the run would end. */
function benchLog(actions: number, levelActions: readonly number[], done: number): string {
  const board = { width: 64, height: 64, cells: new Uint8Array(64 * 64) };
  const level = levelActions.findLastIndex((n) => n > 0) + 1;
  return writeLog(
    [
      { header: { action: 0, level: 1, attempt: 1, score: 0, kind: "initial" }, frames: [], board },
      { header: { action: actions, level, attempt: 1, score: done, kind: "action" }, frames: [], board },
    ],
    "ascii",
  );
}

const main = resolve(import.meta.dir, "../src/main.ts");
// Wall time on a shared machine says more about the load than the command, so each run's CPU time (user + system,
// the kernel's accounting of the child) and peak memory are kept too; the medians are what to quote.
const runs: { wall: number; cpu: number; peakMiB: number }[] = [];
for (let i = 0; i < 5; i++) {
  const t0 = performance.now();
  const r = Bun.spawnSync([process.execPath, main, "score", root, "--json"]);
  const wall = performance.now() - t0;
  if (r.exitCode !== 0) throw new Error(`prolong score failed: ${r.stderr.toString()}`);
  const out = JSON.parse(r.stdout.toString()) as { arms: { overall: { runs: number } }[] };
  const scored = out.arms.reduce((n, a) => n + a.overall.runs, 0);
  if (scored !== total) throw new Error(`scored ${scored} of ${total} runs`);
  const usage = r.resourceUsage;
  runs.push({
    wall,
    cpu: usage ? Number(usage.cpuTime.total) / 1000 : Number.NaN,
    peakMiB: usage ? usage.maxRSS / 2 ** 20 : Number.NaN,
  });
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const t1 = performance.now();
const found = findRuns([root]);
const t2 = performance.now();
const arms = groupArms(found.runs)
  ._unsafeUnwrap()
  .map((r) => armReport(r, {}));
const t3 = performance.now();

const cpu = median(runs.map((r) => r.cpu));
console.log(
  `prolong score over ${total} run directories (${games} games, ${arms.length} arms, 10,000 bootstrap resamples per CI):`,
);
console.log(
  `  whole command (process start included), medians of 5: CPU ${(cpu / 1000).toFixed(2)} s (target ≤ 2 s: ${cpu <= 2000 ? "met" : "MISSED"}), ` +
    `wall ${(median(runs.map((r) => r.wall)) / 1000).toFixed(2)} s, peak ${median(runs.map((r) => r.peakMiB)).toFixed(1)} MiB`,
);
console.log(`  in process: find + read + validate ${(t2 - t1).toFixed(0)} ms, statistics ${(t3 - t2).toFixed(0)} ms`);
if (values.keep) console.log(`  run directories kept in ${root}`);
else rmSync(root, { recursive: true, force: true });
