// THE replay engine: re-executes a log's sections against the game — a fresh game at each INITIAL STATE
// section, the section's Tool Call otherwise — and compares what the game returns with what the log holds
// (a grid game's every animation frame, settled board and score; a terminal game's screen as its kind writes
// it; with a tally, each header). `prolong replay` of a grid game reports every difference; resume, and the
// replay of a terminal game, stop at the first; resume plays on with the game the replay leaves open.
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";
import type { GameEnv } from "../game/env.ts";
import type { SectionRead, StepRule } from "../game/kinds.ts";
import { gridSectionRead } from "../game/grid-section.ts";
import type { FrameData } from "../game-model.ts";
import { actionText } from "../action-text.ts";
import type { LogSection } from "../log/format.ts";
import { newTally, recordStep, startEpisode, type RunTally, type StepEffect } from "./tally.ts";

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

export interface ReplayDifference {
  /** Index of the section in the log (0 = the first INITIAL STATE). */
  readonly section: number;
  readonly action: number;
  readonly call: string;
  /** What differs, e.g. "frame 3/12: 41 cells differ, first at x=10, y=20" or "score: log 2, replay 1". */
  readonly what: readonly string[];
}

export interface ReplayOptions<S extends SectionRead> {
  /**
   * Stop at the first difference (resume, which plays on only from a log the game gives back exactly; a
   * terminal game, whose later screens cannot match once one differs) or collect every one (`prolong replay`
   * of a grid game, to tell which sections a game version changed).
   */
  readonly stopAtFirst: boolean;
  /**
   * The game the replayer already holds, reset, and its first frame: checked against the first section
   * instead of opening another (resume opens the game before it reads the log).
   */
  readonly first?: FrameData;
  /**
   * The tally each step moves as the run moved it; each header is checked against it (a difference when not).
   * `{ new: rule }`: a tally started at the first section's frame by the kind's rule, as a run starts one.
   */
  readonly tally?: RunTally | { readonly new: StepRule };
  /** Called after each section that matches (resume indexes the sections its index had missed). */
  readonly checked?: (section: S) => Result<void, ProlongError>;
}

export interface Replayed {
  readonly differences: ReplayDifference[];
  /** Sections replayed (up to and with the first difference when stopping there). */
  readonly sections: number;
  /** Boards compared (animation frames plus settled boards). */
  readonly boards: number;
  /** The game's frame after the last section replayed. */
  readonly frame: FrameData | null;
  /** What the last action section's step did to the tally (none after an INITIAL STATE). */
  readonly lastEffect: StepEffect | null;
}

/**
 * THE replay: each section played through `replayer` (a fresh game at each INITIAL STATE, the Tool Call's step
 * otherwise) and checked against what the game gives back — the section's own check, and with a tally its
 * header. Resume, `prolong replay` of a grid game and of a terminal game all replay through here. The replayer
 * owns the game: the caller closes it, or plays on with it (resume). A game I/O error ends the replay as an error.
 */
export async function replay<S extends SectionRead>(
  sections: Iterable<S>,
  replayer: SectionReplayer,
  opts: ReplayOptions<S>,
): Promise<Result<Replayed, ProlongError>> {
  const differences: ReplayDifference[] = [];
  let boards = 0;
  let frame: FrameData | null = opts.first ?? null;
  let lastEffect: StepEffect | null = null;
  let tally = opts.tally && "new" in opts.tally ? undefined : opts.tally;
  let i = -1;
  // An iterable, so a log can be parsed one section at a time as it is replayed (log/stream.ts).
  for (const section of sections) {
    i++;
    const h = section.header;
    const call = section.toolCall ? actionText(section.toolCall, "log") : "INITIAL STATE";
    const differ = (what: readonly string[]) => differences.push({ section: i, action: h.action, call, what });
    if (i === 0 && opts.first !== undefined && h.kind !== "initial")
      return err(prolongError("bad-log", "the log does not start with an INITIAL STATE section"));
    if (i > 0 && h.kind !== "initial" && !section.toolCall) {
      differ(["the section has no Tool Call line; nothing to replay"]);
      if (opts.stopAtFirst) break;
      continue;
    }
    let played: FrameData;
    if (i === 0 && opts.first !== undefined) played = opts.first;
    else {
      const r = await replayer.play(section);
      if (r.isErr()) return err(r.error);
      played = r.value;
    }
    frame = played;
    boards += section.boards;
    if (i === 0 && opts.tally && "new" in opts.tally) tally = newTally(played, opts.tally.new);
    const what = [...headerDifference(section, played, i, tally, (e) => (lastEffect = e)), ...section.check(played)];
    if (what.length > 0) {
      differ(what);
      if (opts.stopAtFirst) break;
      continue;
    }
    const c = opts.checked?.(section);
    if (c?.isErr()) return err(c.error);
  }
  return ok({ differences, sections: i + 1, boards, frame, lastEffect });
}

/** A grid game's step rule: its score is its levels completed, a game over is answered by a RESET. */
const GRID_RULE: StepRule = {};

/**
 * A grid game's log replayed whole against fresh games (`prolong replay`): every difference collected, the log
 * read one section at a time if `sections` is a stream, each game closed at the end. `headers`: each header is
 * checked against a tally too, as resume checks it (a log prolong wrote; a published harness's headers are its own).
 */
export async function replayGridLog(
  sections: Iterable<LogSection>,
  open: () => Result<GameEnv, ProlongError> | Promise<Result<GameEnv, ProlongError>>,
  headers = false,
): Promise<Result<Replayed, ProlongError>> {
  function* checked(): Iterable<SectionRead> {
    for (const section of sections) yield gridSectionRead(section);
  }
  const replayer = new SectionReplayer(open);
  try {
    return await replay(checked(), replayer, { stopAtFirst: false, ...(headers ? { tally: { new: GRID_RULE } } : {}) });
  } finally {
    await replayer.close();
  }
}

/** With a tally: the step moves it as the run did, and the header must say what it gives. */
function headerDifference(
  section: SectionRead,
  frame: FrameData,
  i: number,
  tally: RunTally | undefined,
  effect: (e: StepEffect | null) => void,
): string[] {
  if (!tally || i === 0) return [];
  const h = section.header;
  if (h.kind === "initial") {
    startEpisode(tally, frame);
    effect(null);
    return [];
  }
  const step = recordStep(tally, frame);
  effect(step);
  const e = step.header;
  if (e.action === h.action && e.level === h.level && e.attempt === h.attempt && e.score === h.score) return [];
  return [
    `the header says Action ${h.action} | Level ${h.level} | Attempt ${h.attempt} | Score ${h.score}, the replay gives Action ${e.action} | Level ${e.level} | Attempt ${e.attempt} | Score ${e.score}`,
  ];
}
