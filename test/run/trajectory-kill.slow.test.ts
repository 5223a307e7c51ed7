// kill -9 of the real CLI during a run of a shell agent, at points chosen by the run's own event stream (an
// action, or an agent call: mid-turn), then `prolong resume`: every resumed trajectory equals the uninterrupted
// run's apart from timings — the same turns, numbered alike, with the same calls and outputs.
import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { readTrajectory, type TrajectoryRecord } from "../../src/run-files/trajectory.ts";
import { BUN, MAIN, playAndKill } from "../support/prolong-process.ts";
import { tempRoot } from "./helpers.ts";

const ACTIONS = 8;
/** Greps the log, sleeps a little (so a kill can land inside the call), moves right. */
const AGENT = `n=$(grep -c '^Action ' logs.txt); sleep 0.3; printf '{"actions":["ACTION4"]}' > actions.json; echo "saw $n"`;
const PLAY = [
  "play",
  "glide",
  "--agent",
  "command",
  "--cmd",
  AGENT,
  "--max-actions",
  String(ACTIONS),
  "--sandbox",
  "none",
  "--quiet",
];

function untimed(records: readonly TrajectoryRecord[]): unknown[] {
  return records.map((r) => (r.kind === "model" ? r : { ...r, ms: 0 }));
}

function trajectoryOf(root: string): unknown[] {
  const stamp = readdirSync(root)[0]!;
  return untimed(readTrajectory(join(root, stamp, "glide", "trajectory.jsonl"))._unsafeUnwrap());
}

describe("kill -9, then prolong resume: the trajectory", () => {
  test("killed after an action or inside an agent call: the resumed trajectory is the uninterrupted one's, timings aside", async () => {
    const whole = tempRoot();
    expect(Bun.spawnSync([BUN, MAIN, ...PLAY, "--runs-dir", whole]).exitCode).toBe(0);
    const reference = trajectoryOf(whole);
    expect(reference.filter((r) => (r as TrajectoryRecord).kind === "turn").length).toBe(ACTIONS);
    let landed = 0;
    for (const [kind, field, at] of [
      ["action", "action", 2],
      ["agent-call", "turn", 4],
      ["action", "action", 6],
      ["agent-call", "turn", 7],
    ] as const) {
      const root = tempRoot();
      if (await playAndKill([...PLAY, "--runs-dir", root], (e) => e["kind"] === kind && Number(e[field]) >= at)) landed++;
      const stamp = readdirSync(root)[0]!;
      const r = Bun.spawnSync([BUN, MAIN, "resume", join(root, stamp, "glide"), "--quiet"], { stderr: "pipe" });
      if (r.exitCode !== 0) expect(r.stderr.toString()).toContain("this run already ended");
      expect(trajectoryOf(root)).toEqual(reference);
    }
    expect(landed).toBeGreaterThan(0);
  }, 600_000);
});
