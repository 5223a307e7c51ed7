// trajectory.jsonl as the loop writes it: one turn record per agent call (failed ones too) with the size of
// the log the agent was given, then its steps; the same after an interruption and `prolong resume`, apart
// from timings, even when the interruption cut a call; and the file's own rules (a cut line, a bad line).
import { describe, expect, test } from "bun:test";
import { appendFileSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RunIndex } from "../../src/log/run-index.ts";
import { readState, saveState } from "../../src/run/saved-state.ts";
import { appendTurn, readTrajectory, toolStep, turnLines, type TrajectoryRecord } from "../../src/run-files/trajectory.ts";
import { play, resumeToEnd, tempRoot } from "../agent/backends/helpers.ts";

/** Greps the log, fails its first call (exit 1), then moves right; says how many sections it saw. */
const AGENT = [
  `n=$(grep -c '^Action ' logs.txt)`,
  `if [ "$PROLONG_TURN" = 1 ]; then echo 'not yet' >&2; exit 1; fi`,
  `printf '{"actions":["ACTION4"]}' > actions.json`,
  `echo "saw $n sections"`,
].join("; ");

// No sandbox: what is tested is the loop's records, and each call then costs a shell, not a bubblewrap start.
const config = { game: "glide", agent: "command" as const, cmd: AGENT, maxActions: 4, agentRetries: 1, sandbox: "none" as const };

/** The records with every timing set to 0 (what may differ between two runs of the same agent). */
function untimed(records: readonly TrajectoryRecord[]): unknown[] {
  return records.map((r) => (r.kind === "turn" ? { ...r, ms: 0 } : r.kind === "tool" ? { ...r, ms: 0 } : r));
}

describe("trajectory.jsonl", () => {
  test("a turn record per call, failed calls included, with the log size given; the command's one step", async () => {
    const run = await play(config);
    expect(run.end.reason).toBe("max-actions");
    const records = readTrajectory(run.session.paths.trajectory)._unsafeUnwrap();
    const turns = records.filter((r) => r.kind === "turn");
    expect(turns.map((t) => [t.turn, t.status])).toEqual([
      [1, "failed"],
      [2, "ok"],
      [3, "ok"],
      [4, "ok"],
      [5, "ok"],
    ]);
    expect(turns[0]!.error).toContain("exited with status 1");
    // The log the agent had: the copy's size at the call, growing by one section a turn.
    const sizes = turns.map((t) => t.logBytes);
    expect(sizes[0]).toBe(sizes[1]!);
    expect(sizes[2]!).toBeGreaterThan(sizes[1]!);
    const tools = records.filter((r) => r.kind === "tool");
    expect(tools.map((t) => [t.turn, t.step, t.tool, t.exit, t.output.head.text])).toEqual([
      [2, 1, "command", 0, "saw 1 sections\n"],
      [3, 1, "command", 0, "saw 2 sections\n"],
      [4, 1, "command", 0, "saw 3 sections\n"],
      [5, 1, "command", 0, "saw 4 sections\n"],
    ]);
    expect(tools[0]!.input.text).toBe(AGENT);
  });

  test("interrupted and resumed, even mid-call: the same trajectory as an uninterrupted run, apart from timings", async () => {
    const whole = await play(config, { root: tempRoot() });
    const reference = untimed(readTrajectory(whole.session.paths.trajectory)._unsafeUnwrap());
    for (const stopAfter of [1, 3]) {
      const first = await play(config, { root: tempRoot(), stopAfter });
      const resumed = await resumeToEnd(first.session.paths.dir);
      expect(resumed.end.reason).toBe("max-actions");
      expect(untimed(readTrajectory(first.session.paths.trajectory)._unsafeUnwrap())).toEqual(reference);
    }
    // A call cut by a crash: it was counted (agentCalls saved before the call) and never recorded. Resume calls it
    // again as the same turn, not the next one.
    const cut = await play(config, { root: tempRoot(), stopAfter: 2 });
    const index = RunIndex.open(cut.session.paths.index)._unsafeUnwrap();
    expect(readState(index, "agentCalls")._unsafeUnwrap()).toBe(3);
    saveState(index, { agentCalls: 4 })._unsafeUnwrap();
    index.close();
    const resumed = await resumeToEnd(cut.session.paths.dir);
    expect(resumed.end.reason).toBe("max-actions");
    expect(untimed(readTrajectory(cut.session.paths.trajectory)._unsafeUnwrap())).toEqual(reference);
  }, 60_000);

  test("a line cut by a crash is dropped by the reader and removed before the next turn is appended", () => {
    const path = join(tempRoot(), "trajectory.jsonl");
    const step = toolStep({ tool: "Bash", act: "shell", input: "ls", output: "a\nb\n", exit: 0, ms: 3 });
    const turn = (n: number) => turnLines({ turn: n, backend: "claude", status: "ok", logBytes: 10, ms: 5 }, [step]);
    appendTurn(path, turn(1))._unsafeUnwrap();
    appendFileSync(path, '{"kind":"turn","turn":2,"bac');
    expect(readTrajectory(path)._unsafeUnwrap().length).toBe(2);
    appendTurn(path, turn(2))._unsafeUnwrap();
    const records = readTrajectory(path)._unsafeUnwrap();
    expect(records.map((r) => [r.kind, r.turn])).toEqual([
      ["turn", 1],
      ["tool", 1],
      ["turn", 2],
      ["tool", 2],
    ]);
    expect(records[1]).toMatchObject({ step: 1, output: { bytes: 4, lines: 2 } });
    expect(readFileSync(path, "utf8").endsWith("\n")).toBe(true);
    expect(statSync(path).size).toBeGreaterThan(0);
  });

  test("a bad line is an error naming the line and the field; a long output is cut with the cut stated", () => {
    const path = join(tempRoot(), "trajectory.jsonl");
    writeFileSync(path, `${JSON.stringify({ kind: "turn", turn: 1, backend: "x", status: "ok", logBytes: -1, ms: 0 })}\n`);
    const e = readTrajectory(path)._unsafeUnwrapErr();
    expect(e.message).toContain("line 1: field logBytes");
    expect(e.path).toBe(path);
    const long = toolStep({ tool: "Bash", act: "shell", input: "x".repeat(5000), output: "y\n".repeat(1000) });
    expect(long.kind === "tool" && long.input).toEqual({ text: "x".repeat(2000), chars: 5000 });
    expect(long.kind === "tool" && long.output).toMatchObject({ bytes: 2000, lines: 1000, head: { chars: 2000 } });
  });
});
