// NetHack through the real loop (prolong play --env nethack): batches stopped by what happens, lifetimes,
// the game killed under the harness and resume. The built-in NetHack agent plays; the game is the real one.
// (The whole-process trial, `prolong play` itself killed with SIGKILL and resumed, is run.slow.test.ts.)
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { createAgent } from "../../../src/agent/create.ts";
import { newConfig } from "../../../src/config/run-config.ts";
import { ok } from "neverthrow";
import { NO_TOKENS, type Agent } from "../../../src/agent/agent.ts";
import { join } from "node:path";
import { parseHeader } from "../../../src/log/format.ts";
import { parseNethackSection, type NethackSection } from "../../../src/game/nethack/section.ts";
import { readScorecard } from "../../../src/score/scorecard.ts";
import { resumeRun } from "../../../src/run/resume.ts";
import { runLoop } from "../../../src/run/runner.ts";
import { finishRun, summaryText } from "../../../src/run/finish.ts";
import { type PlayedRun, playGame, tempRoot } from "../../run/helpers.ts";
import { NO_NETHACK } from "./helpers.ts";
import { buildReplay } from "../../../src/view/replay.ts";
import { replayHtml } from "../../../src/view/html.ts";
import { openViewSource } from "../../../src/view/source.ts";
import { loadLog } from "../../../src/log/load.ts";
import { renderShown, showSection } from "../../../src/inspect/show.ts";
import { COLOUR_CODES, decodeColours } from "../../../src/game/nethack/colours.ts";
import type { RunEvent } from "../../../src/run-files/events.ts";

function sections(log: string): NethackSection[] {
  return log.split(/(?=^={80}$)/m).map((t) => {
    const s = parseNethackSection(t, parseHeader);
    if (typeof s === "string") throw new Error(s);
    return s;
  });
}

/** The seeded run most tests read: seed 5's first 30 actions hold a hit taken (at action 17), a batch of five
 * actions, and the agent's tenth turn (at action 13) well before the end. */
const SEEDED = { game: "nethack", env: "nethack" as const, seed: 5, maxActions: 30 };

/** The seeded run played twice at once (so their timing differs), once for the whole file: the determinism test
 * compares the two; the damage, view and show tests read the first; the crash test resumes to its log. */
let pair: Promise<PlayedRun[]> | undefined;
const seededTwice = () => (pair ??= Promise.all([1, 2].map(() => playGame(SEEDED))));
const uninterrupted = async () => (await seededTwice())[0]!;

