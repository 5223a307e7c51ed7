// What a run keeps in its index besides the log's sections, for resume: one schema per key, so what is read
// back is checked like any other file (the index sits in the run directory) and written with the right shape.
import { err, ok, type Result } from "neverthrow";
import * as v from "valibot";
import { prolongError, type ProlongError } from "../errors.ts";
import type { RunIndex } from "../log/run-index.ts";
import { END_REASONS } from "../score/scorecard.ts";
import { PendingBatchSchema, type PendingBatch } from "./session.ts";

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));

const SAVED = {
  /** The run is over (not resumable); why. */
  ended: v.object({ reason: v.picklist(END_REASONS), detail: v.string(), wallMs: v.number() }),
  /** Milliseconds played over every process that played the run. */
  wallMs: v.pipe(v.number(), v.minValue(0)),
  agentCalls: Count,
  tokens: v.object({ input: Count, cached: Count, output: Count }),
  /** The batch the agent asked for, saved before it runs (null once it has run). */
  pending: v.nullable(PendingBatchSchema),
} as const;

export type SavedState = Omit<{ [K in keyof typeof SAVED]: v.InferOutput<(typeof SAVED)[K]> }, "pending"> & {
  pending: PendingBatch | null;
};

/**
 * Saves the given keys, in the order given (what changed at one point of the turn). Fails like any index write
 * (a full disk): the run then ends log-failed, resumable.
 */
export function saveState(index: RunIndex, values: Partial<SavedState>): Result<void, ProlongError> {
  for (const [key, value] of Object.entries(values)) {
    const saved = index.setState(key, value);
    if (saved.isErr()) return saved;
  }
  return ok(undefined);
}

/** The saved value (undefined when never saved), or an error naming the key and the field that is wrong. */
export function readState<K extends keyof SavedState>(index: RunIndex, key: K): Result<SavedState[K] | undefined, ProlongError> {
  const read = index.getState(key);
  if (read.isErr()) return err(read.error);
  const raw = read.value;
  if (raw === undefined) return ok(undefined);
  const parsed = v.safeParse(SAVED[key], raw);
  if (parsed.success) return ok(parsed.output as SavedState[K]);
  const issue = parsed.issues[0];
  const field = [key, ...(issue.path?.map((p) => String(p.key)) ?? [])].join(".");
  return err(
    prolongError("bad-index", `the run index holds a ${key} this prolong does not write (${field}: ${issue.message})`, {
      path: index.path,
      fix: "resume with the prolong version that started the run",
    }),
  );
}
