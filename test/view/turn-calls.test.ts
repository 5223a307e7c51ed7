// The view's step panel: each batch's step shows the tool calls of the turn that chose it — found from the
// agent-call events (the action count at the call) and the trajectory — and a failed call shows nothing.
import { describe, expect, test } from "bun:test";
import type { RunEvent } from "../../src/run-files/events.ts";
import { toolStep, turnLines, type TrajectoryRecord } from "../../src/run-files/trajectory.ts";
import { turnCalls } from "../../src/view/turn-calls.ts";

const call = (turn: number, action: number) =>
  ({ time: "2026-12-01T00:00:00.000Z", run: "t/glide", kind: "agent-call", turn, action }) as RunEvent;

describe("the turn's tool calls in the step panel", () => {
  test("each turn from the action after its call; classes, commands, sizes; failed calls left out", () => {
    const records: TrajectoryRecord[] = [
      ...turnLines({ turn: 1, backend: "claude", status: "failed", logBytes: 10, ms: 5, error: "timeout" }, []),
      ...turnLines({ turn: 2, backend: "claude", status: "ok", logBytes: 10, ms: 1500 }, [
        toolStep({ tool: "Bash", act: "shell", input: "grep -c '^Action ' logs.txt", output: "1\n", exit: 0 }),
        toolStep({ tool: "Write", act: "write", input: "actions.json", path: "actions.json", output: "ok" }),
      ]),
      ...turnLines({ turn: 3, backend: "claude", status: "ok", logBytes: 20, ms: 100 }, [
        toolStep({ tool: "Bash", act: "shell", input: "tail -n 5 logs.txt", output: "a\nb\n", exit: 0 }),
      ]),
    ];
    const t = turnCalls([call(1, 0), call(2, 0), call(3, 3)], records);
    expect(t.fromAction).toEqual([1, 4]);
    expect(t.text[0]).toBe(
      "turn 2 (claude): 2 tool call(s), 1.5 s\nsearch-log  grep -c '^Action ' logs.txt  (2 B exit 0)\naction-file actions.json  (2 B)",
    );
    expect(t.text[1]).toContain("read-log    tail -n 5 logs.txt  (4 B exit 0)");
  });
});
