// What a run's summary tells someone new: RHAE with its scale (a bare "RHAE 1.93" says nothing), the agent's
// actions per level beside a good human's (what RHAE compares), and the arm's stateless workspace.
import { expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const MAIN = path.resolve(import.meta.dir, "../../src/main.ts");

test("play's summary: RHAE's scale, per-level actions beside the human baseline, the stateless workspace", () => {
  const runs = mkdtempSync(path.join(tmpdir(), "prolong-summary-"));
  const p = Bun.spawnSync(
    [process.execPath, MAIN, "play", "glide", "--max-actions", "60", "--workspace", "stateless", "--runs-dir", runs, "--quiet"],
    { stdout: "pipe", stderr: "pipe" },
  );
  expect(p.exitCode).toBe(0);
  const [stamp] = readdirSync(runs);
  const dir = path.join(runs, stamp!, "glide");
  const summary = readFileSync(path.join(dir, "summary.txt"), "utf8");
  const card = JSON.parse(readFileSync(path.join(dir, "scorecard.json"), "utf8"));
  expect(card.levels_completed).toBeGreaterThan(0);
  const done = card.level_actions.slice(0, card.levels_completed) as number[];
  const human = card.level_baseline_actions.slice(0, card.levels_completed) as number[];
  expect(summary).toContain(`actions    ${card.actions} (per level: ${done.join(", ")}; a good human: ${human.join(", ")})`);
  expect(summary).toMatch(
    /RHAE {7}\d+\.\d\d \(0 to 115: 100 = a good human's action count on every level, 0 = no level completed\)/,
  );
  expect(summary).toContain("log: full, workspace: stateless");
  expect(p.stdout.toString()).toContain("workspace: stateless");
}, 60_000);
