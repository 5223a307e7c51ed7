// trajectory.jsonl: what the agent did in each turn, in one shape whatever the backend (Claude Code's
// stream-json, Codex's JSON events, the mini agent's conversation, a command's stdout). One line per record:
// a `turn` record (the call as a whole: backend, status, duration, tokens, the size of the log it was given),
// then its `model` steps and `tool` calls in the order they happened. A turn's lines are appended in one write
// when the turn ends, so a crash leaves whole turns (and at most one cut line, which the reader drops and the
// next append removes). Outputs are cut to a bounded size with the cut stated; the full text stays where the
// backend put it (its session files beside the workspace). Not here: what a call means for the study (the
// classes, score/tool-classes.ts) or how each backend's output becomes these records (each backend's file).
import { closeSync, fstatSync, ftruncateSync, readSync, writeSync } from "node:fs";
import { openForAppend, readFileIfPresent } from "../safe-file.ts";
import { err, ok, type Result } from "neverthrow";
import * as v from "valibot";
import { prolongError, type ProlongError } from "../errors.ts";

/** How a backend's tool acts, whatever it is called there: what the classification rules match on. */
export const TOOL_KINDS = ["shell", "read", "write", "search", "list", "observe", "other"] as const;
export type ToolKind = (typeof TOOL_KINDS)[number];

/** Characters of a command, a file name or a pattern kept in a record. */
export const INPUT_CHARS = 2000;
/** Characters of a tool's output (or a model's text) kept in a record: the head, the cut said. */
export const OUTPUT_CHARS = 400;
/** Most bytes of trajectory.jsonl a reader takes (a run's own file; anything bigger was not written by prolong). */
export const TRAJECTORY_MAX_BYTES = 512 * 1024 * 1024;

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
const Tokens = v.object({ input: Count, cached: Count, output: Count });
/** A text cut to a bound: `text` is its head; `chars` is how long the whole was (absent when nothing was cut). */
const CutText = v.object({ text: v.string(), chars: v.optional(Count) });
export type CutText = v.InferOutput<typeof CutText>;

const TurnRecord = v.object({
  kind: v.literal("turn"),
  turn: Count,
  backend: v.string(),
  status: v.picklist(["ok", "failed"]),
  /** Bytes of logs.txt the agent was given for this turn (0 in the no-log arm). */
  logBytes: Count,
  ms: Count,
  exitCode: v.optional(v.number()),
  tokens: v.optional(Tokens),
  /** Why a failed call failed. */
  error: v.optional(v.string()),
});

const ModelStep = v.object({
  kind: v.literal("model"),
  turn: Count,
  /** 1-based position of this record among the turn's steps and calls. */
  step: Count,
  backend: v.string(),
  tokens: v.optional(Tokens),
  text: v.optional(CutText),
});

const ToolCall = v.object({
  kind: v.literal("tool"),
  turn: Count,
  step: Count,
  backend: v.string(),
  /** The backend's own name for the tool (Bash, Read, exec_command, bash, observe, ...). */
  tool: v.string(),
  act: v.picklist(TOOL_KINDS),
  /** The command line, the file read or written, the pattern searched (cut). */
  input: CutText,
  /** The file the call names, for file tools (Read, Write, Grep's path). */
  path: v.optional(v.string()),
  output: v.object({ bytes: Count, lines: Count, head: CutText }),
  /** The exit status where the backend reports one; null where it does not (a file tool). */
  exit: v.nullable(v.number()),
  /** True when the backend marked the call as failed. */
  error: v.optional(v.boolean()),
  ms: v.nullable(Count),
});

export const TrajectoryRecordSchema = v.variant("kind", [TurnRecord, ModelStep, ToolCall]);
export type TrajectoryRecord = v.InferOutput<typeof TrajectoryRecordSchema>;
export type TurnRecord = v.InferOutput<typeof TurnRecord>;
export type ModelStep = v.InferOutput<typeof ModelStep>;
export type ToolCall = v.InferOutput<typeof ToolCall>;

/** A step as a backend reports it: the turn, the step number and the backend are added when the turn is written. */
export type StepReport = Omit<ModelStep, "turn" | "step" | "backend"> | Omit<ToolCall, "turn" | "step" | "backend">;

/** A text cut to `limit` characters, the cut stated by the whole's length. */
export function cutText(text: string, limit: number): CutText {
  return text.length <= limit ? { text } : { text: text.slice(0, limit), chars: text.length };
}

/**
 * A tool's output as a record keeps it: its size in UTF-8 bytes and lines (a line is a newline, or a last
 * piece without one), and its head. `size` gives the whole's size when only part of the text was kept.
 */
