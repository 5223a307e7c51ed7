// The turn loop, as in the paper's figure: prepare the workspace (the verified copy of the log), call the
// agent, read its actions.json, play the actions (one log section each), repeat — until the game is won, the
// action budget is spent, or the agent gives up. The batch rules and the retries live here too; what one
// action does is record.ts, what touches the agent's directory is workspace.ts. Written in the turn's order:
// the loop, where the run stands (episodes, resets), the question (askAgent and its call), then the batch played.
import { err, ok, type Result } from "neverthrow";
import type { ActionBatch } from "../agent/actions.ts";
import { firstTurnPrompt, nextTurnPrompt, resumePrompt, retryPrompt, splitPlan, type PromptContext } from "../agent/prompts.ts";
import { quote } from "../action-text.ts";
import { billedTokens } from "../score/tokens.ts";
import type { TokenUsage, TurnReply } from "../agent/agent.ts";
import { prolongError, type ProlongError } from "../errors.ts";
import { stepReport } from "../game/kinds.ts";
import { ioFailure } from "./io-failure.ts";
import { saveState } from "./saved-state.ts";
import { recordTrajectory } from "./trajectory.ts";
import { verifyMasterTail } from "../log/run-index.ts";
import { emit, playAction, recordInitial, recordTampers, type RunEvent, warningEvent, type StepFailure } from "./record.ts";
import { wallMs, type PendingBatch, type RunEnd, type RunSession } from "./session.ts";
import { endsBatch, startEpisode } from "./tally.ts";
import { actionsNotice, appendPlan, clearActions, prepareTurn, readActions } from "./workspace.ts";

export async function runLoop(s: RunSession, stop: AbortSignal): Promise<RunEnd> {
  try {
    return await loop(s, stop);
  } catch (e) {
    // node:fs throws on a full disk (the index returns its failures): the run ends cleanly, resumable, with the fix.
    const f = ioFailure(e, s.paths.dir);
    if (f === null) throw e;
    return { reason: "log-failed", detail: `${f.message}; fix: ${f.fix}` };
  }
}

async function loop(s: RunSession, stop: AbortSignal): Promise<RunEnd> {
  const denied = await checkAccess(s);
  if (denied) return denied;
  for (;;) {
    await yieldToSignals();
    // Where the run stands: stopped, its episode over (the next one started), or a game to reset first.
    if (s.turn.eventFailure) return failed({ source: "log", error: s.turn.eventFailure });
    if (stop.aborted) return { reason: "interrupted", detail: "stopped by the user; `prolong resume` continues it" };
    const end = await episodeEnd(s);
    if (end) return end;

    const state = s.turn.frame.state;
    if (s.kind.atGameOver !== "episode-ends" && (state === "GAME_OVER" || state === "NOT_PLAYED")) {
      const reset = await runnerReset(s);
      if (reset.isErr()) return failed(reset.error);
      continue;
    }

    // Ask: the batch in hand (a resumed run's), or the agent's answer this turn.
    const batch = s.turn.pending ?? (await askAgent(s, stop));
    if ("reason" in batch) return batch;
    if (batch.actions.length === 0)
      return {
        reason: "agent-stopped",
        detail: s.config.agent === "human" ? "the player ended the run" : 'the agent wrote "stop": true',
      };

    // Play and record: each action steps the game, moves the tally and appends its section (record.ts).
    const ran = await playBatch(s, batch, stop);
    if (ran.isErr()) return failed(ran.error);
  }
}

/**
 * Before the first call of a run (fresh or resumed): credentials present and accepted, so that a wrong key
 * ends the run in seconds instead of after the CLI's own minutes of retries, several times over.
 */
async function checkAccess(s: RunSession): Promise<RunEnd | null> {
  if (!s.agent.checkAccess) return null;
  const access = await s.agent.checkAccess();
  if (access.isOk()) return null;
  emit(s, warningEvent(access.error));
  return unavailable(access.error);
}

/** The game is won or the budget spent: start the next episode of a lifetime, or end the run. */
async function episodeEnd(s: RunSession): Promise<RunEnd | null> {
  const won = s.turn.frame.state === "WIN";
  const spent = s.tally.episodeActions >= s.config.maxActions;
  // A game whose kind has no RESET (NetHack: death) ends the episode for good when it is over.
  const over = s.kind.atGameOver === "episode-ends" && s.turn.frame.state === "GAME_OVER";
  if (!won && !spent && !over) return null;
  if (s.tally.episode < s.config.episodes) {
    const next = await startNextEpisode(s);
    return next.isErr() ? failed(next.error) : null;
  }
  if (over) return { reason: "game-over", detail: stepReport(s.kind, s.turn.frame).end ?? "the game ended" };
  return won
    ? { reason: "win", detail: `won all ${s.tally.winLevels} levels` }
    : { reason: "max-actions", detail: `spent the budget of ${s.config.maxActions} actions` };
}

