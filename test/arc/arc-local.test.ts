// --env arc-local against ARC's real engine and the real public games: the four published logs replay board
// for board, a published run played again by a scripted agent writes the published bytes, the explorer plays
// ft09, and a bridge that dies mid-run ends the run with Python's stderr and leaves it resumable.
// Needs PROLONG_ARC_ENGINE and PROLONG_ARC_GAMES (docs/arc.md); skipped with the reason printed otherwise.
import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, appendFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { replayLog } from "../../src/cli/replay.ts";
import { replayGridLog } from "../../src/run/replay.ts";
import { arcLocalEnv } from "../../src/game/arc/arc-local.ts";
import { parseLog, writeLog } from "../../src/log/format.ts";
import { newConfig } from "../../src/config/run-config.ts";
import { finishRun } from "../../src/run/finish.ts";
import { resumeRun } from "../../src/run/resume.ts";
import { runLoop } from "../../src/run/runner.ts";
import { startRun } from "../../src/run/start.ts";
import { playGame, tempRoot } from "../run/helpers.ts";
import { arcWithFixtures, FIXTURES, PUBLISHED } from "./arc-setup.ts";
import { publishedAgentCommand, publishedBatches } from "./published-agent.ts";

const setup = arcWithFixtures();
if (typeof setup === "string") console.log(`skipping the arc-local engine tests: ${setup}`);
const ready = typeof setup !== "string";
const games = ready ? setup.games : "";
const published = (name: string) => readFileSync(join(FIXTURES, name, "logs.txt"), "utf8");
const scratch: string[] = [];
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

describe.skipIf(!ready)("the published logs replay through ARC's engine", () => {
  for (const { name, version } of PUBLISHED) {
    test(`${name}: every board, animation frame and score matches ${version}`, async () => {
      const config = newConfig({ game: version, env: "arc-local", arcGames: games })._unsafeUnwrap();
      const r = await replayLog(join(FIXTURES, name, "logs.txt"), config);
      if (!r.ok) throw new Error(r.error.message);
      const sections = parseLog(published(name)).sections;
      expect(r.report.sections).toBe(sections.length);
      expect(r.report.boards).toBe(sections.reduce((n, s) => n + s.frames.length + 1, 0));
      expect(r.report.differences).toEqual([]);
      expect(r.report.firstDivergence).toBeNull();
    }, 120_000);
  }

  test("one changed cell in one animation frame is reported as that section, that frame, that cell", async () => {
    const text = published("ft09");
    const { sections } = parseLog(text);
    const k = sections.findIndex((s) => s.frames.length > 0);
    expect(k).toBeGreaterThan(0);
    const s = sections[k]!;
    const cells = s.frames[0]!.cells;
    cells[64 * 5 + 7] = (cells[64 * 5 + 7]! + 1) % 16;
    const dir = mkdtempSync(join(tmpdir(), "prolong-replay-"));
    scratch.push(dir);
    const edited = join(dir, "logs.txt");
    await Bun.write(edited, writeLog(sections, "ascii"));
    const config = newConfig({ game: "ft09-0d8bbf25", env: "arc-local", arcGames: games })._unsafeUnwrap();
    const r = await replayLog(edited, config);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.report.differences.length).toBe(1);
    expect(r.report.firstDivergence!.action).toBe(s.header.action);
    expect(r.report.firstDivergence!.what).toEqual([`frame 1/${s.frames.length}: 1 cell(s) differ, first at x=7, y=5`]);
  }, 120_000);
});