// The tests run at once (test.concurrent): each run has its own directory and game process, and a game spends
// most of its time waiting for its terminal.
describe.skipIf(NO_NETHACK)(`NetHack runs${NO_NETHACK ? " (skipped: NetHack not installed)" : ""}`, () => {
  test.concurrent("a batch stops on damage: after a section that lost HP the next action starts a new batch", async () => {
    const run = await uninterrupted();
    const all = sections(run.master);
    const hurt = all.map((s, i) => ({ s, i })).filter(({ s }) => (s.events ?? []).some((e) => e.startsWith("hp lost")));
    expect(hurt.length).toBeGreaterThan(0);
    for (const { i } of hurt) {
      const next = all[i + 1];
      if (next?.header.kind === "action") expect(next.header.planStep?.step).toBe(1);
    }
    // And batches did run several actions when nothing happened.
    expect(all.some((s) => (s.header.planStep?.step ?? 0) >= 3)).toBe(true);
    // The header carries the dungeon level, the episode and the progression; the summary the progression.
    expect(all.every((s) => s.header.attempt === 1)).toBe(true);
    // The summary names the player it is: NetHack's built-in agent, not the grid explorer.
    expect(run.summary.agent).toBe("nethack-agent");
    expect(summaryText(run.summary)).toContain("agent      nethack-agent,");
    expect(all[all.length - 1]!.status).toMatch(/^Dlvl:\d+ \| \$:\d+ \| HP:-?\d+\(\d+\)/);
    // ...and XL, HP and the turn, the same as the section's [STATUS] line says.
    for (const s of all) {
      const m = /^Dlvl:(\d+) \| \$:\d+ \| HP:(-?\d+)\((\d+)\) .*\| Xp:(\d+)\/\d+ \| T:(\d+) /.exec(s.status)!;
      expect(s.header.vitals).toEqual({
        xl: Number(m[4]),
        hp: Math.max(0, Number(m[2])),
        hpMax: Number(m[3]),
        turn: Number(m[5]),
      });
      expect(s.header.level).toBe(Number(m[1]));
    }
    // A death ends the episode there, with how, and the run says so.
    const deaths = all.filter((s) => s.end !== undefined);
    if (run.end.reason === "game-over") expect(deaths.map((s) => s === all[all.length - 1])).toEqual([true]);
    else expect(deaths).toEqual([]);

    // view: each step's screen as text, its status and HP over time, the death.
    const replay = buildReplay(
      loadLog(run.session.paths.log)._unsafeUnwrap(),
      openViewSource(run.session.paths.dir)._unsafeUnwrap(),
    );
    expect(replay.steps.length).toBe(all.length);
    expect(replay.warnings).toEqual([]);
    expect(replay.steps.every((s) => s.form === "text" && s.text !== undefined && s.boards === 0)).toBe(true);
    expect(replay.steps[0]!.text!.split("\n")).toHaveLength(24);
    expect(replay.steps[0]!.hp).toBe(16);
    expect(replay.steps[0]!.lines![0]).toBe(`[STATUS] ${all[0]!.status}`);
    // The colours are recorded: the hero and its pet are drawn in colour on the first screen, each coloured cell
    // of the logged [COLOURS] lines in a run of the page's colours (and no other cell).
    expect(all[0]!.colours?.length).toBeGreaterThan(0);
    const logged = decodeColours(all[0]!.colours!);
    const drawn = logged.map((row) => [...row].map(() => -1));
    for (const [y, runs] of replay.steps[0]!.colours!.entries())
      for (const [x, colour, length] of runs) for (let k = x; k < x + length; k++) drawn[y]![k] = colour;
    expect(drawn).toEqual(logged.map((row) => [...row].map((c) => COLOUR_CODES.indexOf(c))));
    expect(drawn.flat().some((c) => c >= 0)).toBe(true);
    // The page's summary names the progression, not levels.
    const card = readScorecard(run.session.paths.scorecard)._unsafeUnwrap();
    expect(replay.scorecard).toMatchObject({ metric: "progression", score: card.score });
    const page = replayHtml(replay);
    expect(page).toContain(`scorecard: progression ${card.score.toFixed(2)}% (best episode)`);
    expect(page).toMatch(/progression at the last step \d+\.\d\d%/);
    expect(replay.steps[0]!.vitals).toMatch(/^XL 1 \| HP 16\(16\) \| Turn 1$/);
    expect(replay.steps.filter((s) => s.end).length).toBe(deaths.length);

    // log show: a NetHack section is shown with its observation and whole screen, in colour on a terminal.
    const log = loadLog(run.session.paths.log)._unsafeUnwrap();
    const shown = showSection(log, 1, { colour: false, frames: false, mode: "ascii" });
    expect(shown.error).toBeNull();
    expect(shown.toolCall).toBe(all[1]!.action!);
    expect(shown.board).toEqual([all[1]!.message.padEnd(80), ...all[1]!.board]);
    expect(shown.form).toBe("text");
    expect(shown.lines[0]).toBe(`[STATUS] ${all[1]!.status}`);
    expect(shown.lines[1]).toBe(`[MESSAGE] ${all[1]!.message}`);
    const plain = renderShown(log, 1, { colour: false, frames: false, mode: "ascii" });
    expect(plain).toContain(`[STATUS] ${all[1]!.status}`);
    expect(plain).not.toContain("not a readable section");
    expect(renderShown(log, 1, { colour: true, frames: false, mode: "ascii" })).toMatch(/\x1b\[97m@/);
  }, 120_000);

  test.concurrent("a seeded run played twice writes identical logs (two at once, so timing differs)", async () => {
    const [a, b] = await seededTwice();
    expect(a!.master.length).toBeGreaterThan(0);
    expect(b!.master).toBe(a!.master);
    // Each action event counts what its section holds: a NetHack step's one screen (a grid frame count gave 0).
    const actions = a!.events.filter((e) => e.kind === "action");
    expect(actions.length).toBe(SEEDED.maxActions);
    expect(new Set(actions.map((e) => (e as RunEvent<"action">).frames))).toEqual(new Set([1]));
  }, 120_000);

  test.concurrent("a lifetime of 3 short episodes: one log with episode markers, each episode scored", async () => {
    const run = await playGame({ game: "nethack", env: "nethack", seed: 4, maxActions: 10, episodes: 3 });
    const all = sections(run.master);
    const initial = all.filter((s) => s.header.kind === "initial");
    expect(initial.map((s) => s.episode?.index ?? 1)).toEqual([1, 2, 3]);
    expect(initial.map((s) => s.header.attempt)).toEqual([1, 2, 3]);
    // The same seed: every episode starts on the same screen.
    expect(new Set(initial.map((s) => s.board.join("\n"))).size).toBe(1);
    const card = readScorecard(run.session.paths.scorecard)._unsafeUnwrap();
    expect(card.metric).toBe("progression");
    expect(card.episodes.map((e) => e.episode)).toEqual([1, 2, 3]);
    expect(card.episodes.every((e) => e.actions > 0 && e.actions <= 10)).toBe(true);
    expect(card.score).toBe(Math.max(...card.episodes.map((e) => e.score)));
  }, 120_000);

  test.concurrent("the no-log arm: each prompt shows the whole screen, its message line included", async () => {
    const prompts: string[] = [];
    const agent: Agent = {
      name: "scripted",
      async turn(input) {
        prompts.push(input.prompt);
        writeFileSync(join(input.workspace, "actions.json"), JSON.stringify({ actions: ["search", "east"] }));
        return ok({ text: "[PLAN]\nlook around", toolCalls: 0, tokens: NO_TOKENS, wallMs: 0, exitCode: 0 });
      },
    };
    const run = await playGame(
      { game: "nethack", env: "nethack", seed: 2, maxActions: 6, logWindow: { kind: "none" } },
      undefined,
      {
        agent,
      },
    );
    expect(prompts.length).toBe(3);
    const all = sections(run.master);
    prompts.forEach((p, k) => {
      const shown = all[k * 2]!; // each turn plays two actions, so turn k sees section 2k
      const screen = p.split("\n[CURRENT SCREEN]\n")[1]!.split("\n").slice(0, 24);
      expect(screen).toEqual([shown.message.padEnd(80), ...shown.board]);
      expect(p).toContain(`[STATUS] ${shown.status}`);
      expect(p).toContain(`[MESSAGE] ${shown.message}`);
      // The inventory as last read, though only the first section lists it.
      expect(p).toContain(`[INVENTORY]\n ${all[0]!.inventory![0]}`);
    });
    // The welcome message is on the first screen the agent sees.
    expect(prompts[0]).toMatch(/\[CURRENT SCREEN\]\n.*welcome to NetHack!/);
  }, 120_000);

  test.concurrent("the game crashes mid-episode (killed): the run ends game-failed with its log whole, and resume finishes it as if nothing happened", async () => {
    const inner = createAgent(newConfig(SEEDED)._unsafeUnwrap())._unsafeUnwrap();
    let killed = 0;
    const killer: Agent = {
      name: inner.name,
      async turn(input) {
        // At the 10th call the game process (the one whose folder is in this run) is killed under the harness.
        if (input.turn === 10) killed = killGameIn(dirname(input.workspace));
        return inner.turn(input);
      },
    };
    const root = tempRoot();
    const crashed = await playGame(SEEDED, root, { agent: killer });
    expect(killed).toBeGreaterThan(0);
    expect(crashed.end.reason).toBe("game-failed");
    expect(crashed.end.detail).toMatch(/NetHack exited with code \d+ without ending the game/);
    // The log is whole (every section parses, no crash recorded as the game's end) and a prefix of the uninterrupted one.
    const logged = sections(crashed.master);
    expect(logged.every((s) => s.end === undefined)).toBe(true);
    const whole = await uninterrupted(); // played meanwhile, by the tests beside this one
    expect(whole.master.startsWith(crashed.master)).toBe(true);

    const session = (await resumeRun(crashed.session.paths.dir))._unsafeUnwrap();
    const end = await runLoop(session, new AbortController().signal);
    await finishRun(session, end);
    expect(end.reason).toBe(whole.end.reason);
    expect(readFileSync(crashed.session.paths.log, "utf8")).toBe(whole.master);
  }, 180_000);
});

/** Kills (SIGKILL) the game processes working in a run directory; how many. */
function killGameIn(runDir: string): number {
  let n = 0;
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    let cwd = "";
    try {
      cwd = readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      continue;
    }
    if (cwd.startsWith(`${runDir}/`) && Number(pid) !== process.pid) {
      process.kill(Number(pid), "SIGKILL");
      n++;
    }
  }
  return n;
}
