// Where a run's files live. runs/<timestamp>/<game>/ holds the harness's files; workspace/ is the only
// directory an agent may touch.
import { err, ok, type Result } from "neverthrow";
import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { prolongError, type ProlongError } from "../errors.ts";

export interface RunPaths {
  readonly dir: string;
  /** The master log: outside the workspace, append-only. */
  readonly log: string;
  readonly index: string;
  readonly events: string;
  /** The run's settings (RunConfig), read back by resume. */
  readonly config: string;
  readonly scorecard: string;
  readonly summary: string;
  readonly workspace: string;
  /** The agent's copy of the log. */
  readonly copy: string;
  readonly actions: string;
  readonly plans: string;
}

export function runPaths(dir: string): RunPaths {
  const abs = resolve(dir);
  const workspace = join(abs, "workspace");
  return {
    dir: abs,
    log: join(abs, "logs.txt"),
    index: join(abs, "index.sqlite"),
    events: join(abs, "events.jsonl"),
    config: join(abs, "run.json"),
    scorecard: join(abs, "scorecard.json"),
    summary: join(abs, "summary.txt"),
    workspace,
    copy: join(workspace, "logs.txt"),
    actions: join(workspace, "actions.json"),
    plans: join(workspace, "plans.txt"),
  };
}

/** A filesystem-safe timestamp such as 2026-11-29T20-01-05. */
export function runStamp(now: Date): string {
  return now.toISOString().slice(0, 19).replace(/:/g, "-");
}

/** Creates runs/<stamp>/<name>/ and its workspace; refuses to reuse a directory that already holds a log. */
export function createRunDir(root: string, stamp: string, name: string): Result<RunPaths, ProlongError> {
  const paths = runPaths(join(root, stamp, name));
  if (existsSync(paths.log)) {
    return err(prolongError("run-exists", "this run directory already holds a log", { path: paths.dir, fix: `resume it with 'prolong resume ${paths.dir}' or choose another --runs-dir` }));
  }
  try {
    mkdirSync(paths.workspace, { recursive: true });
  } catch (e) {
    return err(prolongError("run-dir", `cannot create the run directory: ${(e as Error).message}`, { path: paths.dir, fix: "choose a writable --runs-dir" }));
  }
  return ok(paths);
}
