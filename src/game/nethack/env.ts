// NetHack behind the runner's GameEnv boundary: reset() starts a fresh seeded game in the run's private game
// folder (wiped first), step() plays one named action. Frames carry no grid: their body is the ScreenFrame
// (screen-frame.ts) the log section is written from. Death or any other end of the game is GAME_OVER, which ends
// the episode (there is no RESET in NetHack: the next episode of a lifetime is a new game).
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../../errors.ts";
import type { GameEnv } from "../env.ts";
import type { StepReport } from "../kind.ts";
import type { Action, FrameData, GameInfo } from "../../game-model.ts";
import { screenBody, screenOf, type ScreenFrame } from "./screen-frame.ts";
import type { Character } from "./character.ts";
import { NethackEpisode, type NethackFrame } from "./episode.ts";
import { progressionScore } from "./progression.ts";
import { formatStatus, vitalsOf } from "./status.ts";
import type { BwrapSupport } from "../../sandbox/bwrap.ts";

export const NETHACK_GAME_ID = "nethack";

export const NETHACK_INFO: GameInfo = {
  id: NETHACK_GAME_ID,
  title: "NetHack 3.6",
  winLevels: 0,
  availableActions: [],
  baselineActions: [],
  tags: ["nethack"],
};

export interface NethackEnvOptions {
  /** The run's private game folder (HACKDIR and HOME of the game), wiped at each reset. */
  readonly folder: string;
  readonly seed: number;
  readonly character: Character;
  readonly answerTimeoutMs?: number;
  /** The sandbox the game runs in (confine.ts); absent: unconfined, as the harness's user (--sandbox none). */
  readonly sandbox?: BwrapSupport;
  /** Which --More-- prompts the harness answers (game.ts); BALROG's protocol: all. */
  readonly pressMore?: "level" | "all";
  /** End the episode after this many actions in a row without a game turn (BALROG's no-progress rule). */
  readonly noProgressAfter?: number;
}

export function screenFrame(f: NethackFrame): ScreenFrame {
  const o = f.observation;
  return {
    level: o.status?.dlvl ?? 0,
    score: progressionScore(f.progression),
    progression: f.progression,
    status: o.status ? formatStatus(o.status) : "unknown",
    message: o.message ?? o.screen.rows[0]?.trimEnd() ?? "",
    ...(o.inventory ? { inventory: o.inventory } : {}),
    heldInventory: o.held,
    stops: f.stops,
    notes: f.effect?.escaped ? [f.effect.escaped] : [],
    ...(f.ended !== undefined ? { end: f.ended } : {}),
    rows: o.screen.rows.slice(1),
    colours: o.colours,
    ...(o.status ? { vitals: vitalsOf(o.status) } : {}),
    cursor: o.screen.cursor,
  };
}

/**
 * A NetHack step's header fields and stops, read off its screen (the kind's `report`): the dungeon level is
 * the game's own level, the progression score the header's Score.
 */
export function nethackReport(frame: FrameData): StepReport {
  const screen = screenOf(frame);
  if (!screen) throw new Error("a frame without its NetHack screen reached the NetHack kind's report");
  return {
    score: screen.score,
    level: screen.level,
    stops: screen.stops,
    notes: screen.notes,
    ...(screen.end !== undefined ? { end: screen.end } : {}),
    ...(screen.vitals ? { vitals: screen.vitals } : {}),
  };
}

function frameData(f: NethackFrame): FrameData {
  return {
    frames: [],
    state: f.ended !== undefined ? "GAME_OVER" : "NOT_FINISHED",
    levelsCompleted: 0,
    winLevels: 0,
    availableActions: [],
    body: screenBody(screenFrame(f)),
  };
}

export function nethackEnv(opts: NethackEnvOptions): GameEnv {
  let episode: NethackEpisode | undefined;
  let ended = false;
  return {
    info: NETHACK_INFO,
    async reset(): Promise<Result<FrameData, ProlongError>> {
      await episode?.close();
      const started = await NethackEpisode.start(opts);
      if (started.isErr()) return err(started.error);
      episode = started.value.episode;
      ended = false;
      return ok(frameData(started.value.frame));
    },
    async step(action: Action): Promise<Result<FrameData, ProlongError>> {
      if (!episode)
        return err(
          prolongError("nethack-not-started", "a NetHack action before the game started", {
            fix: "this is a bug in prolong: reset() comes first",
          }),
        );
      if (action.id !== "key")
        return err(
          prolongError("nethack-action", `${JSON.stringify(action)} is not a NetHack action`, {
            fix: "this is a bug in prolong: NetHack runs parse actions.json with the NetHack action names",
          }),
        );
      if (ended)
        return err(
          prolongError("nethack-ended", "the game has ended; no action can be played", {
            fix: "this is a bug in prolong: a GAME_OVER ends the episode",
          }),
        );
      const r = await episode.step({ name: action.name, keys: action.keys, help: "" });
      if (r.isErr()) return err(r.error);
      ended = r.value.ended !== undefined;
      return ok(frameData(r.value));
    },
    async close() {
      await episode?.close();
      episode = undefined;
    },
  };
}
