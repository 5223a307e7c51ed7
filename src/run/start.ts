// A fresh run: its directory, its settings on disk, the game's first board as the log's first section.
import { err, ok, type Result } from "neverthrow";
import { writeFileSync } from "node:fs";
import { createAgent } from "../agent/create.ts";
import { instructionsText, INSTRUCTION_FILES } from "../agent/prompts.ts";
import { prolongError, type ProlongError } from "../errors.ts";
import { createGame } from "../game/catalog.ts";
import { arcLocalEnv } from "../game/arc/arc-local.ts";
import { arcOnlineEnv, attachRunDir } from "../game/arc/arc-online.ts";
import { localEnv, type GameEnv } from "../game/env.ts";
import { RunIndex } from "../log/index.ts";
import { MasterLog } from "../log/master.ts";
import { logWindowFromNumber } from "../log/window.ts";
import { describeWindow, type RunConfig } from "./config.ts";
import { EventLog } from "./events.ts";
import { createRunDir, type RunPaths } from "./run-dir.ts";
import type { RunSession } from "./session.ts";
import { armOf } from "./arm.ts";
import { promptContext, sectionFromFrame, writeSection } from "./steps.ts";
import { newTally } from "./tally.ts";

export interface StartOptions {
  readonly runsRoot: string;
  readonly stamp: string;
  /** Directory name under the stamp (the game id, or game-runN for repeated runs). */
  readonly name?: string;
  readonly echo?: (line: string) => void;
  readonly onProgress?: (s: RunSession) => void;
}

/** The game a config names, behind the GameEnv boundary. One place that knows every environment. */
export function openEnv(config: RunConfig): Result<GameEnv, ProlongError> {
  switch (config.env) {
    case "local":
      return createGame(config.game, { seed: config.seed }).map(localEnv);
    case "arc-local": {
      const gamesDir = config.arcGames ?? process.env.PROLONG_ARC_GAMES;
      if (!gamesDir) {
        return err(prolongError("bad-config", "--env arc-local needs the ARC games directory", { fix: "pass --arc-games DIR (<id>/<version>/<id>.py + metadata.json) or set PROLONG_ARC_GAMES" }));
      }
      return arcLocalEnv({ gamesDir, game: config.game, seed: config.seed });
    }
    case "arc-online":
      return arcOnlineEnv({ game: config.game });
  }
}

export async function startRun(config: RunConfig, opts: StartOptions): Promise<Result<RunSession, ProlongError>> {
  const env = openEnv(config);
  if (env.isErr()) return err(env.error);
  const agent = createAgent(config);
  if (agent.isErr()) return err(agent.error);
  const name = opts.name ?? config.game;
  const paths = createRunDir(opts.runsRoot, opts.stamp, name);
  if (paths.isErr()) return err(paths.error);
  const p = paths.value;
  attachRunDir(env.value, p.dir); // an online game saves the server's scorecard there when it closes
  try {
    writeFileSync(p.config, JSON.stringify(config, null, 2) + "\n");
  } catch (e) {
    return err(prolongError("run-dir", `cannot write the run's settings: ${(e as Error).message}`, { path: p.config }));
  }
  const files = openRunFiles(p, `${opts.stamp}/${name}`, opts.echo);
  if (files.isErr()) return err(files.error);
  const first = await env.value.reset();
  if (first.isErr()) {
    // The run directory stays: once the cause is fixed, `prolong resume` starts its log.
    await env.value.close();
    return err({ ...first.error, fix: `${first.error.fix ?? "fix the cause"}; then \`prolong resume ${p.dir}\`` });
  }
  const frame = first.value;
  const s: RunSession = {
    config,
    paths: p,
    window: logWindowFromNumber(config.logWindow),
    name: `${opts.stamp}/${name}`,
    env: env.value,
    ...files.value,
    agent: agent.value,
    tally: newTally(frame),
    frame,
    pending: null,
    resumed: false,
    startedAt: performance.now(),
    priorMs: 0,
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
  };
  writeInstructions(s);
  s.events.emit("run-start", { game: config.game, arm: armOf(config), agent: config.agent, logWindow: describeWindow(config.logWindow), maxActions: config.maxActions, seed: config.seed, ...(s.agent.sandbox ? { sandbox: s.agent.sandbox } : {}) });
  const initial = writeSection(s, sectionFromFrame(frame, { action: 0, level: 1, attempt: 1, score: frame.levelsCompleted, kind: "initial" }, {}));
  if (initial.isErr()) return err(initial.error);
  return ok(s);
}

export function openRunFiles(p: RunPaths, runName: string, echo?: (line: string) => void): Result<{ master: MasterLog; index: RunIndex; events: EventLog }, ProlongError> {
  return MasterLog.open(p.log).andThen((master) =>
    RunIndex.open(p.index).andThen((index) =>
      EventLog.open(p.events, { run: runName, ...(echo ? { echo } : {}) }).map((events) => ({ master, index, events })),
    ),
  );
}

/** The instructions file, under each name the coding CLIs look for. */
export function writeInstructions(s: RunSession): void {
  const text = instructionsText(promptContext(s));
  for (const f of INSTRUCTION_FILES) writeFileSync(`${s.paths.workspace}/${f}`, text);
}
