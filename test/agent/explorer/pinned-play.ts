// The pinned-results check shared by the fast and slow tiers: every committed game played at the seeds and
// budget of a pin file, through the real loop in this process, and compared with the pins. Two pin files, both written by
// scripts/explorer-sweep.ts --pin (docs/explorer.md, "Pinned results", gives the commands):
// - pinned-results.json: both agents, 500 actions (the budget of docs/explorer.md's tables), in the slow tier
//   (pinned.slow.test.ts);
// - pinned-results-fast.json: the explorer, 150 actions, in the fast tier (pinned.test.ts): under a third of
//   the actions, still every game at both seeds and 36 levels cleared.
// Re-pin after a change that is meant to move them, and say why in the commit.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import type { AGENT_KINDS } from "../../../src/config/run-config.ts";
import { catalog } from "../../../src/game/catalog.ts";
import { playGame } from "../../run/helpers.ts";

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
/** The built-in players the pins are for (their runs need no model and no network). */
type PinnedAgent = Extract<(typeof AGENT_KINDS)[number], "explorer" | "random">;

/** A pin file beside this one, read through its schema. */
export function readPins(name: "pinned-results.json" | "pinned-results-fast.json"): Pins {
  return v.parse(Pins, JSON.parse(readFileSync(join(import.meta.dir, name), "utf8")));
}

const Card = v.looseObject({ levels_completed: v.number(), level_actions: v.optional(v.array(v.number())) });

/** A run's levels and the actions spent on them, or why it gave no scorecard. */
type Result = { levels: number; clearedActions: number } | { failed: string };

/**
 * Every committed game at every pinned seed for one agent, each played in this process through the real loop
 * (test/run/helpers.ts playGame: the settings `play --games G --agent A --seed S --max-actions N` gives). In
 * process because the CLI would spawn a child per run, each paying the start of a process (about as much
 * CPU as the run itself at 150 actions); the CLI's batch is tested elsewhere.
 */
async function playAll(pins: Pins, agent: PinnedAgent): Promise<Map<string, Result>> {
  const root = mkdtempSync(join(tmpdir(), `pinned-${agent}-`));
  const out = new Map<string, Result>();
  try {
    for (const seed of pins.seeds) {
      for (const e of catalog()) {
        const game = e.info.id;
        const played = await playGame({ game, agent, seed, maxActions: pins.maxActions }, join(root, `${seed}-${game}`)).catch(
          (e: unknown) => String(e),
        );
        const card = typeof played === "string" ? undefined : join(played.session.paths.dir, "scorecard.json");
        if (card === undefined || !existsSync(card)) {
          out.set(`${seed}/${game}`, { failed: typeof played === "string" ? played : "no scorecard" });
          continue;
        }
        const c = v.parse(Card, JSON.parse(readFileSync(card, "utf8")));
        const cleared = (c.level_actions ?? []).slice(0, c.levels_completed).reduce((n, a) => n + a, 0);
        out.set(`${seed}/${game}`, { levels: c.levels_completed, clearedActions: cleared });
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return out;
}

/** Plays `agent` at every pinned seed and says each run that cleared fewer levels or spent more actions than pinned. */
export async function pinnedProblems(pins: Pins, agent: PinnedAgent): Promise<string[]> {
  const bySeed = pins.agents[agent];
  if (bySeed === undefined) return [`${agent}: not in the pin file`];
  const got = await playAll(pins, agent);
  const problems: string[] = [];
  for (const [seed, byGame] of Object.entries(bySeed)) {
    for (const [game, pin] of Object.entries(byGame)) {
      const run = got.get(`${seed}/${game}`);
      if (!run || "failed" in run) {
        problems.push(`${agent} seed ${seed} ${game}: the run failed${run ? ` (${run.failed})` : ""}`);
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