describe.skipIf(!ready)("playing ft09 under --env arc-local", () => {
  test("a scripted command agent replaying the published batches writes the published log byte for byte", async () => {
    const { sections } = parseLog(published("ft09"));
    const cmd = publishedAgentCommand(publishedBatches(sections));
    const root = tempRoot();
    scratch.push(root);
    const run = await playGame(
      { game: "ft09-0d8bbf25", env: "arc-local", arcGames: games, agent: "command", cmd, sandbox: "none", maxActions: 500 },
      root,
    );
    expect(run.end.reason).toBe("win");
    // Every byte is the published one except the [PLAN] text of later batch steps: the published harness kept
    // a separate short plan, ours repeats the answer's part after its last "[PLAN]" (prompts.ts splitPlan).
    // (format.ts's one documented normalisation applies too: a doubled [PLAN] line is escaped.)
    const ours = parseLog(run.master).sections;
    expect(ours.length).toBe(sections.length);
    expect(run.master).toBe(
      writeLog(
        sections.map((s, i) => ({ ...s, plan: ours[i]!.plan })),
        "ascii",
      ),
    );
    const heads = sections.filter((s) => s.header.planStep?.step === 1);
    expect(heads.length).toBe(9);
    for (const h of heads) expect(ours[h.header.action]!.plan).toBe(h.plan!.trim());
    const card = JSON.parse(readFileSync(join(FIXTURES, "ft09", "scorecard.json"), "utf8")) as {
      environments: { runs: { level_actions: number[]; score: number; state: string }[] }[];
    };
    const server = card.environments[0]!.runs.find((r) => r.state === "WIN")!;
    expect(run.summary.episodes[0]!.levelActions).toEqual(server.level_actions);
    expect(run.summary.rhae).toBe(server.score);
    expect(run.summary.levelsCompleted).toBe(6);
  }, 180_000);

  test("the built-in explorer plays it; its log re-writes to the same bytes and replays board for board", async () => {
    const root = tempRoot();
    scratch.push(root);
    const run = await playGame({ game: "ft09", env: "arc-local", arcGames: games, maxActions: 80 }, root);
    expect(run.end.reason === "max-actions" || run.end.reason === "win").toBe(true);
    const parsed = parseLog(run.master);
    expect(parsed.cut).toBeUndefined();
    expect(parsed.sections.length).toBe(run.summary.actions + 1);
    expect(writeLog(parsed.sections, "ascii")).toBe(run.master);
    expect(run.master.startsWith(published("ft09").slice(0, published("ft09").indexOf("\n\n", 200)))).toBe(true); // same initial board
    expect(run.summary.winLevels).toBe(6);
    const config = newConfig({ game: "ft09-0d8bbf25", env: "arc-local", arcGames: games })._unsafeUnwrap();
    const { openEnv } = await import("../../src/run/parts.ts");
    const { NO_ENV_CONTEXT } = await import("../../src/game/env.ts");
    const replayed = await replayGridLog(parsed.sections, () => openEnv(config, NO_ENV_CONTEXT));
    if (replayed.isErr()) throw new Error(replayed.error.message);
    expect(replayed.value.differences).toEqual([]);
  }, 180_000);
});

