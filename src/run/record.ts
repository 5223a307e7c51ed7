// What one action does to a run, in order: the game steps, the tally moves, one section is appended to the
// master (and the index), the events say so. Also the run's other records — the first section of an
// episode, a repaired tamper, a warning — so that everything the loop writes goes through this file. Events
// are built as values (stepEvents, tamperFields, warningEvent) and written by `emit` alone.
import { err, ok, type Result } from "neverthrow";
import { formatError, prolongError, type ProlongError } from "../errors.ts";
import { actionText } from "../action-text.ts";
import type { Action, FrameData } from "../game-model.ts";
import { SECTION_JOIN, type HeaderVitals, type SectionExtra, type SectionHeader } from "../log/format.ts";
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
 * Plays one action: the game steps, the tally moves, one section is appended, the step's events are emitted.
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
  const levelNow = s.tally.level;
  emit(s, ...stepEvents(action, frame, written.value, effect, levelNow));
  s.onProgress?.(s);
  return ok(effect);
}

/**
 * What one step tells the events, in order: the action, a no-op, a level up, a game over, the kind's notes. The
 * action's `frames` is what its section holds as its codec wrote it (a grid game's animation frames and
 * settled board, a terminal game's one screen), not a count of grid frames a screen does not have.
 */
function stepEvents(action: Action, frame: FrameData, boards: number, effect: StepEffect, levelNow: number): RunEvent[] {
  const h = effect.header;
  const name = actionText(action, "name");
  const events: RunEvent[] = [
    [
      "action",
      {
        action: h.action,
        call: actionText(action, "log"),
        level: h.level,
        attempt: h.attempt,
        score: h.score,
        state: frame.state,
        frames: boards,
      },
    ],
  ];
  if (frame.message) events.push(["warning", { message: `${name}: ${frame.message}`, code: "no-op" }]);
  if (effect.levelUp) events.push(["level-up", { action: h.action, level: levelNow, score: h.score }]);
  if (effect.gameOver) events.push(["game-over", { action: h.action, level: h.level, attempt: h.attempt }]);
  for (const note of effect.notes) events.push(["warning", { message: `${name}: ${note}`, code: "stuck-prompt" }]);
  return events;
}

/**
 * The INITIAL STATE section an episode starts with (numbered as the last action so far). Its header is the
 * tally's, which starts each episode from the game's first frame (tally.ts), with the vitals its kind reports
 * of that frame (the tally's report of it, given by the caller).
 */
export function recordInitial(s: RunSession, frame: FrameData, vitals: HeaderVitals | undefined): Result<void, ProlongError> {
  const t = s.tally;
  const header = {
    action: t.action,
    level: t.level,
    attempt: t.attempt,
    score: t.score,
    kind: "initial" as const,
    ...(vitals ? { vitals } : {}),
  };
  return appendStep(s, frame, header, t.episode > 1 ? { episode: { index: t.episode, total: s.config.episodes } } : {}).map(
    () => undefined,
  );
}

/**
 * A step's section appended to the master (one write) and the index, its body written by the kind's codec;
 * gives the boards the section holds.
 */
function appendStep(s: RunSession, frame: FrameData, header: SectionHeader, extra: SectionExtra): Result<number, ProlongError> {
  const body = stepSection(s, frame, header, extra);
  if (body.isErr()) return err(body.error);
  const { text, boards } = body.value;
  return appendSectionText(s.master, s.index, (empty) => (empty ? "" : SECTION_JOIN) + text, header, boards).map(() => boards);
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
 * Repaired (or refused) tampers, in the order found: of the copy of the log, or of another name in the
 * workspace; each counted and told. An error is the index write failing (the run ends log-failed).
 */
export function recordTampers(s: RunSession, tampers: readonly (TamperEvent | WorkspaceTamper)[]): Result<void, ProlongError> {
  for (const tamper of tampers) {
    s.tally.tamperEvents += 1;
    const turn = s.tally.agentCalls + 1;
    // The copy's tamper goes to the index inside the sync; the others are recorded here.
    const recorded = "file" in tamper ? s.index.recordEvent("tamper", { ...tamper }) : ok(undefined);
    if (recorded.isErr()) return err(recorded.error);
    emit(s, ["tamper", tamperFields(tamper, turn)]);
  }
  return ok(undefined);
}

/** A tamper as its event tells it: which file, what was done, and for the copy of the log its sizes. */
function tamperFields(tamper: TamperEvent | WorkspaceTamper, turn: number): EventFields["tamper"] {
  if ("file" in tamper) return { file: tamper.file, tamper: tamper.kind, detail: tamper.detail, turn };
  return {
    file: COPY_FILE,
    tamper: tamper.kind,
    detail: tamper.detail,
    expectedBytes: tamper.expectedBytes,
    foundBytes: tamper.foundBytes,
    ...(tamper.firstDiff !== undefined ? { firstDiff: tamper.firstDiff } : {}),
    turn,
  };
}

/** An error the run goes on after (a failed call, refused credentials), told as a warning event. */
export function warningEvent(e: ProlongError): RunEvent {
  return ["warning", { message: formatError(e), code: e.code, ...(e.path ? { path: e.path } : {}) }];
}

/** One event to emit: its kind and its fields. */
export type RunEvent = { [K in EventKind]: readonly [K, EventFields[K]] }[EventKind];

/**
 * Emits events, in order (what one step or one call tells, together); the first one that cannot be written is
 * kept, and the loop ends the run on it.
 */
export function emit(s: RunSession, ...events: readonly RunEvent[]): void {
  for (const [kind, fields] of events) {
    const r = s.events.emit(kind, fields);
    if (r.isErr() && !s.turn.eventFailure) s.turn.eventFailure = r.error;
  }
}
