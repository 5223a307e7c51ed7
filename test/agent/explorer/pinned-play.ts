// The pinned-results check shared by the fast and slow tiers: every committed game played at the seeds and
// budget of a pin file, through the real CLI, and compared with the pins. Two pin files, both written by
// scripts/explorer-sweep.ts --pin (docs/explorer.md, "Pinned results", gives the commands):
// - pinned-results.json: both agents, 500 actions (the budget of docs/explorer.md's tables), in the slow tier
//   (pinned.slow.test.ts);
// - pinned-results-fast.json: the explorer, 150 actions, in the fast tier (pinned.test.ts): about a fifth of
//   the actions, still every game at both seeds and 36 levels cleared.
// Re-pin after a change that is meant to move them, and say why in the commit.
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
type Pins = v.InferOutput<typeof Pins>;
const root = resolve(import.meta.dir, "../../..");

/** A pin file beside this one, read through its schema. */
export function readPins(name: "pinned-results.json" | "pinned-results-fast.json"): Pins {
  return v.parse(Pins, JSON.parse(readFileSync(join(import.meta.dir, name), "utf8")));
}

const Card = v.looseObject({ levels_completed: v.number(), level_actions: v.optional(v.array(v.number())) });

type Result = { levels: number; clearedActions: number };

/** Every seed's batch of the committed games for one agent, played at once (the batches run side by side). */
async function playAll(pins: Pins, agent: string): Promise<Map<string, Result>> {
  const games = catalog().map((e) => e.info.id);
  const out = new Map<string, Result>();
  await Promise.all(
    pins.seeds.map(async (seed) => {
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
        out.set(`${seed}/${game}`, { levels: c.levels_completed, clearedActions: cleared });
      }
    }),
  );
  return out;
}

/** Plays `agent` at every pinned seed and says each run that cleared fewer levels or spent more actions than pinned. */
export async function pinnedProblems(pins: Pins, agent: string): Promise<string[]> {
  const bySeed = pins.agents[agent];
  if (bySeed === undefined) return [`${agent}: not in the pin file`];
  const got = await playAll(pins, agent);
  const problems: string[] = [];
  for (const [seed, byGame] of Object.entries(bySeed)) {
    for (const [game, pin] of Object.entries(byGame)) {
      const run = got.get(`${seed}/${game}`);
      if (!run) {
        problems.push(`${agent} seed ${seed} ${game}: the run failed`);
        continue;
      }
      if (run.levels < pin.levels) problems.push(`${agent} seed ${seed} ${game}: ${run.levels} levels, pinned ${pin.levels}`);
      else {
        const allowed = pin.clearedActions + Math.max(ACTION_MARGIN.least, Math.ceil(ACTION_MARGIN.share * pin.clearedActions));
        const spent = run.levels === pin.levels ? run.clearedActions : undefined;
        if (spent !== undefined && spent > allowed)
          problems.push(
            `${agent} seed ${seed} ${game}: ${spent} actions on its ${pin.levels} levels, pinned ${pin.clearedActions} (at most ${allowed})`,
          );
      }
    }
  }
  return problems;
}
