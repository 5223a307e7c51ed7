// The turn loop, as in the paper's figure: sync the agent's copy of the log, call the agent, parse its
// actions.json, execute the actions (one log section each), repeat — until the game is won, the action budget
// is spent, or the agent gives up. Everything else is a function this file calls.
import { err, ok, type Result } from "neverthrow";
import { actionEntry, parseActionEntry } from "../agent/actions.ts";
import type { ProlongError } from "../errors.ts";
import type { Action } from "../game/types.ts";
import { prepareTurn } from "./prepare-turn.ts";
import type { PendingBatch, RunEnd, RunSession } from "./session.ts";
import { callAgent, executeAction, planText, recordPlanOutsideLog, runnerReset, turnPrompt, warn } from "./steps.ts";
import { episodeActions } from "./tally.ts";
import { startNextEpisode } from "./episodes.ts";

export async function runLoop(s: RunSession, stop: AbortSignal): Promise<RunEnd> {
  for (;;) {
    await yieldToSignals();
    if (stop.aborted) return { reason: "interrupted", detail: "stopped by the user; `prolong resume` continues it" };
    const end = await episodeEnd(s);
    if (end) return end;

    if (s.frame.state === "GAME_OVER" || s.frame.state === "NOT_PLAYED") {
      const reset = await runnerReset(s);
      if (reset.isErr()) return gameFailed(reset.error);
      continue;
    }

    const batch = s.pending ?? (await askAgent(s));
    if ("reason" in batch) return batch;
    if (batch.entries.length === 0) return { reason: "agent-stopped", detail: "the agent wrote \"stop\": true" };

    const ran = await executeBatch(s, batch, stop);
    if (ran.isErr()) return gameFailed(ran.error);
  }
}

/** The game is won or the budget spent: start the next episode of a lifetime, or end the run. */
async function episodeEnd(s: RunSession): Promise<RunEnd | null> {
  const won = s.frame.state === "WIN";
  const spent = episodeActions(s.tally) >= s.config.maxActions;
  if (!won && !spent) return null;
  if (s.tally.episode < s.config.episodes) {
    const next = await startNextEpisode(s);
    return next.isErr() ? gameFailed(next.error) : null;
  }
  return won
    ? { reason: "win", detail: `won all ${s.tally.winLevels} levels` }
    : { reason: "max-actions", detail: `spent the budget of ${s.config.maxActions} actions` };
}

/** Sync the copy, call the agent and read its actions; a failed call is retried a bounded number of times. */
async function askAgent(s: RunSession): Promise<PendingBatch | RunEnd> {
  let lastError = "";
  for (let attempt = 0; attempt <= s.config.agentRetries; attempt++) {
    const board = prepareTurn(s);
    if (board.isErr()) return gameFailed(board.error);
    const answer = await callAgent(s, turnPrompt(s, board.value));
    if (answer.isErr()) {
      warn(s, answer.error);
      lastError = answer.error.message;
      continue;
    }
    const { reply, batch } = answer.value;
    const entries = batch.stop && batch.actions.length === 0 ? [] : batch.actions.map(actionEntry);
    const pending: PendingBatch = { turn: s.tally.agentCalls, text: reply.text, entries, firstAction: s.tally.action + 1 };
    recordPlanOutsideLog(s, pending.turn, reply.text);
    s.pending = pending;
    s.index.setState("pending", pending); // saved before any action runs, so resume finishes this batch exactly
    return pending;
  }
  return { reason: "agent-failed", detail: `${s.config.agentRetries + 1} agent call(s) in a row failed; last: ${lastError}` };
}

/**
 * Runs the batch from where it stands (a resumed run may have done part of it). The rest is dropped when
 * the score or the game state changes, or when the budget is spent.
 */
async function executeBatch(s: RunSession, batch: PendingBatch, stop: AbortSignal): Promise<Result<void, ProlongError>> {
  const total = batch.entries.length;
  for (let i = s.tally.action + 1 - batch.firstAction; i < total; i++) {
    if (stop.aborted) return ok(undefined); // the batch stays pending: resume finishes it
    const action = actionOf(batch.entries[i]!);
    const done = await executeAction(s, action, planText(s, batch.text, i), { step: i + 1, total });
    if (done.isErr()) return err(done.error);
    const { effect } = done.value;
    if (effect.levelUp || effect.gameOver || effect.win || episodeActions(s.tally) >= s.config.maxActions) break;
  }
  s.pending = null;
  s.index.setState("pending", null);
  return ok(undefined);
}

/**
 * One macrotask per turn. A run whose agent and game answer synchronously (the built-in explorer, local
 * games) only ever awaits settled promises, so without this the event loop never runs the SIGINT handler
 * and Ctrl-C could not stop it.
 */
function yieldToSignals(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function gameFailed(e: ProlongError): RunEnd {
  return { reason: "game-failed", detail: e.message };
}

function actionOf(entry: string): Action {
  const a = parseActionEntry(entry);
  if (a.isErr()) throw new Error(`a saved batch holds an entry that no longer parses: ${a.error}`);
  return a.value;
}