/** The lifetime arm (--episodes K): a fresh game, marked in the log by an INITIAL STATE section; the log goes on. */
async function startNextEpisode(s: RunSession): Promise<Result<void, StepFailure>> {
  const env = s.parts.env(s.envContext);
  if (env.isErr()) return err({ source: "game", error: env.error });
  await s.turn.env.close();
  s.turn.env = env.value;
  const first = await s.turn.env.reset();
  if (first.isErr()) return err({ source: "game", error: first.error });
  const { ended, report } = startEpisode(s.tally, first.value);
  s.turn.frame = first.value;
  emit(
    s,
    ["episode-end", { episode: ended.episode, score: ended.levels, actions: ended.actions }],
    ["episode-start", { episode: s.tally.episode, action: s.tally.action }],
  );
  return recordInitial(s, first.value, report.vitals).mapErr((error) => ({ source: "log" as const, error }));
}

/** The runner's own RESET (on NOT_PLAYED and GAME_OVER), logged and counted like any action. */
async function runnerReset(s: RunSession): Promise<Result<unknown, StepFailure>> {
  const reason = s.turn.frame.state === "GAME_OVER" ? "game over" : "game not started";
  emit(s, ["reset", { action: s.tally.action + 1, level: s.tally.level, attempt: s.tally.attempt, reason }]);
  return playAction(s, { id: 0 }, undefined);
}

/**
 * One turn's question: prepare the workspace (its repairs recorded), call the agent with the turn's prompt, and
 * hold the batch it answers; a failed call is retried a bounded number of times.
 */
async function askAgent(s: RunSession, stop: AbortSignal): Promise<PendingBatch | RunEnd> {
  const spent = budgetSpent(s);
  if (spent) return spent;
  let last: ProlongError | null = null;
  for (let attempt = 0; attempt <= s.config.agentRetries; attempt++) {
    // Ctrl-C during a call (the human player's, whose terminal is raw) ends the run here, not after retries.
    if (stop.aborted) return { reason: "interrupted", detail: "stopped by the user; `prolong resume` continues it" };
    const prepared = prepareTurn(s);
    if (prepared.isErr()) return failed({ source: "log", error: prepared.error });
    const { context, board, logBytes, tampers } = prepared.value;
    const repaired = recordTampers(s, tampers);
    if (repaired.isErr()) return failed({ source: "log", error: repaired.error });
    const prompt = turnPrompt(s, context, board, last === null ? null : last.message);
    const answer = await callAgent(s, prompt, context, logBytes);
    // Checked again as soon as the agent is done, before anything is appended: an edit of the tail made
    // during the turn is caught here (prepareTurn catches one made between turns).
    const intact = verifyMasterTail(s.master, s.index);
    if (intact.isErr()) return failed({ source: "log", error: intact.error });
    if (answer.isOk()) return holdBatch(s, answer.value.reply, answer.value.batch);
    if (answer.error.source === "log") return failed({ source: "log", error: answer.error.error });
    // A stop (Ctrl-C, SIGTERM, SIGHUP) ends the agent's turn with its processes: an interruption to resume, not
    // a failed call to retry or to end the run on.
    if (stop.aborted) return { reason: "interrupted", detail: "stopped by the user; `prolong resume` continues it" };
    last = answer.error.error;
    emit(s, warningEvent(last));
    // A refused key, model or address fails every retry alike: the run ends now, resumable once it is fixed.
    if (PERMANENT_API_FAILURES.has(last.code)) return unavailable(last);
  }
  const detail = `${s.config.agentRetries + 1} agent call(s) in a row failed; last: ${last?.message ?? ""}`;
  // A model API that cannot be used (codes api-*: unreachable, key, model, base URL, …) says nothing about the
  // agent: the run stays resumable once the setting is fixed.
  if (last?.code.startsWith("api-"))
    return {
      reason: "agent-unavailable",
      detail: `${detail}${last.fix ? ` (fix: ${last.fix})` : ""}; the run can be resumed with \`prolong resume\``,
    };
  return { reason: "agent-failed", detail };
}

/**
 * The spend guard: once the run has billed its --max-billed-tokens, no further call starts. The batch the last
 * call asked for has run; the run stops as interrupted, resumable with a larger budget.
 */
