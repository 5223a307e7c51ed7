// What `prolong view` is pointed at: a run directory (logs.txt + events.jsonl + scorecard.json) or a bare
// log file. Side files are optional; a bad one becomes a warning, never a failed view.
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";
import { readEvents, type RunEvent } from "../run-files/events.ts";
import { readScorecardSummary } from "../score/scorecard.ts";
import { RUN_FILES } from "../run-files/layout.ts";
import { readTrajectory, type TrajectoryRecord } from "../run-files/trajectory.ts";
import type { EnvKind } from "../game/kinds.ts";
import { logKind } from "../inspect/log-kind.ts";

export interface ViewSource {
  readonly logPath: string;
  /** The run directory, when given one. */
  readonly runDir: string | null;
  /** A name for the page: the game id when known, else the log's directory name. */
  readonly title: string;
  readonly events: RunEvent[];
  /** The run's trajectory.jsonl (empty without one): the step panel's tool calls. */
  readonly trajectory: TrajectoryRecord[];
  readonly scorecard: {
    readonly levelsCompleted: number | null;
    readonly winLevels: number | null;
    readonly score: number | null;
    /** What `score` measures: RHAE, or BALROG progression in percent (NetHack). */
    readonly metric: "rhae" | "progression";
  } | null;
  readonly warnings: string[];
  /** The kind the run beside the log names (its codec reads the sections first); absent for a bare log. */
  readonly kind?: EnvKind;
}

function readScorecard(file: string, warnings: string[]): { title: string | null; card: ViewSource["scorecard"] } {
  const read = readScorecardSummary(file);
  if (read.isErr()) {
    warnings.push(`${file}: ${read.error.message}; shown without the scorecard`);
    return { title: null, card: null };
  }
  const s = read.value;
  if (!s) return { title: null, card: null };
  return {
    title: s.gameId,
    card: { levelsCompleted: s.levelsCompleted, winLevels: s.winLevels, score: s.rhae, metric: s.metric },
  };
}

export function openViewSource(given: string): Result<ViewSource, ProlongError> {
  let isDir: boolean;
  try {
    isDir = statSync(given).isDirectory();
  } catch {
    return err(
      prolongError("missing-file", "no such file or directory", {
        path: given,
        fix: "give a run directory (runs/<stamp>/<game>) or a logs.txt",
      }),
    );
  }
  const dir = isDir ? given : path.dirname(given);
  const logPath = isDir ? path.join(given, RUN_FILES.log) : given;
  if (isDir && !existsSync(logPath)) {
    return err(
      prolongError("missing-file", "this directory holds no logs.txt", {
        path: given,
        fix: "give a run directory (runs/<stamp>/<game>) or a log file",
      }),
    );
  }
  const warnings: string[] = [];
  // Side files are read only next to a log called logs.txt: a run's layout, not any file's neighbours.
  const inRun = path.basename(logPath) === RUN_FILES.log;
  let events: RunEvent[] = [];
  const eventsPath = path.join(dir, RUN_FILES.events);
  if (inRun && existsSync(eventsPath)) {
    const read = readEvents(eventsPath);
    if (read.isOk()) events = read.value;
    else warnings.push(`${eventsPath}: ${read.error.message}; tamper events are not shown`);
  }
  let trajectory: TrajectoryRecord[] = [];
  if (inRun) {
    const read = readTrajectory(path.join(dir, RUN_FILES.trajectory));
    if (read.isOk()) trajectory = read.value;
    else warnings.push(`${read.error.path ?? RUN_FILES.trajectory}: ${read.error.message}; tool calls are not shown`);
  }
  const { title, card } = inRun ? readScorecard(path.join(dir, RUN_FILES.scorecard), warnings) : { title: null, card: null };
  const kind = logKind(logPath);
  return ok({
    logPath,
    runDir: isDir ? given : null,
    title: title ?? path.basename(path.resolve(dir)),
    events,
    trajectory,
    scorecard: card,
    warnings,
    ...(kind ? { kind } : {}),
  });
}
