// A prolong run's own master log replayed against the real game: every section read back by its environment kind
// (a grid game's boards, or a terminal game's screen compared byte for byte as the section would be written again),
// each Tool Call stepped through the shared replay engine (replay.ts), each header checked against the tally.
// `prolong resume` replays a run before it plays on; `prolong replay <run-dir>` of a terminal game replays it alone.
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";
import type { ScreenSectionCodec } from "../game/kinds.ts";
import type { GameEnv } from "../game/env.ts";
import type { Action, FrameData } from "../game-model.ts";
import { parseSection, type SectionHeader } from "../log/format.ts";
import { readLogBytes } from "../log/load.ts";
import { sectionIndex } from "../native.ts";
import { compareSection, SectionReplayer } from "./replay.ts";
import { recordStep, startEpisode, newTally, type RunTally, type StepEffect } from "./tally.ts";

export interface RecoveredSection {
  readonly header: SectionHeader;
  readonly toolCall?: Action;
  /** Boards in the section (animation frames + the settled one; 1 for a terminal game's screen). */
  readonly frames: number;
  /** The section's bytes as the master holds them. */
  readonly text: string;
  /** Why a replayed step's frame is not what this section logged, or null when it is. */
  readonly check: (frame: FrameData) => string | null;
  /** Set for a complete section the index had not recorded yet (a crash between append and index). */
  readonly unindexed: { start: number; end: number } | null;
}

/** One section of the master read back by its environment kind: a grid game's boards, or a terminal game's screen by its codec. */
export function readSection(
  text: string,
  screenLog: ScreenSectionCodec | undefined,
): Result<Omit<RecoveredSection, "unindexed">, ProlongError> {
  if (screenLog) {
    const read = screenLog.read(text);
    if (read.isErr()) return err(prolongError("bad-section", read.error));
    const { header, ...extra } = read.value;
    const check = (frame: FrameData) => {
      if (!frame.screen) return "the replay gave a grid, the log holds a screen";
      // The header's vitals come from the replayed screen, so a different XL, HP or turn is a divergence too.
      const { vitals: _logged, ...rest } = header;
      const again = screenLog.write(
        frame.screen,
        { ...rest, ...(frame.screen.vitals ? { vitals: frame.screen.vitals } : {}) },
        extra,
      );
      if (again === text || again === `${text}\n`) return null;
      const a = again.split("\n");
      const b = text.split("\n");
      const line = a.findIndex((l, i) => l !== b[i]);
      return `line ${line + 1} of the section differs: the log has ${JSON.stringify(b[line] ?? "")}, the replay ${JSON.stringify(a[line] ?? "")}`;
    };
    return ok({ header, ...(extra.toolCall ? { toolCall: extra.toolCall } : {}), frames: 1, text, check });
  }
  const parsed = parseSection(text);
  if (parsed.isErr()) return err(parsed.error);
  const section = parsed.value;
  return ok({
    header: section.header,
    ...(section.toolCall ? { toolCall: section.toolCall } : {}),
    frames: section.frames.length + 1,
    text,
    check: (frame) => {
      const d = compareSection(section, frame);
      return d.length > 0 ? d.join("; ") : null;
    },
  });
}

export function replayError(path: string, action: number, what: string): ProlongError {
  return prolongError("replay-mismatch", `replaying the log diverges at Action ${action}: ${what}`, {
    path,
    fix: "the game or its version differs from the one that wrote this log; resume with the same prolong version",
  });
}

/**
 * Replays the sections after the first against the game `env` (already reset; `first` is its frame), stopping at
 * the first divergence: a frame the section does not hold, or a header the tally does not give. `checked` runs
 * after each matching section (resume indexes the ones the index had missed).
 */
