// What an environment kind is: the one place an environment differs. A kind is two parts. Its description
// (this interface, each kind's own kind.ts) is data any command may load: its settings, the defaults it sets
// differently, what its games are (`--games all`), its metric and its built-in player. Its section codec (how a
// step is written into the log, read back and shown) loads on first use (`codec`), for a run and for a reader of
// a log alike. What plays it — how a game opens, how the agent names its actions, its instructions — is loaded
// only when a run or a replay needs it (`load`), so `prolong score` loads no game.
import { err, ok, type Result } from "neverthrow";
import * as v from "valibot";
import { prolongError, type ProlongError } from "../errors.ts";
import type { Action, FrameData, Grid, HeaderVitals } from "../game-model.ts";
import type { GridMode, SectionExtra, SectionHeader } from "../log/format.ts";
import type { SectionWindowing } from "../log/window.ts";
import type { SettingTable } from "../setting/declaration.ts";
import type { LogWindow } from "../setting/log-window.ts";
import type { EnvContext, GameEnv } from "./env.ts";

/** The run settings a kind's game is opened with: the game, the seed and the kind's own settings. */
export type KindRun<S extends SettingTable> = { readonly game: string; readonly seed: number } & Readonly<
  v.InferOutput<v.ObjectSchema<{ [K in keyof S]: S[K]["schema"] }, undefined>>
>;

/** A game of a kind as a plan records it: its id and version (null where the kind cannot tell before playing). */
export interface GameRef {
  readonly id: string;
  readonly version: string | null;
}

/** A game as `prolong games` lists it. */
export interface GameListing {
  readonly id: string;
  readonly title: string;
  readonly about: string;
  readonly levels: number;
  /** The actions it offers (ACTION1..7); empty where they are known only once the game runs. */
  readonly actions: string[];
  readonly baselines: number[];
  readonly tags: string[];
}

/** What the instructions of a kind may say: the run's limits and the memory arm, which decides what is true. */
export interface InstructionsContext {
  readonly actionCap: number;
  readonly maxActions: number;
  readonly episodes: number;
  /** What part of the log the agent's logs.txt holds; "none": no file, the screen in the prompt. */
  readonly window: LogWindow;
  /** Stateless workspace: wiped each turn but logs.txt, plans.txt and the instructions; plans go to plans.txt. */
  readonly stateless: boolean;
  /** --observe mcp: the screen is never in the prompt; an `observe` tool returns it. */
  readonly observe?: "mcp";
  /** The lines saying which tools the agent may use (--tools, --no-write), worded alike for every kind. */
  readonly tools: readonly string[];
  /** The lines saying what its directory keeps between turns (stateless, no writes), worded alike for every kind. */
  readonly workspace: readonly string[];
}

/**
 * One section read back by its kind's codec, whichever kind wrote it: its header, what it holds beside its
 * observation (plan, action, episode marker), and how a replay checks a step against it.
 */
export interface SectionRead extends SectionExtra {
  readonly header: SectionHeader;
  /** Boards the section holds (a grid game's animation frames and settled board; a screen is one). */
  readonly boards: number;
  /** What a replayed step does not hold of this section, one string per difference (none: it matches). */
  check(frame: FrameData): readonly string[];
}

/**
 * What a section shows its readers, drawn one of two ways by its declared form: cells (a grid game's boards,
 * every animation frame then the settled one) or text rows (a terminal game's whole screen, with its coloured
 * runs per row: [first column, palette index 0..15 — black red green yellow blue magenta cyan white, then bright —,
 * length]; a cell in no run has the terminal's default colour).
 */
export type SectionPicture =
  | { readonly form: "cells"; readonly frames: readonly Grid[]; readonly board: Grid }
  | { readonly form: "text"; readonly rows: readonly string[]; readonly colours: readonly (readonly ColourRun[])[] | null };

/** A run of one colour in a row of text: its first column, its palette index and its length. */
export type ColourRun = readonly [column: number, colour: number, length: number];

/** A section as its readers show it (`log show`, `view`): the same shape from every kind. */
export interface SectionView {
  readonly header: SectionHeader;
  readonly plan?: string;
  /** The action as the Tool Call line names it. */
  readonly action?: string;
  /** The clicked cell, when the action is a click on the board. */
  readonly click?: readonly [number, number];
  readonly episode?: { readonly index: number; readonly total: number };
  /** What the section says beside its picture, one line each as logged (a terminal game's status, message, inventory, events, end). */
  readonly lines: readonly string[];
  /** How the game ended, in its own words, when the section says so. */
  readonly end?: string;
  readonly picture: SectionPicture;
}

