// THE replay engine: re-executes a log's sections against the game — a fresh game at each INITIAL STATE
// section, the section's Tool Call otherwise — and compares what the game returns with what the log holds
// (every animation frame, the settled board, the score). `prolong replay` reports every difference; resume
// stops at the first and plays on with the game the replay leaves open.
import { err, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";
import type { GameEnv } from "../game/env.ts";
import type { FrameData, Grid } from "../game-model.ts";
import { actionText } from "../action-text.ts";
import type { LogSection } from "../log/format.ts";

/** Steps one game through a log's sections, opening a fresh one (one at a time) for each episode. */
export class SectionReplayer {
  env: GameEnv | null = null;

  constructor(private readonly open: () => Result<GameEnv, ProlongError> | Promise<Result<GameEnv, ProlongError>>) {}

  /** A game already reset for the first section (resume opens it before the replay starts). */
  adopt(env: GameEnv): void {
    this.env = env;
  }

  /** What the game gives for this section: a fresh game's first frame for INITIAL STATE, the Tool Call's step otherwise. */
  async play(section: Pick<LogSection, "header" | "toolCall">): Promise<Result<FrameData, ProlongError>> {
    if (section.header.kind === "initial") {
      const opened = await this.open();
      if (opened.isErr()) return err(opened.error);
      await this.env?.close(); // one game process at a time (an arc-local bridge is a Python child)
      this.env = opened.value;
      return this.env.reset();
    }
    if (!this.env) return err(prolongError("bad-log", "the log does not start with an INITIAL STATE section"));
    if (!section.toolCall)
      return err(
        prolongError("bad-log", `the section of Action ${section.header.action} has no Tool Call line; nothing to replay`),
      );
    return this.env.step(section.toolCall);
  }

  async close(): Promise<void> {
    await this.env?.close();
    this.env = null;
  }
}

/** Differences between what the log holds and what the game returned, one string per difference. */
export function compareSection(section: LogSection, frame: FrameData): string[] {
  const logged = [...section.frames, section.board];
  const out: string[] = [];
  if (logged.length !== frame.frames.length) out.push(`frame count: log ${logged.length}, replay ${frame.frames.length}`);
  const n = Math.min(logged.length, frame.frames.length);
  for (let k = 0; k < n; k++) {
    const d = gridDiff(logged[k]!, frame.frames[k]!);
    if (d) out.push(`${k === logged.length - 1 ? "settled board" : `frame ${k + 1}/${logged.length - 1}`}: ${d}`);
  }
  if (section.header.score !== frame.levelsCompleted)
    out.push(`score: log ${section.header.score}, replay ${frame.levelsCompleted}`);
  return out;
}

function gridDiff(a: Grid, b: Grid): string | null {
  if (a.width !== b.width || a.height !== b.height) return `size: log ${a.width}x${a.height}, replay ${b.width}x${b.height}`;
  let count = 0;
  let first = -1;
  for (let i = 0; i < a.cells.length; i++) {
    if (a.cells[i] !== b.cells[i]) {
      if (first < 0) first = i;
      count++;
    }
  }
  return count === 0 ? null : `${count} cell(s) differ, first at x=${first % a.width}, y=${Math.floor(first / a.width)}`;
}

export interface ReplayDifference {
  /** Index of the section in the log (0 = the first INITIAL STATE). */
  readonly section: number;
  readonly action: number;
  readonly call: string;
  /** What differs, e.g. "frame 3/12: 41 cells differ, first at x=10, y=20" or "score: log 2, replay 1". */
  readonly what: readonly string[];
}

/** Replays every section and collects the differences; game I/O errors end the replay as errors. A game is opened at the first section. */
export async function replaySections(
  sections: Iterable<LogSection>,
  open: () => Result<GameEnv, ProlongError> | Promise<Result<GameEnv, ProlongError>>,
): Promise<{ ok: true; differences: ReplayDifference[]; boards: number } | { ok: false; error: ProlongError }> {
  const differences: ReplayDifference[] = [];
  const replayer = new SectionReplayer(open);
  let boards = 0;
  let i = -1;
  try {
    // An iterable, so a log can be parsed one section at a time as it is replayed (log/stream.ts).
    for (const section of sections) {
      i++;
      if (i > 0 && section.header.kind !== "initial" && !section.toolCall) {
        differences.push({
          section: i,
          action: section.header.action,
          call: "(none)",
          what: ["the section has no Tool Call line; nothing to replay"],
        });
        continue;
      }
      const r = await replayer.play(section);
      if (r.isErr()) return { ok: false, error: r.error };
      boards += section.frames.length + 1;
      const what = compareSection(section, r.value);
      if (what.length > 0)
        differences.push({
          section: i,
          action: section.header.action,
          call: section.toolCall ? actionText(section.toolCall, "log") : "INITIAL STATE",
          what,
        });
    }
  } finally {
    await replayer.close();
  }
  return { ok: true, differences, boards };
}