export async function replayRecorded(
  sections: readonly RecoveredSection[],
  first: FrameData,
  tally: RunTally,
  open: () => Result<GameEnv, ProlongError>,
  logPath: string,
  checked: (section: RecoveredSection) => Result<void, ProlongError>,
  env: GameEnv,
): Promise<Result<{ frame: FrameData; lastEffect: StepEffect | null; env: GameEnv }, ProlongError>> {
  const [head, ...rest] = sections;
  if (!head) return ok({ frame: first, lastEffect: null, env });
  if (head.header.kind !== "initial")
    return err(prolongError("bad-log", "the master log does not start with an INITIAL STATE section", { path: logPath }));
  const firstDiff = head.check(first);
  if (firstDiff) return err(replayError(logPath, 0, firstDiff));
  const replayer = new SectionReplayer(open);
  replayer.adopt(env);
  let frame = first;
  let lastEffect: StepEffect | null = null;
  for (const section of rest) {
    const h = section.header;
    if (h.kind !== "initial" && !section.toolCall)
      return err(replayError(logPath, h.action, "the section has no Tool Call line"));
    const r = await replayer.play(section);
    if (r.isErr()) return err(r.error);
    frame = r.value;
    if (h.kind === "initial") {
      startEpisode(tally, frame);
      lastEffect = null;
    } else {
      lastEffect = recordStep(tally, frame);
      const e = lastEffect.header;
      if (e.action !== h.action || e.level !== h.level || e.attempt !== h.attempt || e.score !== h.score) {
        return err(
          replayError(
            logPath,
            h.action,
            `the header says Action ${h.action} | Level ${h.level} | Attempt ${h.attempt} | Score ${h.score}, the replay gives Action ${e.action} | Level ${e.level} | Attempt ${e.attempt} | Score ${e.score}`,
          ),
        );
      }
    }
    const diff = section.check(frame);
    if (diff) return err(replayError(logPath, h.action, diff));
    const c = checked(section);
    if (c.isErr()) return err(c.error);
  }
  return ok({ frame, lastEffect, env: replayer.env! });
}

/** A finished log's sections, each read back by its environment kind (the master's bytes, split as the addon does). */
export function logSections(
  bytes: Uint8Array,
  screenLog: ScreenSectionCodec | undefined,
  logPath: string,
): Result<RecoveredSection[], ProlongError> {
  const table = sectionIndex(bytes);
  const out: RecoveredSection[] = [];
  const decoder = new TextDecoder();
  for (let i = 0; i < table.count; i++) {
    const start = table.start[i] as number;
    const end = i + 1 < table.count ? (table.start[i + 1] as number) - 1 : bytes.length;
    const parsed = readSection(decoder.decode(bytes.subarray(start, end)), screenLog);
    if (parsed.isErr())
      return err(prolongError("bad-log", `section ${i} of the log does not parse: ${parsed.error.message}`, { path: logPath }));
    out.push({ ...parsed.value, unindexed: null });
  }
  return ok(out);
}

/**
 * A terminal game's log replayed against a fresh game (`open` gives it with the run's seed and character):
 * every section's screen compared byte for byte, the first divergence an error of kind replay-mismatch.
 */
export async function replayScreenLog(
  logPath: string,
  screenLog: ScreenSectionCodec,
  open: () => Result<GameEnv, ProlongError>,
): Promise<Result<{ sections: number; actions: number }, ProlongError>> {
  const bytes = readLogBytes(logPath);
  if (bytes.isErr()) return err(bytes.error);
  const sections = logSections(bytes.value, screenLog, logPath);
  if (sections.isErr()) return err(sections.error);
  if (sections.value.length === 0)
    return err(
      prolongError("not-a-log", "the log holds no section", { path: logPath, fix: "pass the logs.txt of a prolong NetHack run" }),
    );
  // The replayer closes each game it replaces; the last one opened is the one still running.
  const opened: GameEnv[] = [];
  const openGame = () => open().map((env) => (opened.push(env), env));
  try {
    const env = openGame();
    if (env.isErr()) return err(env.error);
    const first = await env.value.reset();
    if (first.isErr()) return err(first.error);
    const tally = newTally(first.value);
    const replayed = await replayRecorded(sections.value, first.value, tally, openGame, logPath, () => ok(undefined), env.value);
    return replayed.map(() => ({ sections: sections.value.length, actions: tally.action }));
  } finally {
    await opened.at(-1)?.close();
  }
}
