// run.json records what started a run (the build, the outside parts, the game's content hash); resume refuses
// another build unless told --allow-mixed-builds (the scorecard then names both), and always refuses a game
// whose content changed. Runs from before run.json held provenance still resume and score.
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildId } from "../../src/build-id.ts";
import { newConfig, readConfigFile } from "../../src/config/run-config.ts";
import { finishRun } from "../../src/run/finish.ts";
import { resumeRun, type ResumeOptions } from "../../src/run/resume.ts";
import { runLoop } from "../../src/run/runner.ts";
import { startRun } from "../../src/run/start.ts";
import { readScorecard } from "../../src/score/scorecard.ts";
import { playGame, tempRoot } from "./helpers.ts";

const GAME = { game: "glide", maxActions: 40 } as const;

/** A run stopped (as by Ctrl-C) after a few actions; its directory. */
async function interruptedRun(): Promise<string> {
  const stop = new AbortController();
  const s = (
    await startRun(newConfig(GAME)._unsafeUnwrap(), {
      runsRoot: tempRoot(),
      stamp: "t",
      onProgress: (x) => {
        if (x.tally.action >= 5) stop.abort();
      },
    })
  )._unsafeUnwrap();
  expect((await runLoop(s, stop.signal)).reason).toBe("interrupted");
  s.events.close();
  s.index.close();
  s.master.close();
  s.lock.release();
  return s.paths.dir;
}

type Json = Record<string, unknown> & { provenance?: Record<string, unknown> & { build: Record<string, unknown> } };
const runJson = (dir: string) => JSON.parse(readFileSync(join(dir, "run.json"), "utf8")) as Json;
const editRunJson = (dir: string, edit: (j: Json) => void) => {
  const j = runJson(dir);
  edit(j);
  writeFileSync(join(dir, "run.json"), JSON.stringify(j, null, 2));
};

async function resumeToEnd(dir: string, opts: ResumeOptions = {}) {
  const s = (await resumeRun(dir, opts))._unsafeUnwrap();
  await finishRun(s, await runLoop(s, new AbortController().signal));
  return readScorecard(join(dir, "scorecard.json"))._unsafeUnwrap();
}

describe("provenance in run.json", () => {
  test("run.json records the build, the outside parts and the game's content hash; its settings still read alone", async () => {
    const played = await playGame(GAME);
    const dir = played.session.paths.dir;
    const j = runJson(dir);
    const card = readScorecard(join(dir, "scorecard.json"))._unsafeUnwrap();
    expect(j.provenance?.build).toEqual({ ...buildId() });
    expect(j.provenance?.game).toBe(card.game_version!);
    expect(card.provenance).toEqual({ build: { ...buildId() }, parts: {} });
    expect(readConfigFile(join(dir, "run.json"))._unsafeUnwrap()).toEqual(played.session.config);
  });

  test("resume refuses a run started by another build, naming the difference and the commit to check out", async () => {
    const dir = await interruptedRun();
    editRunJson(dir, (j) => {
      j.provenance!.build.code = "0123456789abcdef";
      j.provenance!.build.commit = "a".repeat(40);
    });
    const r = await resumeRun(dir);
    expect(r.isErr()).toBe(true);
    const e = r._unsafeUnwrapErr();
    expect(e.code).toBe("other-build");
    expect(e.message).toContain("build: 0.1.0 at aaaaaaa, code 0123456789abcdef vs");
    expect(e.message).toContain(`code ${buildId().code}`);
    expect(e.fix).toContain("git checkout aaaaaaaaaaaa");
    expect(e.fix).toContain("--allow-mixed-builds");
  });

  test("--allow-mixed-builds goes on; the scorecard keeps the starting build and names the resuming one", async () => {
    const dir = await interruptedRun();
    editRunJson(dir, (j) => {
      j.provenance!.build.code = "0123456789abcdef";
    });
    const card = await resumeToEnd(dir, { allowMixedBuilds: true });
    expect(card.provenance?.build.code).toBe("0123456789abcdef");
    expect(card.provenance?.parts["resumed by"]).toContain(`code ${buildId().code}`);
  });

  test("a game whose content changed since the start is refused, even with --allow-mixed-builds", async () => {
    const dir = await interruptedRun();
    const version = runJson(dir).provenance?.game as string;
    editRunJson(dir, (j) => {
      j.provenance!.game = "000000000000";
    });
    const e = (await resumeRun(dir, { allowMixedBuilds: true }))._unsafeUnwrapErr();
    expect(e.code).toBe("game-changed");
    expect(e.message).toContain(`version 000000000000, now ${version}`);
  });

  test("a run from before run.json held provenance resumes, and its scorecard gets this build's", async () => {
    const dir = await interruptedRun();
    editRunJson(dir, (j) => {
      delete j.provenance;
    });
    const card = await resumeToEnd(dir);
    expect(card.provenance?.build).toEqual({ ...buildId() });
  });

  test("resume --max-billed-tokens rewrites run.json and keeps its provenance", async () => {
    const dir = await interruptedRun();
    const before = runJson(dir).provenance;
    const s = (await resumeRun(dir, { maxBilledTokens: 1_000 }))._unsafeUnwrap();
    s.events.close();
    s.index.close();
    s.master.close();
    s.lock.release();
    expect(runJson(dir).maxBilledTokens).toBe(1_000);
    expect(runJson(dir).provenance).toEqual(before);
  });

  test("a provenance edited into another shape is refused by name", async () => {
    const dir = await interruptedRun();
    editRunJson(dir, (j) => {
      j.provenance!.build.code = "not hex";
    });
    const e = (await resumeRun(dir))._unsafeUnwrapErr();
    expect(e.message).toContain("provenance.build.code");
    expect(e.path).toBe(join(dir, "run.json"));
  });

  test("--allow-mixed-builds with a batch's directory is refused (each run is checked on its own), not ignored", () => {
    const batch = tempRoot();
    writeFileSync(join(batch, "plan.json"), "{}");
    const r = Bun.spawnSync([
      process.execPath,
      join(import.meta.dir, "../../src/main.ts"),
      "resume",
      batch,
      "--allow-mixed-builds",
    ]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.toString()).toContain("--allow-mixed-builds waives one run's build check");
  });
});
