// The run directories the hostile run-directory tests plant in (hostile-run-dir.test.ts and its slow half): a
// finished run and an interrupted one, played once per file, copied for each case; and the matrix of the six
// commands that read a run directory, each given one with something not a regular file at one of its names.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { newConfig } from "../../src/config/run-config.ts";
import { runLoop } from "../../src/run/runner.ts";
import { startRun } from "../../src/run/start.ts";
import { playGame } from "../run/helpers.ts";
import { prolong as prolongProcess } from "../support/prolong-process.ts";

/** Where a file's cases live, removed after its last test. */
export const root = mkdtempSync(path.join(tmpdir(), "prolong-hostile-run-dir-"));

/** The CLI's bound: a command that hangs is killed and shows as code null (the assertion fails). */
export const BOUND = { timeoutMs: 30_000 };

let n = 0;
/** A number no other case of the file has used (for names under root). */
export const nextId = () => n++;

/** The base runs, set by useBaseRuns' beforeAll. */
export const base = { finished: "", interrupted: "" };

/** A copy of a base run directory, to plant in. */
export function copyOf(dir: string): string {
  const copy = path.join(root, `case-${nextId()}`);
  execFileSync("cp", ["-a", dir, copy]);
  return copy;
}

/** Plays the base runs before the file's first test, and removes root after its last. */
export function useBaseRuns(): void {
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  beforeAll(async () => {
    // A finished run, played through the real loop in this process: the commands given it are the processes.
    const played = await playGame({ game: "glide", maxActions: 12 }, path.join(root, "runs"));
    expect(played.end.reason).toBe("max-actions");
    base.finished = played.session.paths.dir;
    // An interrupted run, as Ctrl-C leaves one: resumable, with two actions left (a resume that holds plays them
    // and finishes the run: every file is met, none is played for long).
    const config = newConfig({ game: "glide", maxActions: 8 })._unsafeUnwrap();
    const stop = new AbortController();
    const s = (
      await startRun(config, {
        runsRoot: root,
        stamp: "interrupted",
        onProgress: (x) => {
          if (x.tally.action >= 6) stop.abort();
        },
      })
    )._unsafeUnwrap();
    await runLoop(s, stop.signal);
    s.events.close();
    s.index.close();
    s.master.close();
    s.lock.release();
    base.interrupted = s.paths.dir;
  }, 120_000);
}

const READERS: Record<string, (dir: string) => string[]> = {
  view: (dir) => ["view", dir, "-o", path.join(dir, "..", `${path.basename(dir)}.html`)],
  report: (dir) => ["report", dir, "-o", path.join(dir, "..", `${path.basename(dir)}-report.html`)],
  score: (dir) => ["score", dir],
  replay: (dir) => ["replay", dir],
  resume: (dir) => ["resume", dir],
  verify: (dir) => ["verify", dir],
};

const PLANTS = {
  "a FIFO": (at: string) => {
    rmSync(at, { force: true });
    execFileSync("mkfifo", [at]);
  },
  "a symlink to /dev/zero": (at: string) => {
    rmSync(at, { force: true });
    symlinkSync("/dev/zero", at);
  },
};

/** For each plant named, at each of three names: view, report, score, replay, resume and verify each end, none reads it. */
export function defineNotRegularFiles(plants: readonly (keyof typeof PLANTS)[]): void {
  for (const name of ["events.jsonl", "run.json", "scorecard.json"]) {
    for (const plant of plants) {
      const make = PLANTS[plant];
      test(`${name} as ${plant}: view, report, score, replay, resume and verify each end, none reads it`, () => {
        // Each command in a copy of its own, one after another. (Run at once they cost more CPU than they saved
        // wall time on two cores: measured.)
        const commands = Object.entries(READERS).map(([cmd, argv]) => {
          const dir = copyOf(cmd === "resume" ? base.interrupted : base.finished);
          make(path.join(dir, name));
          return [cmd, argv(dir)] as const;
        });
        const ended = commands.map(([, argv]) => prolongProcess(argv, BOUND));
        for (const [i, r] of ended.entries()) {
          const cmd = commands[i]![0];
          // Ended by itself (a hang is killed by the bound and has no code), and no stack trace.
          expect({ cmd, code: r.code === null ? "hung" : "ended" }).toEqual({ cmd, code: "ended" });
          expect(r.err).not.toMatch(/RangeError|ERR_|    at /);
          // Where the command reads the file, it names it and what stands there.
          if (r.code !== 0 && (r.err + r.out).includes(name)) expect(r.err + r.out).toMatch(/FIFO|symlink|not a regular file/);
        }
      }, 240_000);
    }
  }
}
