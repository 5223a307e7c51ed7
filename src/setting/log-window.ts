// THE representation of a memory arm's log window, from the `--log-window` flag to run.json, the run index
// and back: one type (LogWindow) and one text form (`full | none | newest | last:N`), with the numbers the
// paper's harness used (-1, 0, N) accepted as aliases. What a window shows is log/window.ts's job.
import { err, ok, type Result } from "neverthrow";
import * as v from "valibot";
import { prolongError, type ProlongError } from "../errors.ts";

export type LogWindow =
  | { readonly kind: "full" }
  /** The last `sections` action sections, plus the first (INITIAL STATE) section. */
  | { readonly kind: "last"; readonly sections: number }
  /** The newest section only, its animation frames dropped (settled board kept). */
  | { readonly kind: "newest" }
  /** No log file at all; the current board goes into the prompt. */
  | { readonly kind: "none" };

export const FULL_WINDOW: LogWindow = { kind: "full" };

export const WINDOW_HELP =
  "--log-window takes full (the whole log, the default), last:N (the last N action sections plus the initial one), newest (the newest section without animation frames) or none (no log file, the board in the prompt); -1, 0 and N mean none, newest and last:N";

/** The text form of a window: full, none, newest, last:N (also -1, 0, N). */
export function parseLogWindow(text: string): Result<LogWindow, ProlongError> {
  const s = text.trim();
  const bad = (why: string) => err(prolongError("bad-flag", `--log-window ${JSON.stringify(text)} ${why}`, { fix: WINDOW_HELP }));
  if (s === "full") return ok(FULL_WINDOW);
  if (s === "none" || s === "-1") return ok({ kind: "none" });
  if (s === "newest" || s === "0") return ok({ kind: "newest" });
  const m = /^(?:last:)?(\d+)$/.exec(s);
  if (!m) return bad("is not a window");
  const n = Number(m[1]);
  if (!Number.isSafeInteger(n) || n < 1) return bad("is out of range");
  return ok({ kind: "last", sections: n });
}

/** The canonical text form: what run.json, the run index and events hold. */
export function windowText(w: LogWindow): string {
  return w.kind === "last" ? `last:${w.sections}` : w.kind;
}

/** The window as people read it, for summaries and tables. */
export function windowLabel(w: LogWindow): string {
  switch (w.kind) {
    case "full":
      return "full";
    case "none":
      return "none (board in prompt)";
    case "newest":
      return "newest section, frames stripped";
    case "last":
      return `last ${w.sections} sections`;
  }
}

export function sameWindow(a: LogWindow, b: LogWindow): boolean {
  return windowText(a) === windowText(b);
}

const WindowObject = v.variant("kind", [
  v.object({ kind: v.literal("full") }),
  v.object({ kind: v.literal("last"), sections: v.pipe(v.number(), v.integer(), v.minValue(1)) }),
  v.object({ kind: v.literal("newest") }),
  v.object({ kind: v.literal("none") }),
]);

/**
 * A window as a setting: the LogWindow itself (how run.json and scorecards hold it, being JSON of the
 * config), its text form (what the flag gives), or what run.json held before there was a LogWindow (null
 * for the full log, a number for -1, 0 and N).
 */
export const LogWindowSchema = v.pipe(
  v.union([WindowObject, v.string(), v.number(), v.null()], "--log-window must be full, none, newest or last:N"),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const raw = dataset.value;
    if (raw !== null && typeof raw === "object") return raw as LogWindow;
    const w = raw === null ? ok(FULL_WINDOW) : parseLogWindow(String(raw));
    if (w.isErr()) {
      addIssue({ message: `${w.error.message}; ${WINDOW_HELP}` });
      return NEVER;
    }
    return w.value;
  }),
);

/** The `--log-window` flag's value: its text form, parsed by parseLogWindow. */
export const LogWindowFlagSchema = v.pipe(
  v.string(),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const w = parseLogWindow(dataset.value);
    if (w.isErr()) {
      addIssue({ message: `must be full, none, newest or last:N (or -1, 0, N), got '${dataset.value}'` });
      return NEVER;
    }
    return w.value;
  }),
);