function budgetSpent(s: RunSession): RunEnd | null {
  const budget = s.config.maxBilledTokens;
  if (budget === undefined) return null;
  const billed = Math.round(billedTokens(s.tally.tokens));
  if (billed < budget) return null;
  return {
    reason: "interrupted",
    detail: `spent its budget of ${budget} billed tokens (${billed} billed); \`prolong resume ${s.paths.dir} --max-billed-tokens N\` goes on with a larger one`,
  };
}

/** The prompt for the next agent call: first-turn, follow-up, resume or retry wording, then what went wrong with the last actions.json. */
function turnPrompt(s: RunSession, c: PromptContext, board: string | undefined, failedCall: string | null): string {
  const t = s.tally;
  const summary = `Now: action ${t.action}, level ${t.level}, attempt ${t.attempt}, score ${t.score}, state ${s.turn.frame.state}.`;
  // After a failed call nothing was executed: the prompt says so, never that the actions were.
  if (failedCall === null && s.tally.agentCalls === 0) return firstTurnPrompt(c, board);
  const prompt =
    failedCall !== null
      ? retryPrompt(c, summary, quote(failedCall, 300), board)
      : s.turn.resumed
        ? resumePrompt(c, summary, board)
        : nextTurnPrompt(c, summary, board);
  return s.turn.agentNotice === null ? prompt : `${prompt}\n\n${s.turn.agentNotice}`;
}

/** Why an agent call gave no batch: the call's own failure (retried), or the run's files (the run ends). */
interface CallFailure {
  readonly source: "agent" | "log";
  readonly error: ProlongError;
}

/**
 * One agent call: clear the old actions.json, count the call, call, record what it did and spent, read the
 * new actions.json against the actions the game offers this turn.
 */
async function callAgent(
  s: RunSession,
  prompt: string,
  context: PromptContext,
  logBytes: number,
): Promise<Result<{ reply: TurnReply; batch: ActionBatch }, CallFailure>> {
  const agentFailed = (error: ProlongError) => err({ source: "agent" as const, error });
  const logFailed = (error: ProlongError) => err({ source: "log" as const, error });
  const cleared = clearActions(s);
  if (cleared.isErr()) return agentFailed(cleared.error);
  s.tally.agentCalls += 1;
  const turn = s.tally.agentCalls;
  const saved = saveState(s.index, { agentCalls: turn, wallMs: wallMs(s) });
  if (saved.isErr()) return logFailed(saved.error);
  emit(s, ["agent-call", { turn, action: s.tally.action, prompt }]);
  const calledAt = performance.now();
  const reply = await s.agent.turn({
    workspace: s.paths.workspace,
    prompt,
    turn,
    availableActions: context.availableActions,
    actionCap: s.config.actionCap,
    seed: s.config.seed,
    view: {
      frame: s.turn.frame,
      info: s.turn.env.info,
      action: s.tally.episodeActions,
      maxActions: s.config.maxActions,
      attempt: s.tally.attempt,
      levelActions: [...s.tally.levelActions],
      kind: s.kind,
    },
  });
  s.turn.resumed = false;
  s.onProgress?.(s);
  const traced = recordTrajectory(s, turn, logBytes, reply, performance.now() - calledAt);
  if (traced.isErr()) return logFailed(traced.error);
  // What the call spent counts as soon as it ends, a failed call's too where its backend can tell.
  const used = reply.isOk() ? reply.value.tokens : s.agent.failedCallTokens?.();
  const counted = used ? addTokens(s, used) : ok(undefined);
  if (counted.isErr()) return logFailed(counted.error);
  if (reply.isErr()) return agentFailed(reply.error);
  const read = readActions(s, context.availableActions);
  if (read.isErr()) return agentFailed(read.error);
  const recorded = recordTampers(s, read.value.tamper ? [read.value.tamper] : []);
  if (recorded.isErr()) return logFailed(recorded.error);
  const batch = usableBatch(read.value.batch);
  s.turn.agentNotice = actionsNotice(batch);
  const r = reply.value;
  const warnings = batch.isOk() ? batch.value.warnings : [];
  emit(
    s,
    [
      "agent-reply",
      {
        turn,
        ms: r.wallMs,
        actions: batch.isOk() ? batch.value.actions.length : 0,
        toolCalls: r.toolCalls,
        tokens: r.tokens,
        exitCode: r.exitCode,
        text: r.text,
      },
    ],
    ...warnings.map((w): RunEvent => ["warning", { message: w, code: "actions-json", path: s.paths.actions }]),
  );
  return batch.isErr() ? agentFailed(batch.error) : ok({ reply: r, batch: batch.value });
}