/** The run's settings a section is written with: the grid games' board encoding (a screen has none). */
export interface SectionWriting {
  readonly gridMode: GridMode;
}

/**
 * How a kind's steps are written into the log's family of sections and read back: every kind has one (the grid
 * games share the grid format's, game/grid-section.ts). A frame's body is read by this codec alone: the run hands
 * it the whole frame. How its windows are cut (SectionWindowing) is the codec's too.
 */
export interface SectionCodec extends SectionWindowing {
  /**
   * A step's section text as it stands at the end of a log (sections are joined by SECTION_JOIN) and the boards
   * it holds; or why the frame holds no observation of this kind.
   */
  write(
    frame: FrameData,
    header: SectionHeader,
    extra: SectionExtra,
    run: SectionWriting,
  ): Result<{ readonly text: string; readonly boards: number }, string>;
  /** A section's text read back, or why it is not one of this kind's sections. */
  read(text: string): Result<SectionRead, string>;
  /**
   * How `prolong replay` reports a log: every difference (a grid game's, read one section at a time, to tell which
   * sections a game version changed), or the first (a terminal game's screens cannot match once one differs).
   */
  readonly replay: "every-difference" | "first-difference";
  /**
   * What the no-log arm's prompt shows of the newest section: its observation whole (the published harness's
   * current board; a terminal game's whole screen, with the inventory as last read, the game's current frame's,
   * when the section does not list it).
   */
  current(text: string, frame?: FrameData): Result<string, string>;
  /** A section as its readers show it, or why it is not one of this kind's sections. */
  view(text: string): Result<SectionView, string>;
}

/** What a person at the keyboard is shown of a terminal game's step (agent/human-terminal.ts). */
export interface TerminalPicture {
  /** The top row. */
  readonly message: string;
  /** The rows below it. */
  readonly rows: readonly string[];
  /** The whole screen's colours (top row first), one code per cell as the kind's codec writes them. */
  readonly colours?: readonly string[];
  /** Where the game left the cursor (row 0 = the top row). */
  readonly cursor?: { readonly x: number; readonly y: number };
}

/**
 * A terminal game's keyboard, for a person playing it (agent/human-terminal.ts): which typed key sends which of
 * the kind's actions. The harness keeps Ctrl-C, Ctrl-X and `#` (an extended command typed on its own line).
 */
export interface TerminalKeys {
  /** A key as the terminal reader names it ("k", "enter", "up", "ctrl-d") → the actions.json entry that sends it. */
  entryOfKey(key: string): string | undefined;
  /** A typed extended command (without the `#`) → its entry; undefined when the game offers no such command. */
  extendedEntry(text: string): string | undefined;
  /** The extended commands offered, by the names typed after `#`. */
  readonly extendedNames: readonly string[];
  /** The keys entryOfKey passes on, said short enough for a message row. */
  readonly offered: string;
  /** What the game is called in a refusal ("the NetHack environment"). */
  readonly title: string;
  /** The screen a step shows a person (read from the step's body), or undefined when the step holds none. */
  screen(frame: FrameData): TerminalPicture | undefined;
}

/**
 * What a step says for its section's header and the run's counters: the same fields from every kind, so the
 * run reads a step (tally.ts, record.ts) without asking what the game draws.
 */
export interface StepReport {
  /** The header's Score after the step: levels completed (a grid game), a terminal game's progression score. */
  readonly score: number;
  /** The game's own level after the step (NetHack's dungeon level); absent: the run counts levels by the score. */
  readonly level?: number;
  /** The header's XL, HP and Turn, for a game whose status shows them. */
  readonly vitals?: HeaderVitals;
  /** What happened that drops the rest of a batch (HP lost, a new monster, the end). */
  readonly stops: readonly string[];
  /** Harness notes on the step (a prompt escaped), told as warnings. */
  readonly notes: readonly string[];
  /** How the game ended, once it has, in its own words. */
  readonly end?: string;
}

