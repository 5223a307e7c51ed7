// NetHack played by hand through a real 80x24 pseudo-terminal: the game's own screen, keys passed as typed
// (a letter, Enter, Esc, `#` and an extended command), a key no action sends refused on screen, Ctrl-C
// pausing the run, `prolong resume` going on, Ctrl-X ending it after a confirm, and a scorecard. It once
// crashed on the first screen (a terminal game has no board).
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { NO_NETHACK } from "../game/nethack/helpers.ts";
import { prolongInPty } from "../support/pty.ts";

const turnOf = (s: string[]) => Number(/T:(\d+)/.exec(s[23] ?? "")?.[1] ?? -1);

describe.skipIf(NO_NETHACK)("prolong play --env nethack --agent human", () => {
  test("the real screen, keys as typed, Ctrl-C, resume, Ctrl-X then y: a recorded run with a scorecard", async () => {
    const runs = mkdtempSync(path.join(tmpdir(), "prolong-human-nethack-"));
    const play = prolongInPty(["play", "--env", "nethack", "--agent", "human", "--seed", "3", "--runs-dir", runs]);
    await play.waitFor((s) => s[22]!.includes("St:") && s[23]!.startsWith("Dlvl:1"), "the game's screen");
    const start = turnOf(play.screen());
    play.write("s"); // search: one turn
    await play.waitFor((s) => turnOf(s) === start + 1, "a turn passed");
    play.write("i"); // the inventory menu, closed with Esc
    await play.waitFor((s) => s.some((l) => l.includes("Weapons")), "the inventory");
    play.write("\x1b");
    await play.waitFor((s) => !s.some((l) => l.includes("Weapons")), "the inventory closed");
    play.write("&"); // no action sends it: said, not sent
    await play.waitFor((s) => s[0]!.includes("the key & is not offered"), "the refusal");
    play.write("#loot\r"); // an extended command typed on prolong's own line
    await play.waitFor((s) => /loot/i.test(s[0]!) && !s[0]!.startsWith("#"), "the loot answer");
    play.write("\x1b");
    await play.waitFor((s) => s[0]!.includes("action 5/"), "the prompt cancelled");
    play.write("\x03");
    expect(await play.exited).toBe(1);
    const [stamp] = readdirSync(runs);
    const dir = path.join(runs, stamp!, "nethack");
    const calls = () => [...readFileSync(path.join(dir, "logs.txt"), "utf8").matchAll(/^Tool Call: (.*)$/gm)].map((m) => m[1]);
    expect(calls()).toEqual(["s", "i", "esc", "loot", "esc"]);

    const resumed = prolongInPty(["resume", dir]);
    await resumed.waitFor((s) => s[23]!.startsWith("Dlvl:1") && s[0]!.includes("action 5/"), "the resumed game");
    resumed.write("s");
    await resumed.waitFor((s) => s[0]!.includes("action 6/"), "one more action");
    resumed.write("\x18"); // Ctrl-X: asks first
    await resumed.waitFor((s) => s[0]!.includes("End the run for good"), "the confirm");
    resumed.write("y");
    expect(await resumed.exited).toBe(0);
    expect(resumed.buffer()).toBe("normal");
    expect(resumed.output()).toContain("the player ended the run");
    expect(calls()).toEqual(["s", "i", "esc", "loot", "esc", "s"]);
    const card = JSON.parse(readFileSync(path.join(dir, "scorecard.json"), "utf8"));
    expect(card.settings.agent).toBe("human");
    expect(card.actions).toBe(6);
  }, 60_000);
});
