// The parts a run is played with when the caller passes none: the game, the agent and the event log a
// RunConfig names (the clock defaults to the real one), and the context through which environments leave
// files in the run. The game is opened by the run's environment kind (game/kinds.ts).
import { ok, type Result } from "neverthrow";
import { createAgent } from "../agent/create.ts";
import { basename, join } from "node:path";
import type { Agent } from "../agent/agent.ts";
import type { Clock } from "../clock.ts";
import type { ProlongError } from "../errors.ts";
import type { EnvContext, GameEnv } from "../game/env.ts";
import { loadKind } from "../game/kinds.ts";
import { writeFileReplacing } from "../safe-file.ts";
import { gameSandbox } from "../sandbox/bwrap.ts";
import type { RunConfig } from "../config/run-config.ts";
import { EventLog, type EventSink } from "../run-files/events.ts";
import type { RunPaths } from "../run-files/layout.ts";
import type { RunParts } from "./session.ts";

/** The game a config names, behind the GameEnv boundary, opened by its environment kind. */
export async function openEnv(config: RunConfig, context: EnvContext): Promise<Result<GameEnv, ProlongError>> {
  return (await loadKind(config.env)).open(config, context);
}

/**
 * The context an environment reports through: files land in the run directory (plain names only, never
 * one of the harness's own), summary lines are kept for finish.ts to add to summary.txt. A game's own process
 * runs in the sandbox the run's --sandbox names (bwrap, or auto where bwrap works here).
 */
export function runEnvContext(paths: RunPaths, summaryLines: string[], sandbox: RunConfig["sandbox"]): EnvContext {
  const own = new Set(Object.values(paths).map((p) => basename(p)));
  return {
    workDir: paths.dir,
    sandbox: () => gameSandbox(sandbox),
    saveFile(name, text) {
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) || own.has(name)) {
        summaryLines.push(`  note       the environment asked to write '${name}', which is not a name it may use`);
        return;
      }
      const wrote = writeFileReplacing(join(paths.dir, name), text);
      if (wrote.isErr()) summaryLines.push(`  note       cannot save ${name}: ${wrote.error.message}`);
    },
    summaryLine(line) {
      summaryLines.push(line);
    },
  };
}

/** The agent given, or the one the config names. */
export function agentPart(config: RunConfig, given: Partial<RunParts>, workspace?: string): Result<Agent, ProlongError> {
  return given.agent ? ok(given.agent) : createAgent(config, undefined, workspace);
}

/** The event sink given, or the run's events.jsonl (its times from the run's clock). */
export function eventsPart(
  given: Partial<RunParts>,
  place: { path: string; run: string; echo?: (line: string) => void },
  clock: Clock,
): Result<EventSink, ProlongError> {
  if (given.events) return ok(given.events);
  return EventLog.open(place.path, {
    run: place.run,
    now: () => new Date(clock.now()),
    ...(place.echo ? { echo: place.echo } : {}),
  });
}
