// Benchmark: the time of ONE cold explorer decision (read the whole logs.txt, fold it, plan, write
// actions.json: what a resumed run's first turn costs; later turns fold only new sections) on logs of about 100K lines. Target: <= 50 ms. Two inputs, because the cost depends on
// what the log holds: a synthetic log (every board new: the graph is wide and shallow) and a log the
// explorer itself wrote on a committed game (many revisits: the search walks a real graph).
// Usage: bun scripts/bench-explorer.ts [--lines 100000] [--repeat 15] [--game lumen] [--json]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { explorerTurn } from "../src/agent/explorer/explorer.ts";
import { forgetKnowledge } from "../src/agent/explorer/knowledge.ts";
import { createGame } from "../src/game/catalog.ts";
import { newConfig } from "../src/config/run-config.ts";
import { finishRun } from "../src/run/finish.ts";
import { runLoop } from "../src/run/runner.ts";
import { startRun } from "../src/run/start.ts";
import { generateLog } from "../src/bench/gen-log.ts";

const { values } = parseArgs({
  options: {
    lines: { type: "string", default: "100000" },
    repeat: { type: "string", default: "15" },
    game: { type: "string", default: "lumen" },
    json: { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  console.log(
    "bun scripts/bench-explorer.ts [--lines N] [--repeat K] [--game ID] [--json]\n  times one explorer decision on ~N-line logs (median of K)",
  );
  process.exit(0);
}
const lines = Number(values.lines);
const repeat = Number(values.repeat);

interface Row {
  input: string;
  lines: number;
  bytes: number;
  sections: number;
  medianMs: number;
  minMs: number;
  maxMs: number;
}

async function time(name: string, log: string, available: (0 | 1 | 2 | 3 | 4 | 5 | 6 | 7)[]): Promise<Row> {
  const ws = mkdtempSync(join(tmpdir(), "bench-explorer-"));
  try {
    writeFileSync(join(ws, "logs.txt"), log);
    const ms: number[] = [];
    for (let i = 0; i < repeat + 2; i++) {
      forgetKnowledge(); // a cold decision: the whole log folded, as after a resume (a turn folds only new sections)
      const t = performance.now();
      const r = await explorerTurn({
        workspace: ws,
        prompt: "",
        turn: i + 1,
        availableActions: available,
        actionCap: 20,
        seed: 1,
      });
      if (r.isErr()) throw new Error(r.error.message);
      if (i >= 2) ms.push(performance.now() - t); // two warm-up decisions (JIT)
    }
    ms.sort((a, b) => a - b);
    return {
      input: name,
      lines: log.split("\n").length,
      bytes: Buffer.byteLength(log),
      sections: log.split("\n" + "=".repeat(80) + "\n").length,
      medianMs: ms[Math.floor(ms.length / 2)]!,
      minMs: ms[0]!,
      maxMs: ms[ms.length - 1]!,
    };
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
}

const rows: Row[] = [];
rows.push(await time(`gen-log ${lines} lines`, generateLog({ lines }), [1, 2, 3, 4, 5, 6]));
// ~66 lines per one-frame section: play enough actions to reach the same size.
const game = createGame(values.game!, { seed: 0 });
if (game.isErr()) throw new Error(game.error.message);
rows.push(
  await time(`explorer on ${values.game}`, cutAtLines(await explorerLog(values.game!, Math.ceil(lines / 66)), lines), [
    ...game.value.info.availableActions,
  ]),
);

/** The master log of a real run of the explorer on a committed game. */
async function explorerLog(gameId: string, maxActions: number): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), "bench-explorer-runs-"));
  try {
    const config = newConfig({ game: gameId, maxActions });
    if (config.isErr()) throw new Error(config.error.message);
    const s = await startRun(config.value, { runsRoot: root, stamp: "bench" });
    if (s.isErr()) throw new Error(s.error.message);
    await finishRun(s.value, await runLoop(s.value, new AbortController().signal));
    return readFileSync(s.value.paths.log, "utf8");
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The log up to the first section boundary at or after `n` lines (animation frames make sections long). */
function cutAtLines(log: string, n: number): string {
  let at = 0;
  for (let i = 0; i < n && at >= 0; i++) at = log.indexOf("\n", at + 1);
  if (at < 0) return log;
  const next = log.indexOf("\n" + "=".repeat(80) + "\n", at);
  return next < 0 ? log : log.slice(0, next + 1);
}

if (values.json) console.log(JSON.stringify(rows, null, 2));
else {
  console.log("input | lines | MB | sections | median ms | min | max");
  for (const r of rows)
    console.log(
      `${r.input} | ${r.lines} | ${(r.bytes / 1e6).toFixed(1)} | ${r.sections} | ${r.medianMs.toFixed(1)} | ${r.minMs.toFixed(1)} | ${r.maxMs.toFixed(1)}`,
    );
  console.log(`target: one decision <= 50 ms at 100K lines`);
}