/** What plays a kind: loaded by `EnvKind.load` when a run or a replay needs it. */
export interface KindPlay<S extends SettingTable = SettingTable> {
  /** The game a run names, behind the GameEnv boundary. */
  open(run: KindRun<S>, context: EnvContext): Result<GameEnv, ProlongError>;
  /**
   * One entry of actions.json as this kind names actions, for the run's settings when a run reads it (a
   * protocol may play an entry that is no action as another, with a note the agent is shown); absent: the
   * grid games' ACTION1..7 grammar.
   */
  readonly actionEntry?: (entry: string, run?: KindRun<S>) => Result<Action & { readonly note?: string }, string>;
  /** The instructions file; absent: the grid games' text (agent/prompts.ts). */
  readonly instructions?: (c: InstructionsContext, run?: KindRun<S>) => string;
  /** A step's header fields and stops; absent: a grid game's, its levels completed (stepReport). */
  readonly report?: (frame: FrameData) => StepReport;
  /** Its section codec: the kind's own (EnvKind.codec), given by loadKind. */
  readonly codec: SectionCodec;
  /** A terminal game's keyboard for a person (`--agent human`); absent: the grid games' keys. */
  readonly keys?: TerminalKeys;
  /**
   * Whether a game over is answered by a RESET (ARC's rule: the level starts again, the run's own RESET counted
   * as an action) or ends the episode for good (NetHack: death, and no RESET). Absent: it resets.
   */
  readonly atGameOver?: "reset" | "episode-ends";
}

/** What of a kind decides how its steps move the run's counters (tally.ts). */
export type StepRule = Pick<KindPlay, "report" | "atGameOver">;

/** A step's report by its kind's rule; a grid game's (no `report`) is its levels completed, with no stops. */
export function stepReport(rule: Pick<KindPlay, "report">, frame: FrameData): StepReport {
  return rule.report ? rule.report(frame) : { score: frame.levelsCompleted, stops: [], notes: [] };
}

export interface EnvKind<S extends SettingTable = SettingTable> {
  /** What `--env` calls it. */
  readonly name: string;
  /** What it is, in a few words for --help. */
  readonly about: string;
  /** What plays its games, as messages name it ("match NetHack at seed 3"). */
  readonly title: string;
  /**
   * Its own settings, declared as the run's are (setting/declaration.ts): run.json holds them beside the
   * run's, they apply to this kind only, and their flags are play's.
   */
  readonly settings: S;
  /** Run settings whose default differs for this kind (NetHack: episodes of 20,000 actions). */
  readonly defaults?: Readonly<Record<string, unknown>>;
  /** What its runs are scored by. */
  readonly metric: "rhae" | "progression";
  /** Its observations are a terminal's screen (written by its section codec), not grid boards. */
  readonly terminalGame?: true;
  /** The game of a kind that has only one: `play --env K` (and --runs, --games all) needs no game named. */
  readonly soleGame?: string;
  /** The built-in player `--agent explorer` (the default) means for this kind (agent/create.ts makes it). */
  readonly builtinPlayer: "explorer" | "nethack-agent";
  /**
   * What outside this build decides the kind's runs (a game binary's hash, its options), for the run's
   * provenance; it loads what it reads when called.
   */
  readonly provenance?: (run: Omit<KindRun<S>, "game" | "seed">) => Record<string, string>;
  /**
   * Its games: every one (`--games all`) or the ones named, each checked and with its version. Play, plan and
   * `games` all ask here, so they agree on what "all" is and read the same environment variables.
   */
  games(run: Omit<KindRun<S>, "game" | "seed">, ids: readonly string[] | "all"): Promise<Result<GameRef[], ProlongError>>;
  /** Its games as `prolong games` lists them (levels, actions, baselines, tags); absent: it has no list to show. */
  readonly listing?: (run: Omit<KindRun<S>, "game" | "seed">) => Promise<Result<GameListing[], ProlongError>>;
  /** What plays it, loaded when a run needs it (loadKind adds its codec). */
  load(): Promise<Omit<KindPlay<S>, "codec">>;
  /**
   * Its section codec alone: how its steps are written into the log and read back. Loaded synchronously, for
   * readers that go section by section, and for a log that does not say which kind wrote it (game/kinds.ts).
   */
  readonly codec: () => SectionCodec;
}

/** The games of a kind that has one: `all` or that one's id is it; any other id is refused. */
export function soleGame(
  id: string,
  version: string | null,
  kind: string,
): (run: object, ids: readonly string[] | "all") => Promise<Result<GameRef[], ProlongError>> {
  return async (_run, ids) => {
    const other = ids === "all" ? undefined : ids.find((g) => g !== id);
    return other === undefined
      ? ok([{ id, version }])
      : err(prolongError("unknown-game", `--env ${kind} has one game, '${id}', not '${other}'`, { fix: "leave the game out" }));
  };
}

/** The grid games' section codec (game/grid-section.ts), loaded on first use: a kind's description loads no log code. */
export function gridCodec(): SectionCodec {
  return (require("./grid-section.ts") as typeof import("./grid-section.ts")).gridCodec;
}

/** Declares a kind, keeping its settings' types. */
export function envKindOf<S extends SettingTable>(kind: EnvKind<S>): EnvKind<S> {
  return kind;
}
