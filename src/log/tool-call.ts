// Tool-call lines of the log format: 'ACTION6({"x": 38, "y": 38})', 'ACTION3({})', 'RESET({})' — the
// published harness's spelling (json.dumps of the click arguments, "{}" for every other action).
// Part of the one definition of the format; import it from format.ts.
import { err, ok, type Result } from "neverthrow";
import * as v from "valibot";
import { prolongError, type ProlongError } from "../errors.ts";
import type { Action } from "../game-model.ts";

const ACTION_NAME_RE = /^(RESET|ACTION([1-7]))\((.*)\)$/;
const ClickArgs = v.object({
  x: v.pipe(v.number(), v.integer(), v.minValue(0)),
  y: v.pipe(v.number(), v.integer(), v.minValue(0)),
});

/** 'ACTION6({"x": 38, "y": 38})', 'ACTION3({})', 'RESET({})' — the published harness's spelling. */
export function formatToolCall(a: Action): string {
  if (a.id === "key") return a.name;
  if (a.id === 6) return `ACTION6({"x": ${a.x}, "y": ${a.y}})`;
  return `${a.id === 0 ? "RESET" : `ACTION${a.id}`}({})`;
}

/** Reads formatToolCall's output back (without the "Tool Call: " prefix; surrounding spaces are ignored). */
export function parseToolCall(s: string): Result<Action, ProlongError> {
  const text = s.trim();
  const m = ACTION_NAME_RE.exec(text);
  const expected = `expected RESET({}), ACTION1({}) .. ACTION7({}) or ACTION6({"x": X, "y": Y})`;
  if (!m) return err(prolongError("bad-tool-call", `tool call ${JSON.stringify(text)} is not an action: ${expected}`));
  let args: unknown;
  try {
    args = JSON.parse(m[3] ?? "");
  } catch {
    return err(prolongError("bad-tool-call", `tool call ${JSON.stringify(text)} has arguments that are not JSON: ${expected}`));
  }
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    return err(
      prolongError("bad-tool-call", `tool call ${JSON.stringify(text)} has arguments that are not a JSON object: ${expected}`),
    );
  }
  if (m[1] === "RESET") return ok({ id: 0 });
  const id = Number(m[2]);
  if (id !== 6) return ok({ id: id as 1 | 2 | 3 | 4 | 5 | 7 });
  const click = v.safeParse(ClickArgs, args);
  if (!click.success) {
    return err(
      prolongError(
        "bad-tool-call",
        `tool call ${JSON.stringify(text)}: ACTION6 needs integer x and y >= 0 (${click.issues[0].message})`,
      ),
    );
  }
  return ok({ id: 6, x: click.output.x, y: click.output.y });
}
