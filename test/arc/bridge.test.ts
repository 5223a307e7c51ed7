// The arc-local bridge's own protocol, against the stand-in engine (test/arc/stand-in: the calls the bridge
// makes, nothing more) and its test game tn01: the bridge is spawned, speaks JSON lines, carries hex frames
// (an animation included), reports a game that raises, a game file that will not load, a missing engine, and
// a process that dies mid-run (the run ends game-failed and resumes to the same log). Runs wherever Python
// 3.11+ with numpy is installed (CI installs Debian's); ARC's real engine is tested in arc-local.test.ts.
import { afterAll, describe, expect, test } from "bun:test";
import { ok } from "neverthrow";
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Agent } from "../../src/agent/agent.ts";
import { newConfig } from "../../src/config/run-config.ts";
import { arcLocalEnv } from "../../src/game/arc/arc-local.ts";
import { parseLog, writeLog } from "../../src/log/format.ts";
import { finishRun } from "../../src/run/finish.ts";
import { resumeRun } from "../../src/run/resume.ts";
import { runLoop } from "../../src/run/runner.ts";
import { startRun } from "../../src/run/start.ts";
import { type PlayedRun, playGame, tempRoot } from "../run/helpers.ts";
import { runCaptured } from "../support/captured.ts";
import { replayCommand } from "../../src/cli/replay.ts";
import { bridgePython, usePython } from "../support/python.ts";
import { STAND_IN_ENGINE, useStandInEngine } from "./arc-setup.ts";

const GAMES = join(STAND_IN_ENGINE, "games");

// Python is resolved once (a shim on PATH would otherwise run at each of the file's ten bridge starts).
const python = bridgePython();
const missing = "skip" in python ? python.skip : null;
const skipNote = missing ? ` (skipped: ${missing})` : "";

const scratch: string[] = [];
useStandInEngine();
if ("path" in python) usePython(python.path);
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

/** Turn 1 lights the lamp (a two-frame animation) and clears level 1; turn 2 clears level 2; then the same again. */
function tn01Agent(): Agent {
  const batches = [
    ["ACTION6(56,56)", "ACTION4", "ACTION4", "ACTION4", "ACTION4"],
    ["ACTION2", "ACTION2", "ACTION4", "ACTION4", "ACTION4", "ACTION4"],
  ];
  return {
    name: "tn01-script",
    async turn(input) {
      writeFileSync(join(input.workspace, "actions.json"), JSON.stringify({ actions: batches[(input.turn - 1) % 2] }));
      return ok({ text: `turn ${input.turn}`, toolCalls: 0, tokens: { input: 0, cached: 0, output: 0 }, wallMs: 0, exitCode: 0 });
    },
  };
}

/** A copy of tn01 with Python appended to its game file (to make it raise, die or fail to load). */
function patchedGames(python: string): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), "prolong-tn01-"));
  scratch.push(dir);
  cpSync(join(GAMES, "tn01"), join(dir, "tn01"), { recursive: true });
  const file = join(dir, "tn01", "v1", "tn01.py");
  appendFileSync(file, python);
  return { dir, file };
}

const fields = (arcGames: string) => ({ game: "tn01", env: "arc-local" as const, arcGames, maxActions: 40 });

/** tn01 played to a win by the script, once for the file: the win test reads it, the replay test replays it, and
 * the dying-bridge test's resumed log must equal it. */
let won: Promise<PlayedRun> | undefined;
const wonRun = () =>
  (won ??= playGame(fields(GAMES), tempRoot(), { agent: tn01Agent() }).then((run) => {
    scratch.push(run.session.paths.dir);
    return run;
  }));

const replay = (args: string[]) => runCaptured(replayCommand, args);