export function outputOf(text: string, size?: { bytes: number; lines: number }): ToolCall["output"] {
  const bytes = size?.bytes ?? Buffer.byteLength(text, "utf8");
  const lines = size?.lines ?? (text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0));
  return { bytes, lines, head: cutText(text, OUTPUT_CHARS) };
}

/** A tool call as a backend reports it, with the defaults filled in. */
export function toolStep(
  call: Pick<ToolCall, "tool" | "act"> & {
    input: string;
    output: string;
    /** The whole output's size, when `output` is only part of it. */
    size?: { bytes: number; lines: number };
    path?: string;
    exit?: number | null;
    error?: boolean;
    ms?: number | null;
  },
): StepReport {
  return {
    kind: "tool",
    tool: call.tool,
    act: call.act,
    input: cutText(call.input, INPUT_CHARS),
    ...(call.path !== undefined ? { path: call.path.slice(0, INPUT_CHARS) } : {}),
    output: outputOf(call.output, call.size),
    exit: call.exit ?? null,
    ...(call.error ? { error: true } : {}),
    ms: call.ms === undefined || call.ms === null ? null : Math.max(0, Math.round(call.ms)),
  };
}

/** The lines of one turn: its record, then its steps numbered from 1. */
export function turnLines(turn: Omit<TurnRecord, "kind">, steps: readonly StepReport[]): TrajectoryRecord[] {
  const head: TrajectoryRecord = { kind: "turn", ...turn };
  return [head, ...steps.map((s, i) => ({ ...s, turn: turn.turn, step: i + 1, backend: turn.backend }) as TrajectoryRecord)];
}

/**
 * Appends one turn's records in one write (O_APPEND). A line a crash cut short (the file does not end in a
 * newline) is removed first, so every line of the file stays a whole record.
 */
export function appendTurn(path: string, records: readonly TrajectoryRecord[]): Result<void, ProlongError> {
  const text = records.map((r) => `${JSON.stringify(r)}\n`).join("");
  // Through the run directory's one safe opener: no link followed, a regular file with one name, never a FIFO.
  const opened = openForAppend(path, "the trajectory", true, "read-write");
  if (opened.isErr()) return err(opened.error);
  const fd = opened.value;
  try {
    dropCutLine(fd);
    writeSync(fd, text);
    return ok(undefined);
  } catch (e) {
    return err(
      prolongError("trajectory-write", `cannot append to the trajectory: ${(e as Error).message}`, {
        path,
        fix: "check that the run directory is writable and the disk has room; `prolong resume` continues the run",
      }),
    );
  } finally {
    closeSync(fd);
  }
}

function dropCutLine(fd: number): void {
  const size = fstatSync(fd).size;
  if (size === 0) return;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  if (last[0] === 0x0a) return;
  // Walk back to the previous newline in small reads: only the cut line is read.
  const chunk = Buffer.alloc(64 * 1024);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - chunk.length);
    const n = readSync(fd, chunk, 0, end - start, start);
    const at = chunk.subarray(0, n).lastIndexOf(0x0a);
    if (at >= 0) {
      ftruncateSync(fd, start + at + 1);
      return;
    }
    end = start;
  }
  ftruncateSync(fd, 0);
}

/**
 * Reads a trajectory.jsonl: every complete line must be a record (an error names the line and the field);
 * a final line without its newline (a crash mid-write) is dropped. A missing file is an empty trajectory
 * (runs from before trajectories, in-process agents).
 */
export function readTrajectory(path: string): Result<TrajectoryRecord[], ProlongError> {
  // The one safe reader of run files: a regular file only, no link followed, never blocking, size-capped.
  const read = readFileIfPresent(path, TRAJECTORY_MAX_BYTES, "the trajectory");
  if (read.isErr()) return err(read.error);
  if (read.value === null) return ok([]);
  const text = new TextDecoder().decode(read.value);
  const lines = text.split("\n");
  lines.pop();
  const out: TrajectoryRecord[] = [];
  for (const [i, line] of lines.entries()) {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      return err(prolongError("trajectory-line", `line ${i + 1} is not JSON`, { path, fix: "remove or repair that line" }));
    }
    const parsed = v.safeParse(TrajectoryRecordSchema, json);
    if (!parsed.success) {
      const issue = parsed.issues[0];
      const field = issue.path?.map((p) => String(p.key)).join(".") ?? "(line)";
      return err(
        prolongError("trajectory-line", `line ${i + 1}: field ${field}: ${issue.message}`, {
          path,
          fix: "each line is a turn, model or tool record as docs/trajectory.md describes",
        }),
      );
    }
    out.push(parsed.output);
  }
  return ok(out);
}
