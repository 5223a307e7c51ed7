// The explorer's and random play's results on the committed games, pinned: each committed game is played at
// the seeds and budget of pinned-results.json, through the real CLI, and the test fails when a run clears
// fewer levels than pinned, or spends more than ACTION_MARGIN more actions on the levels it cleared.
// pinned-results.json is written by `bun scripts/explorer-sweep.ts --env local --seeds 0,1 --pin
// test/agent/explorer/pinned-results.json` (docs/explorer.md, "Pinned results"); re-pin after a change that
// is meant to move them, and say why in the commit.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import * as v from "valibot";
import { catalog } from "../../../src/game/catalog.ts";

/**
 * Actions a run may spend on the levels it cleared beyond the pinned count: 10%, and at least 5. Every run is
 * deterministic (the seed decides every tie), so any change is a change of the code; the margin lets a change
 * elsewhere cost a few actions without a re-pin, and catches one that costs a level's worth.
 */
const ACTION_MARGIN = { share: 0.1, least: 5 };

const Pin = v.object({ levels: v.number(), clearedActions: v.number() });
const Pins = v.object({
  maxActions: v.number(),
  seeds: v.array(v.number()),
  agents: v.record(v.string(), v.record(v.string(), v.record(v.string(), Pin))),
});
const root = resolve(import.meta.dir, "../../..");
const pins = v.parse(Pins, JSON.parse(readFileSync(join(import.meta.dir, "pinned-results.json"), "utf8")));

const Card = v.looseObject({ levels_completed: v.number(), level_actions: v.optional(v.array(v.number())) });

/** Every (agent, seed) batch of the committed games, played at once (the batches run side by side). */
async function playAll(): Promise<Map<string, { levels: number; clearedActions: number }>> {
  const games = catalog().map((e) => e.info.id);
  const out = new Map<string, { levels: number; clearedActions: number }>();
  const batches = Object.keys(pins.agents).flatMap((agent) => pins.seeds.map((seed) => ({ agent, seed })));
  await Promise.all(
    batches.map(async ({ agent, seed }) => {
      const dir = mkdtempSync(join(tmpdir(), `pinned-${agent}-${seed}-`));
      const child = Bun.spawn(
        [
          process.execPath,
          join(root, "src/main.ts"),
          "play",
          "--games",
          games.join(","),
          "--agent",
          agent,
          "--seed",
          String(seed),
          "--max-actions",
          String(pins.maxActions),
          "--runs-dir",
          dir,
          "--quiet",
        ],
        { stdout: "pipe", stderr: "pipe" },
      );
      await child.exited;
      const batch = readdirSync(dir)[0];
      if (batch === undefined) throw new Error(`no batch in ${dir}: ${await new Response(child.stderr).text()}`);
      for (const game of games) {
        const card = join(dir, batch, `${game}-r1`, "scorecard.json");
        if (!existsSync(card)) continue;
        const c = v.parse(Card, JSON.parse(readFileSync(card, "utf8")));
        const cleared = (c.level_actions ?? []).slice(0, c.levels_completed).reduce((n, a) => n + a, 0);
        out.set(`${agent}/${seed}/${game}`, { levels: c.levels_completed, clearedActions: cleared });
      }
    }),
  );
  return out;
}

describe("pinned results on the committed games", () => {
  test("every committed game is pinned, for every agent and seed", () => {
    for (const agent of Object.keys(pins.agents))
      for (const seed of pins.seeds)
        for (const e of catalog())
          expect(pins.agents[agent]?.[String(seed)]?.[e.info.id], `${agent} seed ${seed} ${e.info.id}`).toBeDefined();
  });

  test("no run clears fewer levels or spends more actions on them than pinned (beyond the margin)", async () => {
    const got = await playAll();
    const problems: string[] = [];
    for (const [agent, bySeed] of Object.entries(pins.agents)) {
      for (const [seed, byGame] of Object.entries(bySeed)) {
        for (const [game, pin] of Object.entries(byGame)) {
          const run = got.get(`${agent}/${seed}/${game}`);
          if (!run) {
            problems.push(`${agent} seed ${seed} ${game}: the run failed`);
            continue;
          }
          if (run.levels < pin.levels) problems.push(`${agent} seed ${seed} ${game}: ${run.levels} levels, pinned ${pin.levels}`);
          else {
            const allowed =
              pin.clearedActions + Math.max(ACTION_MARGIN.least, Math.ceil(ACTION_MARGIN.share * pin.clearedActions));
            const spent = run.levels === pin.levels ? run.clearedActions : undefined;
            if (spent !== undefined && spent > allowed)
              problems.push(
                `${agent} seed ${seed} ${game}: ${spent} actions on its ${pin.levels} levels, pinned ${pin.clearedActions} (at most ${allowed})`,
              );
          }
        }
      }
    }
    expect(problems).toEqual([]);
  }, 240_000);
});