describe.skipIf(!ready)("a bridge that dies", () => {
  test("ends the run with Python's stderr tail; the run resumes to the log an uninterrupted run writes", async () => {
    // A copy of ft09 whose process exits hard after a number of engine calls set in the environment.
    const dir = mkdtempSync(join(tmpdir(), "prolong-dying-game-"));
    scratch.push(dir);
    cpSync(join(games, "ft09", "0d8bbf25"), join(dir, "ft09", "0d8bbf25"), { recursive: true });
    appendFileSync(
      join(dir, "ft09", "0d8bbf25", "ft09.py"),
      [
        "",
        "import os as _os, sys as _sys",
        "_perform = Ft09.perform_action",
        "_calls = [0]",
        "def _dying(self, *a, **k):",
        "    _calls[0] += 1",
        "    if _calls[0] > int(_os.environ.get('PROLONG_TEST_DIE_AFTER', '1000000')):",
        "        _sys.stderr.write('simulated engine crash after %d calls\\n' % (_calls[0] - 1))",
        "        _sys.stderr.flush()",
        "        _os._exit(3)",
        "    return _perform(self, *a, **k)",
        "Ft09.perform_action = _dying",
        "",
      ].join("\n"),
    );
    const cmd = publishedAgentCommand(publishedBatches(parseLog(published("ft09")).sections));
    const fields = {
      game: "ft09",
      env: "arc-local" as const,
      arcGames: dir,
      agent: "command" as const,
      cmd,
      sandbox: "none" as const,
      maxActions: 30,
    };
    const reference = await playGame(fields, tempRoot());
    scratch.push(reference.session.paths.dir);

    const root = tempRoot();
    scratch.push(root);
    process.env.PROLONG_TEST_DIE_AFTER = "12"; // the initial RESET + 11 actions
    let dirOfRun: string;
    try {
      const s = (await startRun(newConfig(fields)._unsafeUnwrap(), { runsRoot: root, stamp: "t" }))._unsafeUnwrap();
      const end = await runLoop(s, new AbortController().signal);
      expect(end.reason).toBe("game-failed");
      expect(end.detail).toContain("exited with status 3");
      expect(end.detail).toContain("simulated engine crash after 12 calls");
      expect(s.tally.action).toBe(11);
      await s.turn.env.close();
      s.events.close();
      s.index.close();
      s.master.close();
      s.lock.release(); // as the process would on exit
      dirOfRun = s.paths.dir;
    } finally {
      delete process.env.PROLONG_TEST_DIE_AFTER;
    }
    const resumed = (await resumeRun(dirOfRun))._unsafeUnwrap();
    const end = await runLoop(resumed, new AbortController().signal);
    expect(end.reason).toBe("max-actions");
    await finishRun(resumed, end);
    expect(readFileSync(join(dirOfRun, "logs.txt"), "utf8")).toBe(reference.master);
  }, 180_000);

  test("a game that raises while stepping is an error naming the game file, and the bridge stays usable", async () => {
    const dir = mkdtempSync(join(tmpdir(), "prolong-raising-game-"));
    scratch.push(dir);
    cpSync(join(games, "ft09", "0d8bbf25"), join(dir, "ft09", "0d8bbf25"), { recursive: true });
    appendFileSync(
      join(dir, "ft09", "0d8bbf25", "ft09.py"),
      [
        "",
        "_perform = Ft09.perform_action",
        "def _picky(self, action, *a, **k):",
        "    if action.id.value == 5:",
        "        raise RuntimeError('ACTION5 is broken in this copy')",
        "    return _perform(self, action, *a, **k)",
        "Ft09.perform_action = _picky",
        "",
      ].join("\n"),
    );
    const env = arcLocalEnv({ gamesDir: dir, game: "ft09", seed: 0 })._unsafeUnwrap();
    try {
      expect((await env.reset()).isOk()).toBe(true);
      const bad = await env.step({ id: 5 });
      const e = bad._unsafeUnwrapErr();
      expect(e.code).toBe("game-error");
      expect(e.message).toContain("RuntimeError: ACTION5 is broken in this copy");
      expect(e.path).toBe(join(dir, "ft09", "0d8bbf25", "ft09.py"));
      const after = await env.step({ id: 6, x: 14, y: 38 });
      expect(after._unsafeUnwrap().frames[0]!.width).toBe(64);
    } finally {
      await env.close();
    }
  }, 60_000);
});

describe.skipIf(!ready)("a broken game file, found by the engine", () => {
  const broken = (source: string) => {
    const dir = mkdtempSync(join(tmpdir(), "prolong-broken-game-"));
    scratch.push(dir);
    const file = join(dir, "ab12", "v1", "ab12.py");
    cpSync(join(games, "ft09", "0d8bbf25", "metadata.json"), join(dir, "ab12", "v1", "metadata.json"));
    Bun.spawnSync(["sed", "-i", "s/ft09-0d8bbf25/ab12-v1/", join(dir, "ab12", "v1", "metadata.json")]);
    appendFileSync(file, source);
    return { dir, file };
  };

  test("a file that raises while loading → named, with Python's own message and the fix", async () => {
    const { dir, file } = broken("import arcengine\nraise ValueError('broken on purpose')\n");
    const env = arcLocalEnv({ gamesDir: dir, game: "ab12", seed: 0 })._unsafeUnwrap();
    const e = (await env.reset())._unsafeUnwrapErr();
    await env.close();
    expect(e.code).toBe("game-file");
    expect(e.path).toBe(file);
    expect(e.message).toContain(`the game file ${file} fails to load: ValueError: broken on purpose`);
    expect(e.fix).toContain("restore the file");
  }, 60_000);

  test("a file without the class named after the id → named, with the naming rule", async () => {
    const { dir, file } = broken("x = 1\n");
    const env = arcLocalEnv({ gamesDir: dir, game: "ab12-v1", seed: 0 })._unsafeUnwrap();
    const e = (await env.reset())._unsafeUnwrapErr();
    await env.close();
    expect(e.code).toBe("game-file");
    expect(e.path).toBe(file);
    expect(e.message).toBe(`the game file ${file} has no ARCBaseGame subclass named Ab12`);
    expect(e.fix).toContain("first four characters");
  }, 60_000);
});
