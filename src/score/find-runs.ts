// Which run directories `prolong score` scores. Paths may be run directories or any directory above them
// (runs/, runs/<stamp>/, an experiment's folder). A directory holding run.json, logs.txt or scorecard.json is
// a run directory; others are searched below. Every run directory that cannot be scored — half-written,
// interrupted, foreign, edited — is named with the reason and skipped; the rest are scored.
import { readdirSync, statSync, type Dirent } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { ProlongError } from "../errors.ts";
import { readConfigFile, type RunConfig } from "../config/run-config.ts";
import { readScorecard, RESUMABLE, type Scorecard } from "./scorecard.ts";
import { RUN_FILES } from "../run-files/layout.ts";
import { isVerified, scorecardEvidence, type Evidence } from "./evidence.ts";

export interface FoundRun {
  readonly dir: string;
  readonly card: Scorecard;
  /**
   * What the run's log says of the card (score/evidence.ts): "matches", or, when scorecards are trusted, why
   * not. findRuns always sets it; absent on a run not found by it (a test's, a re-scored copy's source).
   */
  readonly evidence?: Evidence;
}

export interface SkippedRun {
  readonly dir: string;
  readonly reason: string;
  /**
   * The settings of a run that has not finished (no scorecard yet, interrupted, its game failed), when its
   * run.json could be read: such a run is counted in its arm's "unfinished" column instead of vanishing.
   */
  readonly unfinished?: RunConfig;
  /** Set when the run was refused because its log does not back its scorecard (score/evidence.ts). */
  readonly evidence?: Evidence;
  /** The settings its refused scorecard names, so that `score --plan` can say which job it was. */
  readonly refused?: RunConfig;
}

export interface FoundRuns {
  readonly runs: FoundRun[];
  readonly skipped: SkippedRun[];
}

const RUN_MARKERS: readonly string[] = [RUN_FILES.config, RUN_FILES.log, RUN_FILES.scorecard];
/** Deep enough for runs/<experiment>/<arm>/<stamp>/<run>; a run directory is never searched below. */
const MAX_DEPTH = 6;

export interface FindOptions {
  /**
   * Score a scorecard its log does not back (no log, or one that disagrees), marked by its evidence, instead
   * of refusing it (--trust-scorecards).
   */
  readonly trustScorecards?: boolean;
}

export function findRuns(paths: readonly string[], opts: FindOptions = {}): FoundRuns {
  const runs: FoundRun[] = [];
  const skipped: SkippedRun[] = [];
  const seen = new Set<string>();
  for (const given of paths) {
    let dir = resolve(given);
    let isDir: boolean;
    try {
      isDir = statSync(dir).isDirectory();
    } catch {
      skipped.push({ dir, reason: "no such file or directory" });
      continue;
    }
    if (!isDir) {
      if (!RUN_MARKERS.includes(basename(dir))) {
        skipped.push({ dir, reason: "not a directory: give run directories (runs/<stamp>/<game>) or a directory above them" });
        continue;
      }
      dir = dirname(dir);
    }
    const before = runs.length + skipped.length;
    walk(dir, 0, runs, skipped, seen, opts);
    if (runs.length + skipped.length === before)
      skipped.push({ dir, reason: "no run directories here (none below holds run.json, logs.txt or scorecard.json)" });
  }
  runs.sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
  skipped.sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
  return { runs, skipped };
}

function walk(dir: string, depth: number, runs: FoundRun[], skipped: SkippedRun[], seen: Set<string>, opts: FindOptions): void {
  if (seen.has(dir)) return;
  seen.add(dir);
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    skipped.push({ dir, reason: `cannot list: ${(e as Error).message}` });
    return;
  }
  // Any entry but a directory: a FIFO or symlink at scorecard.json is read (and refused, naming it), not
  // taken for a missing file.
  const names = new Set(entries.filter((e) => !e.isDirectory()).map((e) => e.name));
  if (RUN_MARKERS.some((m) => names.has(m))) {
    const run = scoreableRun(dir, names, opts);
    if ("card" in run) runs.push(run);
    else skipped.push(run);
    return;
  }
  if (depth >= MAX_DEPTH) return;
  for (const e of entries) if (e.isDirectory()) walk(join(dir, e.name), depth + 1, runs, skipped, seen, opts);
}

function scoreableRun(dir: string, names: Set<string>, opts: FindOptions): FoundRun | SkippedRun {
  if (!names.has(RUN_FILES.scorecard)) {
    const what = names.has(RUN_FILES.log)
      ? "the run has not finished (still running, or stopped by a crash or kill)"
      : "no logs.txt either: the run never started";
    const config = names.has(RUN_FILES.config) ? readConfigFile(join(dir, RUN_FILES.config)) : undefined;
    return {
      dir,
      reason: `no scorecard.json: ${what}; \`prolong resume ${dir}\` finishes it`,
      ...(config?.isOk() ? { unfinished: config.value } : {}),
    };
  }
  const card = readScorecard(join(dir, RUN_FILES.scorecard));
  if (card.isErr()) return { dir, reason: skipReason(dir, card.error) };
  // These leave the run resumable and say nothing about the agent: scoring them would count a cut-short run.
  const reason = card.value.end_reason;
  if (isResumableEnd(reason)) {
    const what =
      reason === "interrupted"
        ? "interrupted"
        : reason === "agent-unavailable"
          ? `the model API could not be used (${card.value.end_detail})`
          : `the ${reason === "game-failed" ? "game" : "log"} failed (${card.value.end_detail})`;
    return {
      dir,
      reason: `${what} after ${card.value.actions} action(s); \`prolong resume ${dir}\` finishes it`,
      unfinished: card.value.settings,
    };
  }
  const evidence = scorecardEvidence(dir, card.value);
  if (isVerified(evidence) || opts.trustScorecards) return { dir, card: card.value, evidence };
  return { dir, reason: evidenceReason(dir, evidence), evidence, refused: card.value.settings };
}

/** Why a run whose log does not back its scorecard is not scored, with what to do. */
function evidenceReason(dir: string, e: Evidence): string {
  const trust = "`--trust-scorecards` scores it anyway, marked unverified";
  return e === "no-log"
    ? `the scorecard has no log (no logs.txt) to check it against; ${trust}`
    : `the scorecard does not match its log (${e.replace(/^mismatch: /, "")}); fix: \`prolong verify ${dir}\` checks the log, ${trust}`;
}

/** Ends that leave a run resumable (interrupted, its game or log failed, its model API unusable): not the agent's result. */
export function isResumableEnd(reason: string): boolean {
  return (RESUMABLE as readonly string[]).includes(reason);
}

/** An error as a skip reason: the file named relative to the run directory, the fix after a semicolon. */
export function skipReason(dir: string, e: ProlongError): string {
  const where = e.path && e.path !== dir ? `${e.path.startsWith(dir + "/") ? e.path.slice(dir.length + 1) : e.path}: ` : "";
  return `${where}${e.message}${e.fix ? `; fix: ${e.fix}` : ""}`;
}
