// The loop over injected parts: a run plays whatever game, agent, clock and event sink it is given, tells a
// failed game from failed run files, keeps what an environment reports, and resume reads the saved batch
// back through its schema.
import { describe, expect, test } from "bun:test";
import type { Database } from "bun:sqlite";
import { err, ok } from "neverthrow";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Agent } from "../../src/agent/agent.ts";
import { prolongError } from "../../src/errors.ts";
import { localEnv, type EnvContext, type GameEnv } from "../../src/game/env.ts";
import { createGame } from "../../src/game/catalog.ts";
import { RunIndex } from "../../src/log/run-index.ts";
import { newConfig } from "../../src/config/run-config.ts";
import type { EventSink } from "../../src/run-files/events.ts";
import { finishRun } from "../../src/run/finish.ts";
import { resumeRun } from "../../src/run/resume.ts";
import { runLoop } from "../../src/run/runner.ts";
import { startRun } from "../../src/run/start.ts";
import { playGame, tempRoot } from "./helpers.ts";

/** An agent that asks for the same actions every turn, written as actions.json like any agent. */
function scriptedAgent(entries: string[]): Agent {
  return {
    name: "scripted",
    async turn(input) {
      writeFileSync(join(input.workspace, "actions.json"), JSON.stringify({ actions: entries }));
      return ok({ text: "[PLAN]\nmove", toolCalls: 0, tokens: { input: 0, cached: 0, output: 0 }, wallMs: 0, exitCode: 0 });
    },
  };
}

function glide(): GameEnv {
  return localEnv(createGame("glide", { seed: 0 })._unsafeUnwrap());
}

/** glide whose step fails from the `failAt`-th step on (a bridge or server that died). */
function dyingGlide(failAt: number): GameEnv {
  const env = glide();
  let steps = 0;
  return {
    ...env,
    info: env.info,
    step: async (a) => (++steps >= failAt ? err(prolongError("bridge-died", "the game process exited")) : env.step(a)),
  };
}

describe("a run over injected parts", () => {
  test("a game that fails ends the run as game-failed, resumable", async () => {
    const run = await playGame({ game: "glide", maxActions: 20 }, tempRoot(), {
      env: () => ok(dyingGlide(5)),
      agent: scriptedAgent(["ACTION1", "ACTION2"]),
    });
    expect(run.end).toEqual({ reason: "game-failed", detail: "the game process exited" });
    const index = RunIndex.open(run.session.paths.index)._unsafeUnwrap();
    expect(index.getState("ended")._unsafeUnwrap()).toBeUndefined();
    index.close();
  });

  test("an event sink that cannot write ends the run as log-failed, not game-failed", async () => {
    let writes = 0;
    const events: EventSink = {
      emit(kind, fields) {
        if (++writes > 4) return err(prolongError("events-write", "cannot append to the event log: ENOSPC"));
        return ok({ time: "", run: "t", kind, ...fields } as never);
      },
      close() {},
    };
    const run = await playGame({ game: "glide", maxActions: 20 }, tempRoot(), { events, agent: scriptedAgent(["ACTION1"]) });
    expect(run.end.reason).toBe("log-failed");
    expect(run.end.detail).toContain("ENOSPC");
  });

  test("an index that cannot be written ends the run as log-failed with the fix, and resume finishes it", async () => {
    // Enough actions that the index needs pages past the cap (its rows are small; a page holds dozens).
    const config = newConfig({ game: "glide", maxActions: 300 })._unsafeUnwrap();
    const s = (
      await startRun(config, { runsRoot: tempRoot(), stamp: "t" }, { agent: scriptedAgent(["ACTION1", "ACTION2"]) })
    )._unsafeUnwrap();
    // SQLite's own size cap on this connection: the index's next page is refused with SQLITE_FULL, as on a full disk.
    const db = (s.index as unknown as { db: Database }).db;
    const pages = (db.query("PRAGMA page_count").get() as { page_count: number }).page_count;
    db.run(`PRAGMA max_page_count = ${pages}`);
    const end = await runLoop(s, new AbortController().signal);
    expect(end.reason).toBe("log-failed");
    expect(end.detail).toContain("run index");
    expect(end.detail).toContain(`prolong resume ${s.paths.dir}`);
    expect(s.tally.action).toBeLessThan(300);
    s.events.close();
    s.index.close();
    s.master.close();
    s.lock.release();
    const again = (await resumeRun(s.paths.dir, {}, { agent: scriptedAgent(["ACTION1", "ACTION2"]) }))._unsafeUnwrap();
    expect((await runLoop(again, new AbortController().signal)).reason).toBe("max-actions");
    await finishRun(again, { reason: "max-actions", detail: "" });
  });

  test("the clock given is the one the run's time is measured on", async () => {
    let now = 1_000_000;
    const clock = { now: () => (now += 250), every: () => () => {} };
    const run = await playGame({ game: "glide", maxActions: 3 }, tempRoot(), { clock, agent: scriptedAgent(["ACTION1"]) });
    // Every reading moves the fake clock by 250 ms: the wall time is a whole multiple of it, and the
    // event times come from it too.
    expect(run.summary.wallMs % 250).toBe(0);
    expect(run.summary.wallMs).toBeGreaterThan(0);
    expect(new Date(run.events[0]!.time).getTime()).toBeGreaterThanOrEqual(1_000_000);
    expect(new Date(run.events[0]!.time).getTime()).toBeLessThan(1_100_000);
  });

  test("what an environment reports goes into the run directory and the end of summary.txt; a harness file name is refused", async () => {
    let context: EnvContext | null = null;
    const env = (c: EnvContext) => {
      context = c;
      const g = glide();
      return ok({
        ...g,
        info: g.info,
        close: async () => {
          c.saveFile("extra.json", "{}\n");
          c.saveFile("logs.txt", "overwritten");
          c.summaryLine("  link       https://example.test/replay");
        },
      });
    };
    const run = await playGame({ game: "glide", maxActions: 2 }, tempRoot(), { env, agent: scriptedAgent(["ACTION1"]) });
    expect(context).not.toBeNull();
    expect(readFileSync(join(run.session.paths.dir, "extra.json"), "utf8")).toBe("{}\n");
    expect(run.master).not.toContain("overwritten");
    const summary = readFileSync(run.session.paths.summary, "utf8");
    expect(summary).toContain("'logs.txt', which is not a name it may use");
    expect(summary.trimEnd().split("\n").at(-1)).toBe("  link       https://example.test/replay");
  });
});