/** A call's tokens added to the run's and saved (the spend guard and a resumed run read them). */
function addTokens(s: RunSession, u: TokenUsage): Result<void, ProlongError> {
  const t = s.tally.tokens;
  s.tally.tokens = { input: t.input + u.input, cached: t.cached + u.cached, output: t.output + u.output };
  return saveState(s.index, { tokens: s.tally.tokens });
}

/** A batch with no action to run and no stop is the call's failure, naming why its entries were dropped. */
function usableBatch(batch: Result<ActionBatch, ProlongError>): Result<ActionBatch, ProlongError> {
  if (batch.isErr() || batch.value.actions.length > 0 || batch.value.stop) return batch;
  const why = batch.value.warnings.length > 0 ? ` (${batch.value.warnings[0]})` : "";
  return err(
    prolongError("no-actions", `actions.json holds no usable action${why}`, {
      fix: 'list at least one action, or write {"actions": [], "stop": true} to give up',
    }),
  );
}

/**
 * The batch the agent answered, held as the turn's: its plan kept in plans.txt (stateless arm), then saved
 * before any action runs, so resume finishes this batch exactly.
 */
function holdBatch(s: RunSession, reply: TurnReply, batch: ActionBatch): PendingBatch | RunEnd {
  const pending: PendingBatch = {
    turn: s.tally.agentCalls,
    text: reply.text,
    actions: batch.stop && batch.actions.length === 0 ? [] : batch.actions,
    firstAction: s.tally.action + 1,
  };
  if (s.config.workspace === "stateless") {
    const planned = appendPlan(s, pending.turn, pending.firstAction, splitPlan(reply.text).plan);
    if (planned.isErr()) return failed({ source: "log", error: planned.error });
    const recorded = recordTampers(s, planned.value ? [planned.value] : []);
    if (recorded.isErr()) return failed({ source: "log", error: recorded.error });
  }
  s.turn.pending = pending;
  const saved = saveState(s.index, { pending });
  return saved.isErr() ? failed({ source: "log", error: saved.error }) : pending;
}

/** Model-API failures no retry can mend (agent/api-failure.ts, agent/mini/chat-api.ts). */
const PERMANENT_API_FAILURES = new Set(["api-key", "api-model", "api-url"]);

/** The run's end when the agent's model API cannot be used: not the agent's failure, so not scored; resumable. */
function unavailable(e: ProlongError): RunEnd {
  return {
    reason: "agent-unavailable",
    detail: `${e.path ? `${e.path}: ` : ""}${e.message}${e.fix ? ` (fix: ${e.fix})` : ""}; the run can be resumed with \`prolong resume\``,
  };
}

/**
 * Plays the batch from where it stands (a resumed run may have done part of it). The rest is dropped when
 * the score or the game state changes, or when the budget is spent.
 */
async function playBatch(s: RunSession, batch: PendingBatch, stop: AbortSignal): Promise<Result<void, StepFailure>> {
  const total = batch.actions.length;
  for (let i = s.tally.action + 1 - batch.firstAction; i < total; i++) {
    if (stop.aborted) return ok(undefined); // the batch stays pending: resume finishes it
    const done = await playAction(s, batch.actions[i]!, planText(s, batch.text, i), { step: i + 1, total });
    if (done.isErr()) return err(done.error);
    const spent = s.tally.episodeActions >= s.config.maxActions;
    if (endsBatch(done.value, spent)) break;
  }
  s.turn.pending = null;
  return saveState(s.index, { pending: null }).mapErr((error) => ({ source: "log" as const, error }));
}

/** The [PLAN] text of the i-th action of a batch: the whole answer first, then the short plan repeated. */
function planText(s: RunSession, answer: string, i: number): string | undefined {
  if (s.config.workspace === "stateless") return undefined;
  const text = i === 0 ? answer.trim() : splitPlan(answer).plan;
  return text.length > 0 ? text : undefined;
}

/**
 * One macrotask per turn. A run whose agent and game answer synchronously (the built-in explorer, local
 * games) only ever awaits settled promises, so without this the event loop never runs the SIGINT handler
 * and Ctrl-C could not stop it.
 */
function yieldToSignals(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A failed run file (the master, the index, events) ends the run log-failed with its fix; it stays resumable. */
function failed(f: StepFailure): RunEnd {
  if (f.source === "game") return { reason: "game-failed", detail: f.error.message };
  return { reason: "log-failed", detail: f.error.fix ? `${f.error.message}; fix: ${f.error.fix}` : f.error.message };
}
