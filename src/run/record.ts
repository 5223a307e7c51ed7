// What one action does to a run, in order: the game steps, the tally moves, one section is appended to the
// master (and the index), the events say so. Also the run's other records — the first section of an
// episode, a repaired tamper, a warning — so that everything the loop writes goes through this file.
import { err, ok, type Result } from "neverthrow";
import { formatError, prolongError, type ProlongError } from "../errors.ts";
import { stepReport } from "../game/kinds.ts";
import { actionText } from "../action-text.ts";
import type { Action, FrameData } from "../game-model.ts";
import { SECTION_JOIN, type SectionExtra, type SectionHeader } from "../log/format.ts";
import { appendSectionText } from "../log/run-index.ts";
import { COPY_FILE, type TamperEvent } from "../workspace/copy.ts";
import type { WorkspaceTamper } from "../workspace/dir.ts";
import type { EventFields, EventKind } from "../run-files/events.ts";
import type { RunSession } from "./session.ts";
import { recordStep, type StepEffect } from "./tally.ts";

/** Which side failed: the game (a dead bridge or server) or the run's own files (the master, the index). */
export interface StepFailure {
  readonly source: "game" | "log";
  readonly error: ProlongError;
}

/**
 * Plays one action: the game steps, the tally moves, one section is appended, events are emitted.
 * `plan` is the [PLAN] text for this section (none in the stateless arm), `planStep` its place in the batch.
 */
export async function playAction(
  s: RunSession,
  action: Action,
  plan: string | undefined,
  planStep?: { step: number; total: number },
): Promise<Result<StepEffect, StepFailure>> {
  const stepped = await s.turn.env.step(action);
  if (stepped.isErr()) return err({ source: "game", error: stepped.error });
  const frame = stepped.value;
  const effect = recordStep(s.tally, frame);
  s.turn.frame = frame;
  const header = { ...effect.header, kind: "action" as const, ...(planStep ? { planStep } : {}) };
  const written = appendStep(s, frame, header, { ...(plan !== undefined ? { plan } : {}), toolCall: action });
  if (written.isErr()) return err({ source: "log", error: written.error });
  const h = effect.header;
  emit(s, "action", {
    action: h.action,
    call: actionText(action, "log"),
    level: h.level,
    attempt: h.attempt,
    score: h.score,
    state: frame.state,
    frames: frame.frames.length,
  });
  if (frame.message) emit(s, "warning", { message: `${actionText(action, "name")}: ${frame.message}`, code: "no-op" });
  if (effect.levelUp) emit(s, "level-up", { action: h.action, level: s.tally.level, score: h.score });
  if (effect.gameOver) emit(s, "game-over", { action: h.action, level: h.level, attempt: h.attempt });
  for (const note of effect.notes)
    emit(s, "warning", { message: `${actionText(action, "name")}: ${note}`, code: "stuck-prompt" });
  s.onProgress?.(s);
  return ok(effect);
}

/**
 * The INITIAL STATE section an episode starts with (numbered as the last action so far). Its header is the
 * tally's, which starts each episode from the game's first frame (tally.ts), with the frame's vitals.
 */
export function recordInitial(s: RunSession, frame: FrameData): Result<void, ProlongError> {
  const t = s.tally;
  const vitals = stepReport(s.kind, frame).vitals;
  const header = {
    action: t.action,
    level: t.level,
    attempt: t.attempt,
    score: t.score,
    kind: "initial" as const,
    ...(vitals ? { vitals } : {}),
  };
  return appendStep(s, frame, header, t.episode > 1 ? { episode: { index: t.episode, total: s.config.episodes } } : {});
}

/** A step's section appended to the master (one write) and the index, its body written by the kind's codec. */
function appendStep(s: RunSession, frame: FrameData, header: SectionHeader, extra: SectionExtra): Result<void, ProlongError> {
  const body = stepSection(s, frame, header, extra);
  if (body.isErr()) return err(body.error);
  const { text, boards } = body.value;
  return appendSectionText(s.master, s.index, (empty) => (empty ? "" : SECTION_JOIN) + text, header, boards).map(() => undefined);
}

/** A step's section text by its kind's codec, and the boards it holds (the index counts them). */
function stepSection(
  s: RunSession,
  frame: FrameData,
  header: SectionHeader,
  extra: SectionExtra,
): Result<{ readonly text: string; readonly boards: number }, ProlongError> {
  return s.kind.codec.write(frame, header, extra, s.config).mapErr((why) =>
    prolongError("unwritable-frame", `the environment '${s.config.env}' gave a step its section cannot be written from: ${why}`, {
      fix: "this is a bug in prolong: a kind's games give the frames its section codec writes",
    }),
  );
}

/**
 * A repaired (or refused) tamper: of the copy of the log, or of another name in the workspace; counted and
 * told. An error is the index write failing (the run ends log-failed).
 */
export function recordTamper(s: RunSession, tamper: TamperEvent | WorkspaceTamper): Result<void, ProlongError> {
  s.tally.tamperEvents += 1;
  const turn = s.tally.agentCalls + 1;
  if ("file" in tamper) {
    // The copy's tamper goes to the index inside the sync; the others are recorded here.
    const recorded = s.index.recordEvent("tamper", { ...tamper });
    if (recorded.isErr()) return err(recorded.error);
    emit(s, "tamper", { file: tamper.file, tamper: tamper.kind, detail: tamper.detail, turn });
    return ok(undefined);
  }
  emit(s, "tamper", {
    file: COPY_FILE,
    tamper: tamper.kind,
    detail: tamper.detail,
    expectedBytes: tamper.expectedBytes,
    foundBytes: tamper.foundBytes,
    ...(tamper.firstDiff !== undefined ? { firstDiff: tamper.firstDiff } : {}),
    turn,
  });
  return ok(undefined);
}

export function recordWarning(s: RunSession, e: ProlongError): void {
  emit(s, "warning", { message: formatError(e), code: e.code, ...(e.path ? { path: e.path } : {}) });
}

/** Emits an event; the first one that cannot be written is kept, and the loop ends the run on it. */
export function emit<K extends EventKind>(s: RunSession, kind: K, fields: EventFields[K]): void {
  const r = s.events.emit(kind, fields);
  if (r.isErr() && !s.turn.eventFailure) s.turn.eventFailure = r.error;
}
