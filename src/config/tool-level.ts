// The tool ladder's levels as a run setting (--tools): the levels, and the flag's text read in any order.
// What each level allows is agent/tool-ladder.ts.
import { err, ok, type Result } from "neverthrow";
import * as v from "valibot";
import { prolongError, type ProlongError } from "../errors.ts";

/** The tool ladder of the ablation arms (--tools), each level adding to the one before. */
export const TOOL_LEVELS = ["read", "read,grep", "read,grep,python", "all"] as const;
export type ToolLevel = (typeof TOOL_LEVELS)[number];

/** --tools as typed (order and spaces free: "grep, read" is read,grep); an error lists the ladder. */
export function parseToolLevel(text: string): Result<ToolLevel, ProlongError> {
  const parts = new Set(
    text
      .split(",")
      .map((p) => p.trim().toLowerCase())
      .filter(Boolean),
  );
  for (const level of TOOL_LEVELS) {
    const want = new Set(level.split(","));
    if (want.size === parts.size && [...want].every((p) => parts.has(p))) return ok(level);
  }
  return err(
    prolongError("bad-config", `--tools ${JSON.stringify(text)} is not a level of the tool ladder`, {
      fix: `use one of ${TOOL_LEVELS.join(" | ")} (each level adds to the one before)`,
    }),
  );
}

/** --tools as a flag schema: a level of the ladder, in any order ("grep,read" is read,grep). */
export const ToolLevelFlag = v.pipe(
  v.string(),
  v.check(
    (s) => parseToolLevel(s).isOk(),
    (i) => `must be one of ${TOOL_LEVELS.join(" | ")}, got '${String(i.input)}'`,
  ),
  v.transform((s): ToolLevel => parseToolLevel(s).unwrapOr("all")),
);
