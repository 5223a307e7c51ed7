// Engine speed: median and p99 microseconds per step over many random steps of every committed game.
// Target: median ≤ 50 µs, so exploring agents are never bound by the engine. `bun scripts/bench-engine.ts [steps]`
import { catalog } from "../src/game/catalog.ts";
import type { Action } from "../src/game-model.ts";

const steps = Number(process.argv[2] ?? 20000);
const rows: { game: string; median: number; p99: number; frames: number }[] = [];
for (const entry of catalog()) {
  const game = entry.create(1);
  game.reset();
  let x = 2463534242;
  const times: number[] = [];
  let frames = 0;
  for (let i = 0; i < steps; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const r = x >>> 0;
    const offered = game.info.availableActions;
    const id = offered[r % offered.length]!;
    const action: Action = id === 6 ? { id, x: (r >>> 8) % 64, y: (r >>> 16) % 64 } : ({ id } as Action);
    const t0 = Bun.nanoseconds();
    const f = game.step(action);
    times.push((Bun.nanoseconds() - t0) / 1000);
    frames += f.frames.length;
    if (f.state !== "NOT_FINISHED") game.reset();
  }
  times.sort((a, b) => a - b);
  rows.push({
    game: entry.info.id,
    median: times[Math.floor(times.length / 2)]!,
    p99: times[Math.floor(times.length * 0.99)]!,
    frames: frames / steps,
  });
}
console.log(`engine step time, ${steps} random steps per game (target: median ≤ 50 µs)`);
for (const r of rows)
  console.log(
    `${r.game.padEnd(12)} median ${r.median.toFixed(1).padStart(6)} µs   p99 ${r.p99.toFixed(1).padStart(7)} µs   ${r.frames.toFixed(2)} frames/step`,
  );
const worst = Math.max(...rows.map((r) => r.median));
console.log(`worst median ${worst.toFixed(1)} µs: ${worst <= 50 ? "ok" : "OVER TARGET"}`);
