// The log's tool-call line read back: the one action grammar (action-text.ts) in its `log` spelling, as a
// ProlongError a log reader can report. Part of the one definition of the format; import it from format.ts.
import type { Result } from "neverthrow";
import { parseAction } from "../action-text.ts";
import { prolongError, type ProlongError } from "../errors.ts";
import type { Action } from "../game-model.ts";

/** A tool call (without the "Tool Call: " prefix; surrounding spaces are ignored) → the action. */
export function parseToolCall(s: string): Result<Action, ProlongError> {
  const text = s.trim();
  return parseAction(text, "log").mapErr((why) => prolongError("bad-tool-call", `tool call ${JSON.stringify(text)}: ${why}`));
}
