// Human play is a run, driven here through a real pseudo-terminal of 80x24: keys that arrive together, a
// paste, a quickly typed click, a mouse click, the level-complete message, Ctrl-C, `prolong resume`, and
// at the end a scorecard like any agent's.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { prolongInPty } from "../support/pty.ts";

const statusOf = (screen: string[]) => screen[0] ?? "";
const atAction = (n: number) => (s: string[]) => statusOf(s).includes(`action ${n}/`);

describe("prolong play <game> --agent human", () => {
  test("keys, a paste, typed and mouse clicks, Ctrl-C, resume, q: a recorded run with a scorecard", async () => {
    const runs = mkdtempSync(path.join(tmpdir(), "prolong-human-"));
    const play = prolongInPty(["play", "switchyard", "--agent", "human", "--max-actions", "60", "--runs-dir", runs]);
    await play.waitFor(
      (s) => statusOf(s).includes("Switchyard · level 1/7") && s.some((l) => l.includes("q end")),
      "the first screen",
    );
    // The status line is the top row, then (click games) a ruler in grid units: the whole board at half size.
    expect(play.screen()[1]).toMatch(/^ {3}0 {7}16 {6}32 {6}48/);

    // Level 1 of switchyard is: down, right, right, click (28,27), right, right, right.
    play.write("sd"); // two keys in one read
    await play.waitFor(atAction(2), "two keys in one write");
    play.write("\x1b[200~d\x1b[201~"); // a bracketed paste
    await play.waitFor(atAction(3), "the pasted key");
    play.write("c28 27\r"); // a typed click arriving in one read
    await play.waitFor(atAction(4), "the typed click");
    play.write("ddd");
    await play.waitFor(
      (s) => s.some((l) => /Level 1 complete in 7 action\(s\) \(baseline \d+\)/.test(l)),
      "the level-complete message",
    );
    expect(statusOf(play.screen())).toContain("level 2/7");

    // A mouse click on the row the gutter labels with a y: the whole board is shown at half size, so the
    // character at ruler column 10 stands for grid columns 20-21 and the row for grid rows y and y + 1.
    const screen = play.screen();
    expect(statusOf(screen)).toContain("half size");
    const row = screen.findIndex((l, i) => i > 1 && /^\s*\d+ /.test(l));
    const y = Number(screen[row]!.trim().split(" ")[0]);
    play.write(`\x1b[<0;${4 + 10};${row + 1}M\x1b[<0;${4 + 10};${row + 1}m`);
    await play.waitFor(atAction(8), "the mouse click");

    play.write("\x03"); // Ctrl-C: the run stops, resumable
    expect(await play.exited).toBe(1);
    expect(play.output()).toContain("interrupted");
    const [stamp] = readdirSync(runs);
    const dir = path.join(runs, stamp!, "switchyard");
    const log = readFileSync(path.join(dir, "logs.txt"), "utf8");
    expect(log.includes('Tool Call: ACTION6({"x": 28, "y": 27})')).toBe(true);
    const clicked = /Tool Call: ACTION6\(\{"x": (\d+), "y": (\d+)\}\)/g;
    const second = [...log.matchAll(clicked)][1]!;
    expect([20, 21]).toContain(Number(second[1]));
    expect([y, y + 1]).toContain(Number(second[2]));

    const resumed = prolongInPty(["resume", dir]);
    await resumed.waitFor((s) => atAction(8)(s) && s.some((l) => l.includes("q end")), "the resumed game at action 8");
    resumed.write("w");
    await resumed.waitFor(atAction(9), "a move after resuming");
    resumed.write("q"); // asks first: any key but y goes back to the game
    await resumed.waitFor((s) => s.some((l) => l.includes("End the run for good")), "the end confirm");
    resumed.write("n");
    await resumed.waitFor((s) => !s.some((l) => l.includes("End the run for good")), "back to the game");
    resumed.write("qy");
    expect(await resumed.exited).toBe(0);
    expect(resumed.output()).toContain("the player ended the run");
    // The game was drawn on the alternate screen: the shell's screen is back, with the summary on it.
    expect(resumed.buffer()).toBe("normal");
    expect(resumed.screen().join("\n")).toContain("switchyard");

    const card = JSON.parse(readFileSync(path.join(dir, "scorecard.json"), "utf8"));
    expect(card.levels_completed).toBe(1);
    expect(card.actions).toBe(9);
    expect(existsSync(path.join(dir, "summary.txt"))).toBe(true);
    expect(readFileSync(path.join(dir, "events.jsonl"), "utf8")).toContain('"kind":"level-up"');

    // The recorded run is a human baseline: level 1 in 7 actions, beside the committed baseline.
    const baselines = Bun.spawnSync(
      [process.execPath, path.resolve(import.meta.dir, "../../src/main.ts"), "games", "--baselines", runs, "--json"],
      { stdout: "pipe", stderr: "pipe" },
    );
    expect(baselines.exitCode).toBe(0);
    const [game] = JSON.parse(baselines.stdout.toString());
    expect(game.game).toBe("switchyard");
    expect(game.levels[0]).toEqual({ level: 1, baseline: card.level_baseline_actions[0], best: 7, completions: 1 });
    expect(game.levels[1].best).toBeNull();
  });

  test("without a terminal: one error that says so, and no run directory", () => {
    const runs = mkdtempSync(path.join(tmpdir(), "prolong-human-"));
    const p = Bun.spawnSync(
      [
        process.execPath,
        path.resolve(import.meta.dir, "../../src/main.ts"),
        "play",
        "glide",
        "--agent",
        "human",
        "--runs-dir",
        runs,
      ],
      { stdin: "pipe", stdout: "pipe", stderr: "pipe" },
    );
    expect(p.exitCode).toBe(2);
    expect(p.stderr.toString()).toContain("interactive terminal");
    expect(readdirSync(runs)).toEqual([]);
  });
});
