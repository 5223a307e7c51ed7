// What an environment kind supplies to the run, so that the runner, the sync, resume, replay and scoring stay
// one code path for grid games and terminal games: how to open it, how the agent names its actions, what the
// instructions say, how one of its sections is written and read back, and which metric scores it. The run
// reaches environments only through this file (test/import-direction.test.ts keeps it so).
import { err, ok, type Result } from "neverthrow";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ENV_KINDS, RunConfig } from "../config/run-config.ts";
import { prolongError, type ProlongError } from "../errors.ts";
import type { Action, ScreenFrame } from "../game-model.ts";
import { parseHeader, type SectionHeader } from "../log/format.ts";
import { arcLocalEnv } from "./arc/arc-local.ts";
import { arcOnlineEnv } from "./arc/arc-online.ts";
import { createGame } from "./catalog.ts";
import { localEnv, type EnvContext, type GameEnv } from "./env.ts";
import { nethackEntry } from "./nethack/actions.ts";
import { characterOf } from "./nethack/character.ts";
import { nethackProvenance } from "./nethack/provenance.ts";
import { NETHACK_GAME_ID, nethackEnv } from "./nethack/env.ts";
import { findNethack } from "./nethack/install.ts";
import { nethackInstructions } from "./nethack/instructions.ts";
import { currentScreenText, parseNethackSection, screenSectionOf, writeNethackSection } from "./nethack/section.ts";

export type EnvKindName = (typeof ENV_KINDS)[number];

/** What the instructions of a kind may say: the run's limits and what the agent's memory is. */
export interface InstructionsContext {
  readonly actionCap: number;
  readonly maxActions: number;
  readonly episodes: number;
  /** Whether the agent has a log file (false in the no-log arm: the screen is in the prompt). */
  readonly hasLog: boolean;
  /** What the agent's memory holds now, as the prompts say it. */
  readonly memory: string;
}

/** The parts of a terminal game's section beside its observation: the plan, the action, the episode marker. */
export interface ScreenExtra {
  readonly plan?: string;
  readonly toolCall?: Action;
  readonly episode?: { readonly index: number; readonly total: number };
}

/** A terminal game's section, read back: its header and the parts the replay needs. */
export interface ScreenSectionRead extends ScreenExtra {
  readonly header: SectionHeader;
}

/** How a terminal game's observation is written into the log's family of sections, and read back. */
export interface ScreenSectionCodec {
  /** The section's text as it stands at the end of a log (sections are joined by SECTION_JOIN). */
  write(screen: ScreenFrame, header: SectionHeader, extra: ScreenExtra): string;
  /** A section's text read back, or why it is not one of this kind's sections. */
  read(text: string): Result<ScreenSectionRead, string>;
  /**
   * What the no-log arm's prompt shows of the newest section: its observation with the whole screen, and
   * the inventory as last read (`held`) when the section does not list it.
   */
  current(text: string, held?: readonly string[]): Result<string, string>;
}

export interface EnvKind {
  /** The game a config names, behind the GameEnv boundary. */
  open(config: RunConfig, context: EnvContext): Result<GameEnv, ProlongError>;
  /** One entry of actions.json as this kind names actions; absent: the grid games' ACTION1..7 grammar. */
  readonly actionEntry?: (entry: string) => Result<Action, string>;
  /** The instructions file; absent: the grid games' text (agent/prompts.ts). */
  readonly instructions?: (c: InstructionsContext) => string;
  /** A terminal game's section body; absent: the grid games' boards (log/format.ts). */
  readonly screenLog?: ScreenSectionCodec;
  /** What its runs are scored by. */
  readonly metric: "rhae" | "progression";
  /** The game of a kind that has only one: `play --env K` (and --runs, --games all) needs no game named. */
  readonly soleGame?: string;
  /** The built-in player `--agent explorer` (the default) means for this kind (agent/create.ts makes it). */
  readonly builtinPlayer: "explorer" | "nethack-agent";
  /** What outside this build decides the kind's runs (a game binary's hash, its options), for the run's provenance. */
  readonly provenance?: (config: RunConfig) => Record<string, string>;
}

const local: EnvKind = {
  open: (config) => createGame(config.game, { seed: config.seed }).map(localEnv),
  metric: "rhae",
  builtinPlayer: "explorer",
};

const arcLocal: EnvKind = {
  open(config) {
    const gamesDir = config.arcGames ?? process.env.PROLONG_ARC_GAMES;
    if (!gamesDir) {
      return err(
        prolongError("bad-config", "--env arc-local needs the ARC games directory", {
          fix: "pass --arc-games DIR (<id>/<version>/<id>.py + metadata.json) or set PROLONG_ARC_GAMES",
        }),
      );
    }
    return arcLocalEnv({ gamesDir, game: config.game, seed: config.seed });
  },
  metric: "rhae",
  builtinPlayer: "explorer",
};

const arcOnline: EnvKind = {
  open: (config, context) => arcOnlineEnv({ game: config.game, context }),
  metric: "rhae",
  builtinPlayer: "explorer",
};

const nethackLog: ScreenSectionCodec = {
  write: (screen, header, extra) => writeNethackSection(screenSectionOf(screen, header, extra)),
  read(text) {
    const parsed = parseNethackSection(text, parseHeader);
    if (typeof parsed === "string") return err(parsed);
    const named = parsed.action === undefined ? undefined : nethackEntry(parsed.action);
    if (named?.isErr()) return err(`action ${parsed.header.action}: ${named.error}`);
    return ok({
      header: parsed.header,
      ...(parsed.plan !== undefined ? { plan: parsed.plan } : {}),
      ...(named?.isOk() ? { toolCall: named.value } : {}),
      ...(parsed.episode ? { episode: parsed.episode } : {}),
    });
  },
  current(text, held) {
    const parsed = parseNethackSection(text, parseHeader);
    return typeof parsed === "string" ? err(parsed) : ok(currentScreenText(parsed, held));
  },
};

const nethack: EnvKind = {
  open(config, context) {
    const character = characterOf(config);
    return findNethack().map(() =>
      nethackEnv({
        folder: join(context.workDir ?? mkdtempSync(join(tmpdir(), "prolong-nethack-")), "nethack"),
        seed: config.seed,
        character,
      }),
    );
  },
  actionEntry: nethackEntry,
  instructions: nethackInstructions,
  screenLog: nethackLog,
  metric: "progression",
  soleGame: NETHACK_GAME_ID,
  builtinPlayer: "nethack-agent",
  provenance: nethackProvenance,
};

const KINDS: Record<EnvKindName, EnvKind> = { local, "arc-local": arcLocal, "arc-online": arcOnline, nethack };

/** The environment kind a config's --env names. */
export function envKind(name: EnvKindName): EnvKind {
  return KINDS[name];
}
