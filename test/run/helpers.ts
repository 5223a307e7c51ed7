// Runs a whole game in-process in a temporary runs directory, for the loop's tests.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { newConfig, type RunConfigInput } from "../../src/config/run-config.ts";
import { finishRun, type RunSummary } from "../../src/run/finish.ts";
import { runLoop } from "../../src/run/runner.ts";
import type { RunEnd, RunParts, RunSession } from "../../src/run/session.ts";
import { startRun } from "../../src/run/start.ts";
import type { RunEvent } from "../../src/run-files/events.ts";

export interface PlayedRun {
  readonly session: RunSession;
  readonly end: RunEnd;
  readonly summary: RunSummary;
  readonly master: string;
  readonly events: RunEvent[];
}

export function tempRoot(): string {
  return mkdtempSync(join(tmpdir(), "prolong-test-"));
}

/** Plays a whole run through the real loop; `parts` replaces the game, agent, clock or events the config names. */
export async function playGame(
  fields: Partial<RunConfigInput> & { game: string },
  root = tempRoot(),
  parts: Partial<RunParts> = {},
): Promise<PlayedRun> {
  const config = newConfig(fields)._unsafeUnwrap();
  const session = (await startRun(config, { runsRoot: root, stamp: "t" }, parts))._unsafeUnwrap();
  const end = await runLoop(session, new AbortController().signal);
  const { summary } = await finishRun(session, end);
  return {
    session,
    end,
    summary,
    master: readFileSync(session.paths.log, "utf8"),
    events: existsSync(session.paths.events) ? readEventsFile(session.paths.events) : [],
  };
}

export function readEventsFile(path: string): RunEvent[] {
  return readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as RunEvent);
}

/** The header lines of a log, in order. */
export function headers(log: string): string[] {
  return log.split("\n").filter((l) => /^Action \d+ \|/.test(l));
}
