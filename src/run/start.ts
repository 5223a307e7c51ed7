// A fresh run: its directory, its settings on disk, its parts (passed in, or made from the config), the
// game's first board as the log's first section.
import { err, ok, type Result } from "neverthrow";
import { existsSync } from "node:fs";
import { writeFileReplacing } from "../safe-file.ts";
import { join } from "node:path";
import { realClock, type Clock } from "../clock.ts";
import { prolongError, type ProlongError } from "../errors.ts";
import { RunIndex } from "../log/run-index.ts";
import { MasterLog } from "../log/master.ts";
import { windowText } from "../setting/log-window.ts";
import type { RunConfig } from "../config/run-config.ts";
import type { EventSink } from "../run-files/events.ts";
import { agentPart, eventsPart, runEnvContext } from "./parts.ts";
import { loadKind, stepReport } from "../game/kinds.ts";
import { emit, recordInitial } from "./record.ts";
import { createRunDir, runPaths, type RunPaths } from "../run-files/layout.ts";
import { firstTurn, fixedPromptContext, promptContext, type RunParts, type RunSession } from "./session.ts";
import { buildId } from "../build-id.ts";
import { armOf } from "../config/arm.ts";
import { newTally } from "./tally.ts";
import { writeInstructions } from "./workspace.ts";
import { lockRun } from "./lock.ts";
import { startProvenance, writeRunJson } from "./provenance.ts";
import { ioFailure } from "./io-failure.ts";
import { WorkspaceDir } from "../workspace/dir.ts";

export interface StartOptions {
  readonly runsRoot: string;
  readonly stamp: string;
  /** Directory name under the stamp (the game id, or game-runN for repeated runs). */
  readonly name?: string;
  readonly echo?: (line: string) => void;
  readonly onProgress?: (s: RunSession) => void;
}

/**
 * Starts a run in runs/<stamp>/<name>/ with the given parts; those not given are made from the config
 * (parts.ts). The game and the agent are opened before the directory is made, so a bad setting leaves none.
 */
export async function startRun(
  config: RunConfig,
  opts: StartOptions,
  given: Partial<RunParts> = {},
): Promise<Result<RunSession, ProlongError>> {
  try {
    return await startFresh(config, opts, given);
  } catch (e) {
    // node:fs throws on a full disk (the index returns its failures): an error with the fix, not a crash.
    const f = ioFailure(e, join(opts.runsRoot, opts.stamp, opts.name ?? config.game));
    if (f === null) throw e;
    return err(f);
  }
}

async function startFresh(
  config: RunConfig,
  opts: StartOptions,
  given: Partial<RunParts>,
): Promise<Result<RunSession, ProlongError>> {
  const name = opts.name ?? config.game;
  const runName = `${opts.stamp}/${name}`;
  const planned = runPaths(join(opts.runsRoot, opts.stamp, name));
  const summaryLines: string[] = [];
  const envContext = runEnvContext(planned, summaryLines, config.sandbox);
  const kind = await loadKind(config.env);
  const openGame = given.env ?? ((c) => kind.open(config, c));
  const env = openGame(envContext);
  if (env.isErr()) return err(env.error);
  const agent = agentPart(config, given, planned.workspace);
  if (agent.isErr()) {
    await env.value.close();
    return err(agent.error);
  }
  const paths = createRunDir(opts.runsRoot, opts.stamp, name);
  if (paths.isErr()) return err(paths.error);
  const p = paths.value;
  // One writer per run, from here on; a second `play --run-dir` of the same directory stops at the lock.
  const locked = lockRun(p.dir);
  if (locked.isErr()) {
    await env.value.close();
    return err(locked.error);
  }
  const lock = locked.value;
  const fail = async (e: ProlongError): Promise<Result<RunSession, ProlongError>> => {
    await env.value.close();
    lock.release();
    return err(e);
  };
  if (existsSync(p.log))
    return fail(
      prolongError("run-exists", "this run directory already holds a log", {
        path: p.dir,
        fix: `resume it with 'prolong resume ${p.dir}'`,
      }),
    );
  const wrote = writeFileReplacing(p.config, JSON.stringify(config, null, 2) + "\n");
  if (wrote.isErr())
    return fail({ ...wrote.error, code: "run-dir", message: `cannot write the run's settings: ${wrote.error.message}` });
  const clock = given.clock ?? realClock;
  const files = openRunFiles(p, runName, clock, given.events, opts.echo);
  if (files.isErr()) return fail(files.error);
  const first = await env.value.reset();
  if (first.isErr()) {
    // The run directory stays: once the cause is fixed, `prolong resume` starts its log.
    return fail({ ...first.error, fix: `${first.error.fix ?? "fix the cause"}; then \`prolong resume ${p.dir}\`` });
  }
  const frame = first.value;
  // What started the run, with the game's content hash (known once the game is open): resume checks it.
  const stamped = writeRunJson(p.config, config, startProvenance(config, env.value.info));
  if (stamped.isErr())
    return fail({ ...stamped.error, code: "run-dir", message: `cannot write the run's settings: ${stamped.error.message}` });
  const { master, index, events, workspace } = files.value;
  const s: RunSession = {
    config,
    kind,
    paths: p,
    window: config.logWindow,
    prompt: fixedPromptContext(config, kind),
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
    tally: newTally(frame, kind),
    turn: firstTurn(env.value, frame, false),
    startedAt: clock.now(),
    priorMs: 0,
    summaryLines,
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
  };
  const instructions = writeInstructions(s, promptContext(s));
  if (instructions.isErr()) return fail(instructions.error);
  announce(s, false);
  const initial = recordInitial(s, frame, stepReport(kind, frame).vitals);
  if (initial.isErr()) return fail(initial.error);
  return ok(s);
}

/** The run-start event, for a fresh and for a resumed run. */
export function announce(s: RunSession, resumed: boolean): void {
  const c = s.config;
  emit(s, [
    "run-start",
    {
      game: c.game,
      arm: armOf(c),
      agent: c.agent,
      logWindow: windowText(c.logWindow),
      maxActions: c.maxActions,
      seed: c.seed,
      // The build of the process that starts (or resumes) the run: a run resumed by another build shows it here.
      build: buildId(),
      ...(resumed ? { resumed: true } : {}),
      ...(s.agent.sandbox ? { sandbox: s.agent.sandbox } : {}),
    },
  ]);
}

/** The master log, the index, the event sink and the held workspace of a run directory. */
export function openRunFiles(
  p: RunPaths,
  runName: string,
  clock: Clock,
  events: EventSink | undefined,
  echo?: (line: string) => void,
  indexMode: "create" | "existing" = "create",
): Result<{ master: MasterLog; index: RunIndex; events: EventSink; workspace: WorkspaceDir }, ProlongError> {
  return MasterLog.open(p.log).andThen((master) =>
    RunIndex.open(p.index, { mode: indexMode }).andThen((index) =>
      eventsPart({ ...(events ? { events } : {}) }, { path: p.events, run: runName, ...(echo ? { echo } : {}) }, clock).andThen(
        (sink) => WorkspaceDir.open(p.workspace).map((workspace) => ({ master, index, events: sink, workspace })),
      ),
    ),
  );
}
