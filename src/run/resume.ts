// `prolong resume`: pick a run up from its own log. The master is the truth: its complete sections are
// checked against the index's checksums, every logged action is replayed against a fresh game with every
// replayed board compared to the logged one, and the loop continues where the log ends — finishing a batch
// the agent had asked for, so a resumed run writes the same bytes an uninterrupted one would have.
import { endedCalls } from "./trajectory.ts";
import { loadKind, stepReport, type SectionCodec } from "../game/kinds.ts";
import { err, ok, type Result } from "neverthrow";
import { existsSync, truncateSync } from "node:fs";
import { writeFileReplacing } from "../safe-file.ts";
import { join } from "node:path";
import { realClock } from "../clock.ts";
import { prolongError, type ProlongError } from "../errors.ts";
import { sectionRow, type RunIndex } from "../log/run-index.ts";
import { MasterLog } from "../log/master.ts";
import { readConfigFile } from "../config/run-config.ts";
import { agentPart, runEnvContext } from "./parts.ts";
import type { EnvContext, GameEnv } from "../game/env.ts";
import { recordInitial } from "./record.ts";
import { recoverSection, replayError, sectionSpans, type RecoveredSection } from "./replay-run.ts";
import { replay, SectionReplayer } from "./replay.ts";
import { readState, saveState } from "./saved-state.ts";
import { runPaths, type RunPaths } from "../run-files/layout.ts";
import { lockRun, type RunLock } from "./lock.ts";
import { ioFailure } from "./io-failure.ts";
import { type PendingBatch, type RunParts, firstTurn, fixedPromptContext, promptContext, type RunSession } from "./session.ts";
import { announce, openRunFiles } from "./start.ts";
import { writeInstructions } from "./workspace.ts";
import { gameVersionOf } from "../game/version.ts";
import { readRunProvenance, resumeDifferences, writeRunJson } from "./provenance.ts";
import { endsBatch, newTally, type StepEffect } from "./tally.ts";

export interface ResumeOptions {
  readonly echo?: (line: string) => void;
  readonly onProgress?: (s: RunSession) => void;
  /** A new spend guard (`resume --max-billed-tokens N`), kept in run.json: the one setting a resume may change. */
  readonly maxBilledTokens?: number;
  /** Continue a run started by another build (or CLI, engine…): its scorecard then names both. */
  readonly allowMixedBuilds?: boolean;
}

const encoder = new TextEncoder();

/** Resumes the run in `dir` with the given parts; those not given are made from its run.json (parts.ts). */
export async function resumeRun(
  dir: string,
  opts: ResumeOptions = {},
  given: Partial<RunParts> = {},
): Promise<Result<RunSession, ProlongError>> {
  const paths = runPaths(dir);
  if (!existsSync(paths.log) || !existsSync(paths.index)) {
    return err(
      prolongError("not-a-run", "not a prolong run directory (it needs logs.txt, index.sqlite and run.json)", {
        path: paths.dir,
        fix: "pass runs/<time>/<game>, the directory `prolong play` printed",
      }),
    );
  }
  // One writer per run: a second resume (or a swarm child still running it) is refused before anything is read.
  const lock = lockRun(paths.dir);
  if (lock.isErr()) return err(lock.error);
  let resumed: Result<RunSession, ProlongError>;
  const opened: GameEnv[] = [];
  try {
    resumed = await resumeLocked(paths, lock.value, opts, given, opened);
  } catch (e) {
    // node:fs throws on a full disk (the index returns its failures): an error with the fix, not a crash.
    const f = ioFailure(e, paths.dir);
    if (f === null) throw e;
    resumed = err(f);
  }
  if (resumed.isErr()) {
    // A game the failed resume had started (a replay that diverged) must not keep this process alive.
    await Promise.all(opened.map((e) => e.close()));
    lock.value.release();
  }
  return resumed;
}

