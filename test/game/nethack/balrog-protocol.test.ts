// `--protocol balrog`: NetHack as BALROG evaluates it, an arm preset. The settings it fixes and brings, the
// character the game draws from the seed, every --More-- answered, an entry that is no action played as Esc,
// the no-progress rule on a real game, and two seeds of the built-in player scored as mean ± SE end to end.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { armFingerprint, armSettingsOf } from "../../../src/config/arm.ts";
import { parseActions } from "../../../src/agent/actions.ts";
import { newConfig } from "../../../src/config/run-config.ts";
import { actionsNotice } from "../../../src/run/workspace.ts";
import { NO_ENV_CONTEXT } from "../../../src/game/env.ts";
import { RANDOM_CHARACTER } from "../../../src/game/nethack/character.ts";
import { BALROG_NO_PROGRESS, NethackEpisode, type NethackFrame } from "../../../src/game/nethack/episode.ts";
import { BALROG_EPISODE_CAP } from "../../../src/game/nethack/kind.ts";
import { nethackPlay } from "../../../src/game/nethack/play.ts";
import { gameRoot, NO_NETHACK, NO_WIZARD } from "./helpers.ts";

const MAIN = resolve(import.meta.dir, "../../../src/main.ts");

describe("the preset's settings", () => {
  test("one action per call and BALROG's episode cap by default; a shorter budget may be given", () => {
    const c = newConfig({ game: "nethack", env: "nethack", protocol: "balrog" })._unsafeUnwrap();
    expect(c).toMatchObject({ protocol: "balrog", actionCap: 1, maxActions: BALROG_EPISODE_CAP });
    expect(newConfig({ game: "nethack", env: "nethack", protocol: "balrog", maxActions: 300 })._unsafeUnwrap().maxActions).toBe(
      300,
    );
    expect(newConfig({ game: "nethack", env: "nethack", protocol: "balrog", actionCap: 1 }).isOk()).toBe(true);
  });

  test("another --action-cap is refused, naming the flag and the fix; so is a chosen character", async () => {
    const e = newConfig({ game: "nethack", env: "nethack", protocol: "balrog", actionCap: 5 })._unsafeUnwrapErr();
    expect(e.message).toBe("--protocol balrog plays with --action-cap 1, not 5");
    expect(e.fix).toContain("drop --action-cap");
    const run = newConfig({ game: "nethack", env: "nethack", protocol: "balrog", role: "wizard" })._unsafeUnwrap();
    const opened = nethackPlay.open(run, NO_ENV_CONTEXT);
    expect(opened.isErr() && opened.error.message).toContain("draws the character from the seed");
  });

  test("it is part of the arm: its fingerprint differs from the same settings without it", () => {
    const plain = newConfig({ game: "nethack", env: "nethack", actionCap: 1, maxActions: BALROG_EPISODE_CAP })._unsafeUnwrap();
    const balrog = newConfig({ game: "nethack", env: "nethack", protocol: "balrog" })._unsafeUnwrap();
    expect(armSettingsOf(balrog)).toMatchObject({ protocol: "balrog" });
    expect(armFingerprint(armSettingsOf(balrog))).not.toBe(armFingerprint(armSettingsOf(plain)));
  });

  test("an entry that is no action is played as Esc under the protocol, dropped with the reason otherwise", () => {
    const balrog = newConfig({ game: "nethack", env: "nethack", protocol: "balrog" })._unsafeUnwrap();
    const plain = newConfig({ game: "nethack", env: "nethack" })._unsafeUnwrap();
    const entry = nethackPlay.actionEntry!;
    expect(entry("dance a jig", balrog)._unsafeUnwrap()).toMatchObject({ id: "key", name: "esc", keys: "\x1b" });
    expect(entry("dance a jig", plain)._unsafeUnwrapErr()).toContain("is not a NetHack action");
    expect(entry("far east", balrog)._unsafeUnwrap()).toEqual({ id: "key", name: "far east", keys: "L" });
  });

  test("the agent is told: the batch plays esc, and the next prompt's notice says what was played instead", () => {
    const balrog = newConfig({ game: "nethack", env: "nethack", protocol: "balrog" })._unsafeUnwrap();
    const batch = parseActions('{"actions": ["dance a jig"]}', {
      cap: 1,
      available: [],
      path: "actions.json",
      entry: (e) => nethackPlay.actionEntry!(e, balrog),
    });
    expect(batch._unsafeUnwrap().actions).toEqual([{ id: "key", name: "esc", keys: "\x1b" }]);
    expect(actionsNotice(batch)).toBe(
      `From your last actions.json: '"dance a jig" is not a NetHack action: esc was played in its place'.`,
    );
  });
});

async function episode(seed: number, extra: { pressMore?: "all"; noProgressAfter?: number; wizard?: boolean } = {}) {
  return (
    await NethackEpisode.start({ folder: join(gameRoot(), "g"), seed, character: RANDOM_CHARACTER, ...extra })
  )._unsafeUnwrap();
}

