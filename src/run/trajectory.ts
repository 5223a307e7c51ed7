// The trajectory of a run (trajectory.jsonl): when an agent call ends, its record and the steps the backend
// reported are appended, failed calls included, so what the agent did can be counted turn by turn. A call
// cut by a crash never ended and has no record (the backend's own files may hold part of it): `prolong
// resume` makes that call again under the same turn number, so a resumed run's trajectory numbers its turns
// as an uninterrupted one does (events.jsonl shows the cut call's agent-call event twice).
import { existsSync } from "node:fs";
import { ok, type Result } from "neverthrow";
import type { TurnReply } from "../agent/agent.ts";
import type { ProlongError } from "../errors.ts";
import { appendTurn, readTrajectory, turnLines } from "../run-files/trajectory.ts";
import type { RunSession } from "./session.ts";

/** Appends one finished agent call: the reply and its steps, or the failure. */
export function recordTrajectory(
  s: RunSession,
  turn: number,
  logBytes: number,
  answer: Result<TurnReply, ProlongError>,
  failedMs: number,
): Result<void, ProlongError> {
  const backend = s.agent.name;
  const ms = (t: number) => Math.max(0, Math.round(t));
  const lines = answer.isErr()
    ? turnLines({ turn, backend, status: "failed", logBytes, ms: ms(failedMs), error: answer.error.message }, [])
    : turnLines(
        {
          turn,
          backend,
          status: "ok",
          logBytes,
          ms: ms(answer.value.wallMs),
          exitCode: answer.value.exitCode,
          tokens: answer.value.tokens,
        },
        answer.value.steps ?? [],
      );
  return appendTurn(s.paths.trajectory, lines);
}

/**
 * The agent calls that ended, for resume: the saved count, less a call the trajectory has no record of (it
 * was in flight when the process died). A run without a trajectory (from before them) keeps the saved count.
 */
export function endedCalls(path: string, saved: number): Result<number, ProlongError> {
  if (!existsSync(path)) return ok(saved);
  return readTrajectory(path).map((records) =>
    Math.min(
      saved,
      records.reduce((m, r) => Math.max(m, r.turn), 0),
    ),
  );
}
