// Resume: a run interrupted anywhere — by Ctrl-C, mid-batch, mid-append — and resumed from its own log must
// write exactly the bytes an uninterrupted run writes (kill -9 of the real CLI: kill.slow.test.ts).
import { describe, expect, test } from "bun:test";
import { appendFileSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { newConfig } from "../../src/config/run-config.ts";
import { finishRun } from "../../src/run/finish.ts";
import { resumeRun } from "../../src/run/resume.ts";
import { runLoop } from "../../src/run/runner.ts";
import { startRun } from "../../src/run/start.ts";
import { playGame, tempRoot } from "./helpers.ts";

const GAME = { game: "glide", maxActions: 120 } as const;

/** Starts a run and stops it (as Ctrl-C does) once `stopAt` actions are in the log; returns its directory. */
async function interruptedRun(stopAt: number, root: string): Promise<string> {
  const config = newConfig(GAME)._unsafeUnwrap();
  const stop = new AbortController();
  const s = (
    await startRun(config, {
      runsRoot: root,
      stamp: "t",
      onProgress: (x) => {
        if (x.tally.action >= stopAt) stop.abort();
      },
    })
  )._unsafeUnwrap();
  const end = await runLoop(s, stop.signal);
  expect(end.reason).toBe("interrupted");
  s.events.close();
  s.index.close();
  s.master.close();
  s.lock.release(); // as the process would on exit
  return s.paths.dir;
}

async function resumeToEnd(dir: string): Promise<string> {
  const s = (await resumeRun(dir))._unsafeUnwrap();
  const end = await runLoop(s, new AbortController().signal);
  await finishRun(s, end);
  return readFileSync(join(dir, "logs.txt"), "utf8");
}

describe("resume", async () => {
  const reference = (await playGame(GAME)).master;

  test("stopped after 1, 7 (mid-batch), 33 and 119 actions, the resumed log is byte-identical", async () => {
    for (const k of [1, 7, 33, 119]) {
      const dir = await interruptedRun(k, tempRoot());
      expect(await resumeToEnd(dir)).toBe(reference);
    }
  });

  test("a section torn by a crash mid-append is moved aside and the run goes on identically", async () => {
    const dir = await interruptedRun(20, tempRoot());
    const log = join(dir, "logs.txt");
    const before = readFileSync(log);
    appendFileSync(
      log,
      "\n" + "=".repeat(80) + "\nAction 21 | Level 2 | Attempt 1 | Plan Step 2/5 | Score: 1\n\n[POST-ACTION BOARD STATE]\nOOOO",
    );
    expect(await resumeToEnd(dir)).toBe(reference);
    const aside = readdirSync(dir).filter((f) => f.startsWith("torn-"));
    expect(aside).toEqual([`torn-${before.length}.bin`]);
    expect(readFileSync(join(dir, aside[0]!), "utf8")).toEndWith("[POST-ACTION BOARD STATE]\nOOOO");
  });

  test("a master edited outside prolong is refused, naming the section", async () => {
    const dir = await interruptedRun(10, tempRoot());
    const log = join(dir, "logs.txt");
    const text = readFileSync(log, "utf8");
    const at = text.indexOf("Action 3 |");
    writeFileSync(log, text.slice(0, at) + "Action 9 |" + text.slice(at + 10));
    const r = await resumeRun(dir);
    expect(r.isErr()).toBe(true);
    expect(r._unsafeUnwrapErr().code).toBe("master-changed");
    expect(r._unsafeUnwrapErr().message).toContain("section 3");
  });

  test("a finished run and a foreign directory are refused with the reason", async () => {
    const run = await playGame({ game: "glide", maxActions: 5 });
    const ended = await resumeRun(run.session.paths.dir);
    expect(ended._unsafeUnwrapErr().code).toBe("run-ended");
    const foreign = await resumeRun(tempRoot());
    expect(foreign._unsafeUnwrapErr().code).toBe("not-a-run");
  });
});
