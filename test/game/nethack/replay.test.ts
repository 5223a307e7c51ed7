// `prolong replay <run-dir>` of a NetHack run: the log replayed against the real game with the run's seed and
// keys, every screen compared byte for byte (the engine resume uses); any divergence exits 1.
import { describe, expect, test } from "bun:test";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { replayCommand } from "../../../src/cli/replay.ts";
import { playGame, tempRoot } from "../../run/helpers.ts";
import { NO_NETHACK } from "./helpers.ts";
import { runCaptured } from "../../support/captured.ts";

const replay = (args: string[]) => runCaptured(replayCommand, args);

describe.skipIf(NO_NETHACK)(`replay of a NetHack run${NO_NETHACK ? " (skipped: NetHack not installed)" : ""}`, async () => {
  const run = await playGame({ game: "nethack", env: "nethack", seed: 3, maxActions: 12 });
  const dir = run.session.paths.dir;

  test("the run's own log: every section matches, exit 0", async () => {
    const r = await replay([dir]);
    expect(r.errText).toBe("");
    expect(r.out).toContain("all 13 sections (12 actions) match NetHack at seed 3");
    expect(r.code).toBe(0);
    const j = JSON.parse((await replay([dir, "--json"])).out);
    expect(j).toMatchObject({ matched: true, sections: 13, actions: 12, seed: 3 });
  }, 120_000);

  test("one byte of one screen changed: exit 1, the divergence named at its action", async () => {
    const bad = join(tempRoot(), "nethack");
    cpSync(dir, bad, { recursive: true });
    const log = readFileSync(join(bad, "logs.txt"), "utf8");
    const sections = log.split(/(?=^={80}$)/m);
    // The screen of the tenth action's section: its first wall corner becomes another character.
    const i = sections.findIndex((s) => s.includes("\nAction 10 |"));
    expect(i).toBeGreaterThan(0);
    const board = sections[i]!.indexOf("[POST-ACTION BOARD STATE]\n") + "[POST-ACTION BOARD STATE]\n".length;
    const wall = sections[i]!.indexOf("-", board);
    expect(wall).toBeGreaterThanOrEqual(board);
    sections[i] = `${sections[i]!.slice(0, wall)}#${sections[i]!.slice(wall + 1)}`;
    writeFileSync(join(bad, "logs.txt"), sections.join(""));
    const r = await replay([bad]);
    expect(r.errText).toBe("");
    expect(r.out).toContain("replaying the log diverges at Action 10");
    expect(r.code).toBe(1);
  }, 120_000);

  test("another seed than the run's: exit 1 at the first screen", async () => {
    const r = await replay([dir, "--seed", "4"]);
    expect(r.out).toContain("diverges at Action 0");
    expect(r.code).toBe(1);
  }, 120_000);
});
