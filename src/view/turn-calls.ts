// The step panel's "tool calls this turn": for each agent call that produced a batch, the calls of its
// trajectory as a few lines of text (class, command, output size, exit status), and the first action of the
// batch it produced (from the agent-call event), so the page shows, at any step, the turn that chose it.
import type { TrajectoryRecord } from "../run-files/trajectory.ts";
import type { RunEvent } from "../run-files/events.ts";
import { classifyCall } from "../score/tool-classes.ts";

export interface TurnCalls {
  /** Per turn with calls, the first action of its batch (ascending); the page looks a step's action up here. */
  readonly fromAction: number[];
  readonly text: string[];
}

/** Lines kept per turn on the page (the rest is counted): `prolong trace` has them all. */
const LINES = 40;

function oneLine(s: string, width: number): string {
  const flat = s.replace(/\s*\n\s*/g, " ⏎ ");
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

export function turnCalls(events: readonly RunEvent[], records: readonly TrajectoryRecord[]): TurnCalls {
  const calledAt = new Map<number, number>();
  for (const e of events)
    if (e.kind === "agent-call") {
      const call = e as RunEvent<"agent-call">;
      calledAt.set(call.turn, call.action);
    }
  const byTurn = new Map<number, TrajectoryRecord[]>();
  for (const r of records) {
    const list = byTurn.get(r.turn);
    if (list) list.push(r);
    else byTurn.set(r.turn, [r]);
  }
  const out: { from: number; text: string }[] = [];
  for (const [turn, list] of byTurn) {
    const head = list.find((r) => r.kind === "turn");
    const at = calledAt.get(turn);
    if (!head || head.kind !== "turn" || head.status !== "ok" || at === undefined || !Number.isFinite(at)) continue;
    const calls = list.filter((r) => r.kind === "tool");
    const lines = calls.slice(0, LINES).map((c) => {
      const exit = c.exit === null ? (c.error ? " error" : "") : ` exit ${c.exit}`;
      return `${classifyCall(c).class.padEnd(11)} ${oneLine(c.input.text, 90)}  (${c.output.bytes} B${exit})`;
    });
    if (calls.length > LINES) lines.push(`… and ${calls.length - LINES} more (prolong trace)`);
    const title = `turn ${turn} (${head.backend}): ${calls.length} tool call(s), ${(head.ms / 1000).toFixed(1)} s`;
    out.push({ from: at + 1, text: [title, ...lines].join("\n") });
  }
  out.sort((a, b) => a.from - b.from);
  return { fromAction: out.map((o) => o.from), text: out.map((o) => o.text) };
}