// The tests on the real game run at once (test.concurrent): each game is its own process in its own folder, and
// a game spends most of its time waiting for its terminal.
describe.skipIf(NO_NETHACK)(`the protocol on the real game${NO_NETHACK ? " (skipped: NetHack not installed)" : ""}`, () => {
  test.concurrent("the character is the game's own draw from the seed: the same for a seed, not the same for every seed", async () => {
    // Seeds 0 and 1 draw different characters (a lawful human Samurai, a chaotic elven Priest); seed 0 again, the
    // same. The three games start at once.
    const drawn = await Promise.all(
      [0, 1, 0].map(async (seed) => {
        const { episode: ep, frame } = await episode(seed);
        await ep.close();
        const welcome = /You are an? (.+)\.\s*$/.exec(frame.observation.screen.rows[0]!.trimEnd());
        expect(welcome).not.toBeNull();
        return welcome![1]!;
      }),
    );
    expect(drawn[2]).toBe(drawn[0]!);
    expect(new Set(drawn).size).toBeGreaterThan(1);
  }, 120_000);

  test.concurrent("no progress: the episode ends at the 150th action in a row that leaves the turn counter where it was", async () => {
    const { episode: ep } = await episode(3, { noProgressAfter: BALROG_NO_PROGRESS });
    let frame: NethackFrame | undefined;
    // Esc at the command prompt takes no game time.
    for (let i = 1; i <= BALROG_NO_PROGRESS; i++) {
      frame = (await ep.step({ name: "esc", keys: "\x1b", help: "" }))._unsafeUnwrap();
      if (i < BALROG_NO_PROGRESS) expect(frame.ended).toBeUndefined();
    }
    expect(frame!.ended).toBe("no progress: the game's turn counter stood still for 150 actions (BALROG's rule)");
    expect(frame!.stops).toContain("the game ended");
    await ep.close();
  }, 240_000);

  test.concurrent.skipIf(NO_WIZARD)(
    "every --More-- is answered and its message joined (debug mode: a polymorph's several)",
    async () => {
      const { episode: ep } = await episode(1, { pressMore: "all", wizard: true });
      let frame: NethackFrame | undefined;
      for (const keys of ["#polyself\r", "red dragon\r"])
        frame = (await ep.step({ name: "key", keys, help: "" }))._unsafeUnwrap();
      const screen = frame!.observation.screen.rows.join("\n");
      expect(screen).not.toContain("--More--");
      expect(frame!.observation.message).toContain("You turn into a red dragon!");
      // Its last message came after two --More-- prompts on this character.
      expect(frame!.observation.message).not.toContain("--More--");
      expect(frame!.observation.message).toContain("Use the command #monster");
      await ep.close();
    },
    120_000,
  );

  test.concurrent("two seeds of the built-in player, end to end: one action a call, no --More-- left, mean ± SE over 2 runs", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "prolong-balrog-"));
    // Spawned without blocking: the other tests' games run meanwhile.
    const play = Bun.spawn(
      [
        process.execPath,
        MAIN,
        "play",
        "--env",
        "nethack",
        "--protocol",
        "balrog",
        "--max-actions",
        "20",
        "--runs",
        "2",
        "--quiet",
      ],
      { cwd, stdout: "ignore", stderr: "pipe" },
    );
    const [exitCode, stderr] = await Promise.all([play.exited, new Response(play.stderr).text()]);
    expect(stderr).not.toContain("error");
    expect(exitCode).toBe(0);
    const batch = join(cwd, "runs", readdirSync(join(cwd, "runs"))[0]!);
    const runs = readdirSync(batch).filter((d) => existsSync(join(batch, d, "run.json")));
    expect(runs).toHaveLength(2);
    for (const r of runs) {
      const config = JSON.parse(readFileSync(join(batch, r, "run.json"), "utf8"));
      expect(config).toMatchObject({ protocol: "balrog", actionCap: 1, maxActions: 20 });
      // One action per agent call: 20 actions, 20 turns of the player in the trajectory.
      const turns = readFileSync(join(batch, r, "trajectory.jsonl"), "utf8").match(/^\{"kind":"turn"/gm);
      expect(turns).toHaveLength(20);
      expect(readFileSync(join(batch, r, "logs.txt"), "utf8")).not.toContain("--More--");
    }
    const score = Bun.spawn([process.execPath, MAIN, "score", batch], { cwd, stdout: "pipe", stderr: "pipe" });
    const [scoreCode, scored] = await Promise.all([score.exited, new Response(score.stdout).text()]);
    expect(scoreCode).toBe(0);
    expect(scored).toMatch(/Mean ± standard error over runs \(as BALROG reports it\): \d+\.\d\d ± \d+\.\d\d \(2 runs\)/);
  }, 300_000);
});