async function resumeLocked(
  paths: RunPaths,
  lock: RunLock,
  opts: ResumeOptions,
  given: Partial<RunParts>,
  opened: GameEnv[],
): Promise<Result<RunSession, ProlongError>> {
  const read = readConfigFile(paths.config);
  if (read.isErr()) return err(read.error);
  const config = opts.maxBilledTokens === undefined ? read : ok({ ...read.value, maxBilledTokens: opts.maxBilledTokens });
  if (config.isErr()) return err(config.error);
  // A run is one build's result: another build (or CLI, engine…) resumes it only when told to.
  const started = readRunProvenance(paths.config);
  if (started.isErr()) return err(started.error);
  const differs = resumeDifferences(started.value, config.value);
  if (differs.length > 0 && !opts.allowMixedBuilds) {
    const commit = started.value?.build.commit;
    return err(
      prolongError("other-build", `this run was started by another build than this one:\n  ${differs.join("\n  ")}`, {
        path: paths.config,
        fix: `resume it with the build that started it${commit ? ` (git checkout ${commit.slice(0, 12)})` : ""}, or pass --allow-mixed-builds to go on with this one (the scorecard then names both)`,
      }),
    );
  }
  if (opts.maxBilledTokens !== undefined) {
    // The guard is not an arm setting (config/arm.ts): raising it continues the same experiment.
    const wrote = writeRunJson(paths.config, config.value, started.value);
    if (wrote.isErr()) return err(wrote.error);
  }
  const runName = paths.dir.split("/").slice(-2).join("/");
  const clock = given.clock ?? realClock;
  // The index must be the run's own: a missing, emptied or foreign one is refused, never made afresh.
  const files = openRunFiles(paths, runName, clock, given.events, opts.echo, "existing");
  if (files.isErr()) return err(files.error);
  const { index, events, workspace } = files.value;
  let master = files.value.master;
  const ended = readState(index, "ended");
  if (ended.isErr()) return err(ended.error);
  if (ended.value) {
    return err(
      prolongError("run-ended", `this run already ended (${ended.value.reason}); nothing to resume`, {
        path: paths.dir,
        fix: "start a new run with `prolong play`",
      }),
    );
  }
  const mismatch = index.verifySections(master);
  if (mismatch.isErr()) return err(mismatch.error);
  if (mismatch.value) {
    const m = mismatch.value;
    return err(
      prolongError(
        "master-changed",
        `section ${m.ordinal} of the master (bytes ${m.start}..${m.end}) no longer matches its checksum`,
        {
          path: paths.log,
          fix: "the master log was edited outside prolong; restore it from a backup — the run cannot be resumed safely",
        },
      ),
    );
  }
  // The copy's state is read by the first sync; damage there is refused now, before anything is replayed.
  const copyState = index.copyState();
  if (copyState.isErr()) return err(copyState.error);
  const kind = await loadKind(config.value.env);
  const recovered = recoverSections(master, index, paths.dir, kind.codec);
  if (recovered.isErr()) return err(recovered.error);
  if (recovered.value.truncated) {
    // MasterLog keeps its size; after the torn tail was cut, open it afresh.
    master.close();
    const reopened = MasterLog.open(paths.log, { create: false });
    if (reopened.isErr()) return err(reopened.error);
    master = reopened.value;
  }

  const prior = readState(index, "wallMs");
  if (prior.isErr()) return err(prior.error);
  const priorMs = prior.value ?? 0;
  const summaryLines: string[] = [];
  const envContext = runEnvContext(paths, summaryLines, config.value.sandbox);
  const open = given.env ?? ((c: EnvContext) => kind.open(config.value, c));
  const openGame = (c: EnvContext) =>
    open(c).map((env) => {
      opened.push(env);
      return env;
    });
  const env = openGame(envContext);
  if (env.isErr()) return err(env.error);
  const agent = agentPart(config.value, given, paths.workspace);
  if (agent.isErr()) {
    await env.value.close();
    return err(agent.error);
  }
  const first = await env.value.reset();
  if (first.isErr()) {
    await env.value.close();
    return err(first.error);
  }
  // The game is not the build's to waive: a run cannot go on in a game whose content changed.
  const game = gameVersionOf(env.value.info);
  if (started.value?.game !== undefined && started.value.game !== game) {
    await env.value.close();
    return err(
      prolongError(
        "game-changed",
        `the game ${config.value.game} changed since this run started (version ${started.value.game}, now ${game})`,
        {
          path: paths.config,
          fix: "restore the game the run started with (its version is in run.json's provenance), or start a new run",
        },
      ),
    );
  }
  let frame = first.value;
  const tally = newTally(frame, kind);
  const s: RunSession = {
    config: config.value,
    kind,
    paths,
    window: config.value.logWindow,
    prompt: fixedPromptContext(config.value, kind),
    name: runName,
    parts: { env: openGame, agent: agent.value, clock, events },
    envContext,
    master,
    index,
    events,
    workspace,
    lock,
    agent: agent.value,
    clock,
    tally,
    turn: firstTurn(env.value, frame, true),
    startedAt: clock.now(),
    priorMs,
    summaryLines,
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
  };

  // Replay every logged action against the fresh game and check each board.
  const [head] = recovered.value.sections;
  if (!head) {
    // Interrupted before the first section was written: start the log as a fresh run does.
    const initial = recordInitial(s, frame, stepReport(kind, frame).vitals);
    if (initial.isErr()) return err(initial.error);
    return finishResume(s);
  }
  // The replay engine (replay.ts) checks every section against the game and every header against the tally,
  // stopping at the first difference; the game it leaves open is the one the run plays on with.
  const replayer = new SectionReplayer(() => openGame(envContext));
  replayer.adopt(s.turn.env);
  const replayed = await replay(recovered.value.sections, replayer, {
    stopAtFirst: true,
    first: frame,
    tally,
    checked: (section) =>
      section.unindexed
        ? index
            .addSection(sectionRow(section.unindexed, encoder.encode(section.text), section.header, section.boards))
            .map(() => undefined)
        : ok(undefined),
  });
  if (replayed.isErr()) return err(replayed.error);
  const diverged = replayed.value.differences[0];
  if (diverged) return err(replayError(paths.log, diverged.action, diverged.what.join("; ")));
  s.turn.env = replayer.env ?? s.turn.env;
  s.turn.frame = replayed.value.frame ?? frame;
  const lastEffect = replayed.value.lastEffect;
  const saved = readState(index, "pending");
  if (saved.isErr()) return err(saved.error);
  s.turn.pending = pendingStillOpen(saved.value, tally.action, lastEffect, tally.episodeActions >= config.value.maxActions);
  return finishResume(s);
}

