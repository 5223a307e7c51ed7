// Resume: a run interrupted anywhere — by Ctrl-C, by kill -9, mid-batch, mid-append — and resumed from its own
// log must write exactly the bytes an uninterrupted run writes.
import { describe, expect, test } from "bun:test";
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { newConfig } from "../../src/config/run-config.ts";
import { finishRun } from "../../src/run/finish.ts";
import { resumeRun } from "../../src/run/resume.ts";
import { runLoop } from "../../src/run/runner.ts";
import { startRun } from "../../src/run/start.ts";
import { playGame, tempRoot } from "./helpers.ts";

const ROOT = join(import.meta.dir, "../..");
const BUN = process.execPath;
const GAME = { game: "glide", maxActions: 120 } as const;

/** Starts a run and stops it (as Ctrl-C does) once `stopAt` actions are in the log; returns its directory. */
async function interruptedRun(stopAt: number, root: string): Promise<string> {
  const config = newConfig(GAME)._unsafeUnwrap();
  const stop = new AbortController();
  const s = (await startRun(config, { runsRoot: root, stamp: "t", onProgress: (x) => { if (x.tally.action >= stopAt) stop.abort(); } }))._unsafeUnwrap();
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
    appendFileSync(log, "\n" + "=".repeat(80) + "\nAction 21 | Level 2 | Attempt 1 | Plan Step 2/5 | Score: 1\n\n[POST-ACTION BOARD STATE]\nOOOO");
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

  test("kill -9 at 20 random moments: every resumed log is byte-identical to the uninterrupted run", async () => {
    const cli = (args: string[]) => [join(ROOT, "src/main.ts"), ...args];
    let seed = 20261201;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    // Kill times are spread over the length of a whole run of the CLI on this machine, measured first.
    const t0 = performance.now();
    const whole = spawnSync(BUN, cli(["play", "glide", "--max-actions", "120", "--runs-dir", tempRoot(), "--quiet"]));
    expect(whole.status).toBe(0);
    const runMs = performance.now() - t0;
    let killsThatLanded = 0;
    for (let trial = 0; trial < 20; trial++) {
      const root = tempRoot();
      const child = spawn(BUN, cli(["play", "glide", "--max-actions", "120", "--runs-dir", root, "--quiet"]), { stdio: "ignore" });
      const delay = Math.floor(runMs * (0.1 + 0.85 * random()));
      const exited = await new Promise<boolean>((res) => {
        const t = setTimeout(() => { child.kill("SIGKILL"); res(false); }, delay);
        child.on("exit", () => { clearTimeout(t); res(true); });
      });
      if (!exited) {
        killsThatLanded++;
        await new Promise((res) => child.on("close", res));
      }
      const stamp = readdirSync(root)[0];
      if (stamp === undefined) continue; // killed before the run directory existed: nothing to resume
      const dir = join(root, stamp, "glide");
      if (!existsSync(join(dir, "index.sqlite"))) continue;
      if (!exited) {
        const r = spawnSync(BUN, cli(["resume", dir, "--quiet"]), { encoding: "utf8" });
        // A kill that lands after the run recorded its end leaves nothing to resume; resume says so.
        if (r.status !== 0) expect(r.stderr).toContain("this run already ended");
        else expect(r.stderr).toBe("");
      }
      expect(readFileSync(join(dir, "logs.txt"), "utf8")).toBe(reference);
    }
    expect(killsThatLanded).toBeGreaterThan(10);
  }, 180_000);
});
