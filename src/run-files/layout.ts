// Where a run's files live. runs/<timestamp>/<game>/ holds the harness's files; workspace/ is the only
// directory an agent may touch.
import { err, ok, type Result } from "neverthrow";
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { prolongError, type ProlongError } from "../errors.ts";

/** THE names of a run directory's files: everything that reads or writes one builds its paths from these. */
export const RUN_FILES = {
  log: "logs.txt",
  index: "index.sqlite",
  events: "events.jsonl",
  /** What the agent did each turn: model steps and tool calls, one shape for every backend (trajectory.ts). */
  trajectory: "trajectory.jsonl",
  config: "run.json",
  scorecard: "scorecard.json",
  summary: "summary.txt",
  workspace: "workspace",
  /** --observe: the directory holding what the observe tool returns (observation.txt), read-only to the agent. */
  observe: "observe",
  /** The mini agent's conversation (its session), beside the workspace. */
  agentConversation: "agent-conversation.json",
  /** Stateless arm: the harness's copy of workspace/plans.txt, what the agent's copy is restored to. */
  plans: "plans.txt",
} as const;

export interface RunPaths {
  readonly dir: string;
  /** The master log: outside the workspace, append-only. */
  readonly log: string;
  readonly index: string;
  readonly events: string;
  readonly trajectory: string;
  /** The run's settings (RunConfig), read back by resume. */
  readonly config: string;
  readonly scorecard: string;
  readonly summary: string;
  readonly workspace: string;
  /** The agent's copy of the log. */
  readonly copy: string;
  readonly actions: string;
  readonly plans: string;
  /** The --observe arm's observation, outside the workspace (observationPath). */
  readonly observation: string;
}

export function runPaths(dir: string): RunPaths {
  const abs = resolve(dir);
  const workspace = join(abs, RUN_FILES.workspace);
  return {
    dir: abs,
    log: join(abs, RUN_FILES.log),
    index: join(abs, RUN_FILES.index),
    events: join(abs, RUN_FILES.events),
    trajectory: join(abs, RUN_FILES.trajectory),
    config: join(abs, RUN_FILES.config),
    scorecard: join(abs, RUN_FILES.scorecard),
    summary: join(abs, RUN_FILES.summary),
    workspace,
    copy: join(workspace, RUN_FILES.log),
    actions: join(workspace, "actions.json"),
    plans: join(workspace, "plans.txt"),
    observation: observationPath(abs),
  };
}

/** The --observe arm's observation file of the run in `dir` (also: beside a workspace, join(dirname(ws), ...)). */
export function observationPath(dir: string): string {
  return join(resolve(dir), RUN_FILES.observe, "observation.txt");
}

/**
 * A filesystem-safe name for runs/<stamp>/: the time to the millisecond and four random characters, such as
 * 2026-11-29T20-01-05-123-k3f9 (sorts by time; two runs started in the same millisecond still differ).
 */
export function runStamp(now: Date, random: () => number = Math.random): string {
  const suffix = Array.from({ length: 4 }, () => "abcdefghijklmnopqrstuvwxyz0123456789"[Math.floor(random() * 36)]).join("");
  return `${now.toISOString().slice(0, 23).replace(/[:.]/g, "-")}-${suffix}`;
}

/**
 * Makes runs/<stamp>/ for a new run (or set of runs) and returns the stamp. The directory is created
 * exclusively: a name another process took first is never shared, a fresh suffix is drawn instead.
 */
export function claimStamp(root: string, now: Date, random: () => number = Math.random): Result<string, ProlongError> {
  try {
    mkdirSync(root, { recursive: true });
  } catch (e) {
    return err(
      prolongError("run-dir", `cannot create the runs directory: ${(e as Error).message}`, {
        path: root,
        fix: "choose a writable --runs-dir",
      }),
    );
  }
  let last = "";
  for (let attempt = 0; attempt < 16; attempt++) {
    const stamp = runStamp(now, random);
    try {
      mkdirSync(join(root, stamp));
      return ok(stamp);
    } catch (e) {
      last = (e as Error).message;
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") break;
    }
  }
  return err(
    prolongError("run-dir", `cannot create a new run directory: ${last}`, { path: root, fix: "choose a writable --runs-dir" }),
  );
}

/** Creates runs/<stamp>/<name>/ and its workspace; refuses to reuse a directory that already holds a log. */
export function createRunDir(root: string, stamp: string, name: string): Result<RunPaths, ProlongError> {
  const paths = runPaths(join(root, stamp, name));
  if (existsSync(paths.log)) {
    // Only --run-dir can point here (new runs claim a fresh stamp): the log may be anybody's, so no resume hint.
    return err(
      prolongError("run-exists", "this run directory already holds a log; a new run needs a directory of its own", {
        path: paths.dir,
        fix: "leave out --run-dir (each run gets a new directory), or give one without a logs.txt",
      }),
    );
  }
  try {
    mkdirSync(paths.workspace, { recursive: true });
  } catch (e) {
    return err(
      prolongError("run-dir", `cannot create the run directory: ${(e as Error).message}`, {
        path: paths.dir,
        fix: "choose a writable --runs-dir",
      }),
    );
  }
  return ok(paths);
}