describe.skipIf(missing !== null)(`the bridge protocol on the stand-in engine${skipNote}`, () => {
  test("a run plays tn01 to a win: every step a JSON line, frames in hex, the animation kept, levels and RHAE", async () => {
    const run = await wonRun();
    expect(run.end.reason).toBe("win");
    expect(run.summary.levelsCompleted).toBe(2);
    expect(run.summary.actions).toBe(11);
    expect(run.summary.episodes[0]!.levelActions).toEqual([5, 6]);
    const sections = parseLog(run.master).sections;
    expect(sections.length).toBe(12);
    expect(sections[1]!.toolCall).toEqual({ id: 6, x: 56, y: 56 });
    expect(sections[1]!.frames.length).toBe(1); // two frames from the game: one animation frame, the settled board
    const cell = (g: { cells: Uint8Array; width: number }, x: number, y: number) => g.cells[y * g.width + x];
    expect(cell(sections[1]!.frames[0]!, 56, 56)).toBe(4);
    expect(cell(sections[1]!.board, 56, 56)).toBe(11);
    // Action 5 reached level 1's goal: its board is level 2's start (the player back at (8,8), the new goal).
    expect(sections[5]!.header.score).toBe(1);
    expect(cell(sections[5]!.board, 8, 8)).toBe(8);
    expect(cell(sections[5]!.board, 40, 24)).toBe(3);
  });

  test("prolong replay of the run: every board matches; one edited cell is reported as that section", async () => {
    const run = await wonRun();
    const dir = run.session.paths.dir;
    // In this process (the file points PROLONG_ARC_ENGINE at the stand-in): the command's output and exit code.
    const same = await replay([dir, "--json"]);
    expect(same.errText).toBe("");
    expect(same.code).toBe(0);
    const report = JSON.parse(same.out) as { sections: number; differences: unknown[] };
    expect(report.sections).toBe(12);
    expect(report.differences).toEqual([]);
    const { sections } = parseLog(run.master);
    sections[6]!.board.cells[0] = 15;
    const edited = join(tempRoot(), "logs.txt");
    writeFileSync(edited, writeLog(sections, "ascii"));
    const diff = await replay([edited, "--game", "tn01", "--env", "arc-local", "--arc-games", GAMES, "--json"]);
    expect(diff.code).toBe(1);
    const r = JSON.parse(diff.out) as { differences: { section: number; what: string[] }[] };
    expect(r.differences.map((d) => d.section)).toEqual([6]);
    expect(r.differences[0]!.what).toEqual(["settled board: 1 cell(s) differ, first at x=0, y=0"]);
  });

  test("a game that raises while stepping: an error naming the game file and Python's message; the bridge goes on", async () => {
    const { dir, file } = patchedGames(
      [
        "",
        "_perform = Tn01.perform_action",
        "def _picky(self, action, *a, **k):",
        "    if action.id.value == 5:",
        "        raise RuntimeError('ACTION5 is broken in this copy')",
        "    return _perform(self, action, *a, **k)",
        "Tn01.perform_action = _picky",
        "",
      ].join("\n"),
    );
    const env = arcLocalEnv({ gamesDir: dir, game: "tn01", seed: 0 })._unsafeUnwrap();
    try {
      expect((await env.reset()).isOk()).toBe(true);
      const e = (await env.step({ id: 5 }))._unsafeUnwrapErr();
      expect(e.code).toBe("game-error");
      expect(e.message).toContain("RuntimeError: ACTION5 is broken in this copy");
      expect(e.path).toBe(file);
      expect((await env.step({ id: 4 }))._unsafeUnwrap().frames[0]!.width).toBe(64);
    } finally {
      await env.close();
    }
  });

  test("a bridge that dies mid-run: the run ends game-failed with Python's stderr, and resumes to the uninterrupted log", async () => {
    const { dir } = patchedGames(
      [
        "",
        "import os as _os, sys as _sys",
        "_perform = Tn01.perform_action",
        "_calls = [0]",
        "def _dying(self, *a, **k):",
        "    _calls[0] += 1",
        "    if _calls[0] > int(_os.environ.get('PROLONG_TEST_DIE_AFTER', '1000000')):",
        "        _sys.stderr.write('simulated engine crash after %d calls\\n' % (_calls[0] - 1))",
        "        _sys.stderr.flush()",
        "        _os._exit(3)",
        "    return _perform(self, *a, **k)",
        "Tn01.perform_action = _dying",
        "",
      ].join("\n"),
    );
    // The uninterrupted log: the shared win (the patch changes nothing while PROLONG_TEST_DIE_AFTER is unset).
    const reference = await wonRun();
    process.env.PROLONG_TEST_DIE_AFTER = "8"; // the initial RESET + 7 actions
    let runDir: string;
    try {
      const s = (
        await startRun(newConfig(fields(dir))._unsafeUnwrap(), { runsRoot: tempRoot(), stamp: "t" }, { agent: tn01Agent() })
      )._unsafeUnwrap();
      const end = await runLoop(s, new AbortController().signal);
      expect(end.reason).toBe("game-failed");
      expect(end.detail).toContain("exited with status 3");
      expect(end.detail).toContain("simulated engine crash after 8 calls");
      expect(s.tally.action).toBe(7);
      await finishRun(s, end);
      runDir = s.paths.dir;
    } finally {
      delete process.env.PROLONG_TEST_DIE_AFTER;
    }
    const resumed = (await resumeRun(runDir, {}, { agent: tn01Agent() }))._unsafeUnwrap();
    const end = await runLoop(resumed, new AbortController().signal);
    expect(end.reason).toBe("win");
    await finishRun(resumed, end);
    expect(readFileSync(join(runDir, "logs.txt"), "utf8")).toBe(reference.master);
  });

  test("a game file that raises while loading, and one without the class named after the id: each named, with the fix", async () => {
    const raising = patchedGames("\nraise ValueError('broken on purpose')\n");
    const env = arcLocalEnv({ gamesDir: raising.dir, game: "tn01", seed: 0 })._unsafeUnwrap();
    const e = (await env.reset())._unsafeUnwrapErr();
    await env.close();
    expect(e.code).toBe("game-file");
    expect(e.path).toBe(raising.file);
    expect(e.message).toContain(`the game file ${raising.file} fails to load: ValueError: broken on purpose`);
    expect(e.fix).toContain("restore the file");
    const renamed = patchedGames("\nTn02 = Tn01\ndel Tn01\n");
    const env2 = arcLocalEnv({ gamesDir: renamed.dir, game: "tn01", seed: 0 })._unsafeUnwrap();
    const e2 = (await env2.reset())._unsafeUnwrapErr();
    await env2.close();
    expect(e2.message).toBe(`the game file ${renamed.file} has no ARCBaseGame subclass named Tn01`);
    expect(e2.fix).toContain("first four characters");
  });

  test("no engine on the path: the bridge says arcengine is not importable and how to provide it", async () => {
    const empty = mkdtempSync(join(tmpdir(), "prolong-no-engine-"));
    scratch.push(empty);
    const env = arcLocalEnv({ gamesDir: GAMES, game: "tn01", seed: 0, engineDir: empty })._unsafeUnwrap();
    const e = (await env.reset())._unsafeUnwrapErr();
    await env.close();
    expect(e.message).toContain("arcengine is not importable");
    expect(e.fix).toContain("PROLONG_ARC_ENGINE");
  });
});
