// One NetHack episode as the run loop plays it: a fresh seeded game in the run's private game folder,
// stepped by named actions; each step's observation with what the log and the batch rules need (the
// progression so far, why the rest of a batch should be dropped, whether the episode ended).
import { err, ok, type Result } from "neverthrow";
import type { ProlongError } from "../../errors.ts";
import type { NamedAction } from "./actions.ts";
import type { Character } from "./character.ts";
import { NethackGame, type Observation, type StepEffect } from "./game.ts";
import { batchStops } from "./observe.ts";
import { nextDepth, type DepthState } from "./depth.ts";
import { dungeonDepthStart } from "./dungeon-table.ts";
import { progressionAt } from "./progression.ts";
import type { BwrapSupport } from "../../sandbox/bwrap.ts";

export interface NethackFrame {
  readonly observation: Observation;
  readonly effect?: StepEffect;
  /** Why the rest of the batch is dropped after this step (empty: go on). */
  readonly stops: readonly string[];
  /** Best BALROG progression of the episode so far (0..1). */
  readonly progression: number;
  readonly maxDepth: number;
  readonly maxXl: number;
  /** How the game ended (death, quit, a crash), once it has. */
  readonly ended?: string;
}

export interface EpisodeOptions {
  readonly folder: string;
  readonly seed: number;
  readonly character: Character;
  readonly answerTimeoutMs?: number;
  /** Debug mode, for tests (game.ts). */
  readonly wizard?: boolean;
  /** The sandbox the game runs in (confine.ts); absent: unconfined, as the harness's user (--sandbox none). */
  readonly sandbox?: BwrapSupport;
  /** Which --More-- prompts the harness answers (game.ts). */
  readonly pressMore?: "level" | "all";
  /** End the episode after this many actions in a row that leave the game's turn counter where it was. */
  readonly noProgressAfter?: number;
}

/**
 * BALROG's no-progress rule (NLE's no_progress_timeout in its NetHack settings): an episode whose turn counter
 * has not moved for 150 actions in a row is over.
 */
export const BALROG_NO_PROGRESS = 150;

export class NethackEpisode {
  private progression = 0;
  private maxDepth = 1;
  private maxXl = 1;
  /** What the real depth is read from in the Quest and Fort Ludios (depth.ts). */
  private depth: DepthState = {};

  /** Actions in a row after which the game's turn counter stood where it was. */
  private still = 0;
  private lastTurn: number | undefined;

  private constructor(
    private readonly game: NethackGame,
    private readonly folder: string,
    private readonly noProgressAfter: number | undefined,
  ) {}

  static async start(opts: EpisodeOptions): Promise<Result<{ episode: NethackEpisode; frame: NethackFrame }, ProlongError>> {
    const started = await NethackGame.start(opts);
    if (started.isErr()) return err(started.error);
    const episode = new NethackEpisode(started.value.game, opts.folder, opts.noProgressAfter);
    episode.lastTurn = started.value.observation.status?.turn;
    return ok({ episode, frame: episode.frame(started.value.observation, undefined) });
  }

  async step(action: NamedAction): Promise<Result<NethackFrame, ProlongError>> {
    const r = await this.game.step(action);
    if (r.isErr()) return err(r.error);
    const frame = this.frame(r.value.observation, r.value.effect);
    const stalled = this.stalled(frame.observation.status?.turn);
    if (frame.ended !== undefined || stalled === undefined) return ok(frame);
    return ok({ ...frame, stops: [...frame.stops, "the game ended"], ended: stalled });
  }

  /** Why the episode is over by the no-progress rule, once it is. */
  private stalled(turn: number | undefined): string | undefined {
    if (this.noProgressAfter === undefined) return undefined;
    this.still = turn !== undefined && turn === this.lastTurn ? this.still + 1 : 0;
    this.lastTurn = turn ?? this.lastTurn;
    if (this.still < this.noProgressAfter) return undefined;
    return `no progress: the game's turn counter stood still for ${this.still} actions (BALROG's rule)`;
  }

  private frame(observation: Observation, effect: StepEffect | undefined): NethackFrame {
    const st = observation.status;
    if (st) {
      const seen = nextDepth(this.depth, st.place, () => dungeonDepthStart(this.folder, "Fort Ludios"));
      this.depth = seen.state;
      if (seen.depth !== undefined && seen.depth > 0) this.maxDepth = Math.max(this.maxDepth, seen.depth);
      this.maxXl = Math.max(this.maxXl, st.xl);
      // BALROG's rule: the values of where the hero is now, the episode keeping the largest seen.
      this.progression = Math.max(this.progression, progressionAt(seen.depth, st.xl));
    }
    const ascended = observation.ended !== undefined && /ascended/.test(observation.ended);
    if (ascended) this.progression = 1;
    const stops = effect ? batchStops(effect) : [];
    return {
      observation,
      ...(effect ? { effect } : {}),
      stops: observation.ended !== undefined ? [...stops, "the game ended"] : stops,
      progression: this.progression,
      maxDepth: this.maxDepth,
      maxXl: this.maxXl,
      ...(observation.ended !== undefined ? { ended: observation.ended } : {}),
    };
  }

  get pid(): number {
    return this.game.pid;
  }

  async close(): Promise<void> {
    await this.game.close();
  }
}