describe("the pending batch on resume", () => {
  async function stoppedMidBatch(): Promise<string> {
    const config = newConfig({ game: "glide", maxActions: 30 })._unsafeUnwrap();
    const stop = new AbortController();
    const s = (
      await startRun(
        config,
        {
          runsRoot: tempRoot(),
          stamp: "t",
          onProgress: (x) => {
            if (x.tally.action >= 2) stop.abort();
          },
        },
        { agent: scriptedAgent(["ACTION1", "ACTION2", "ACTION3", "ACTION4"]) },
      )
    )._unsafeUnwrap();
    expect((await runLoop(s, stop.signal)).reason).toBe("interrupted");
    s.events.close();
    s.index.close();
    s.master.close();
    s.lock.release(); // as the process would on exit
    return s.paths.dir;
  }

  test("is stored as typed actions and finished exactly after a resume", async () => {
    const dir = await stoppedMidBatch();
    const index = RunIndex.open(join(dir, "index.sqlite"))._unsafeUnwrap();
    expect(index.getState("pending")._unsafeUnwrap()).toMatchObject({
      actions: [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }],
      firstAction: 1,
    });
    index.close();
    const s = (await resumeRun(dir, {}, { agent: scriptedAgent(["ACTION1"]) }))._unsafeUnwrap();
    expect(s.turn.pending?.actions.slice(s.tally.action)).toEqual([{ id: 3 }, { id: 4 }]);
    await finishRun(s, await runLoop(s, new AbortController().signal));
    expect(readFileSync(join(dir, "logs.txt"), "utf8")).toMatch(/Action 4 \| Level \d+ \| Attempt \d+ \| Plan Step 4\/4/);
  });

  test("a saved batch that does not match the schema is refused, naming the field", async () => {
    const dir = await stoppedMidBatch();
    const index = RunIndex.open(join(dir, "index.sqlite"))._unsafeUnwrap();
    index.setState("pending", { turn: 1, text: "", actions: [{ id: 6, x: 99, y: 0 }], firstAction: 1 });
    index.close();
    const r = await resumeRun(dir, {}, { agent: scriptedAgent(["ACTION1"]) });
    expect(r._unsafeUnwrapErr().code).toBe("bad-index");
    expect(r._unsafeUnwrapErr().message).toContain("actions.0");
  });
});