/** Counters kept outside the log, the instructions file, and the run-start event of the resumed process. */
function finishResume(s: RunSession): Result<RunSession, ProlongError> {
  const calls = readState(s.index, "agentCalls");
  if (calls.isErr()) return err(calls.error);
  const ended = endedCalls(s.paths.trajectory, calls.value ?? 0);
  if (ended.isErr()) return err(ended.error);
  s.tally.agentCalls = ended.value;
  const tampers = s.index.events("tamper");
  if (tampers.isErr()) return err(tampers.error);
  s.tally.tamperEvents = tampers.value.length;
  const tokens = readState(s.index, "tokens");
  if (tokens.isErr()) return err(tokens.error);
  if (tokens.value) s.tally.tokens = tokens.value;
  const saved = s.turn.pending ? ok(undefined) : saveState(s.index, { pending: null });
  if (saved.isErr()) return err(saved.error);
  const instructions = writeInstructions(s, promptContext(s));
  if (instructions.isErr()) return err(instructions.error);
  announce(s, true);
  return ok(s);
}

/** A saved batch is finished when all of it ran, or its last action changed the score or state or spent the budget. */
function pendingStillOpen(
  p: PendingBatch | null | undefined,
  lastAction: number,
  last: StepEffect | null,
  budgetSpent: boolean,
): PendingBatch | null {
  if (!p) return null;
  const done = lastAction - p.firstAction + 1;
  if (done >= p.actions.length) return null;
  if (done > 0 && last && endsBatch(last, budgetSpent)) return null;
  return p;
}

/**
 * The master's sections. Past the index's last section, complete sections are kept (and indexed after the
 * replay checks them); a torn final section is moved aside to torn-<offset>.bin and cut from the master, so
 * no byte is lost and the log stays a sequence of whole sections.
 */
function recoverSections(
  master: MasterLog,
  index: RunIndex,
  dir: string,
  codec: SectionCodec,
): Result<{ sections: RecoveredSection[]; truncated: boolean }, ProlongError> {
  const all = master.read(0, master.size);
  if (all.isErr()) return err(all.error);
  const bytes = all.value;
  const indexed = index.lastEnd();
  if (indexed.isErr()) return err(indexed.error);
  const indexedEnd = indexed.value;
  const out: RecoveredSection[] = [];
  let keepEnd = indexedEnd;
  let i = -1;
  for (const { start, end, text, complete } of sectionSpans(bytes)) {
    i++;
    const parsed = recoverSection(text, codec);
    if (start < indexedEnd) {
      if (parsed.isErr())
        return err(
          prolongError("bad-log", `section ${i} of the master does not parse: ${parsed.error.message}`, { path: master.path }),
        );
      out.push({ ...parsed.value, unindexed: null });
      continue;
    }
    // Past the index: whole only if it parses and ends as a written section does.
    if (parsed.isErr() || !text.endsWith("\n\n") || !complete) break;
    out.push({ ...parsed.value, unindexed: { start, end } });
    keepEnd = end;
  }
  if (bytes.length > keepEnd) {
    const aside = join(dir, `torn-${keepEnd}.bin`);
    const saved = writeFileReplacing(aside, bytes.subarray(keepEnd));
    if (saved.isErr()) return err(saved.error);
    truncateSync(master.path, keepEnd);
    return index
      .recordEvent("torn-tail", { offset: keepEnd, bytes: bytes.length - keepEnd, savedTo: aside })
      .map(() => ({ sections: out, truncated: true }));
  }
  return ok({ sections: out, truncated: false });
}
