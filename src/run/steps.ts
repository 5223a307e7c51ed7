// The steps the turn loop is made of. Each does one thing to a RunSession and reports through events;
// runner.ts strings them together.
import { err, ok, type Result } from "neverthrow";
import { appendFileSync, existsSync, readFileSync, rmSync } from "node:fs";
import { parseActions, type ActionBatch } from "../agent/actions.ts";
import { firstTurnPrompt, nextTurnPrompt, resumePrompt, splitPlan, type PromptContext } from "../agent/prompts.ts";
import type { TurnReply } from "../agent/agent.ts";
import { formatError, prolongError, type ProlongError } from "../errors.ts";
import { actionName, type Action, type FrameData } from "../game/types.ts";
import { appendSection } from "../log/index.ts";
import { formatToolCall, type LogSection } from "../log/format.ts";
import type { RunSession } from "./session.ts";
import { recordStep, type StepEffect } from "./tally.ts";

export function promptContext(s: RunSession): PromptContext {
  return {
    gameId: s.env.info.id,
    availableActions: s.frame.availableActions.length > 0 ? s.frame.availableActions : s.env.info.availableActions,
    actionCap: s.config.actionCap,
    maxActions: s.config.maxActions,
    hasLog: s.window.kind !== "none",
    stateless: s.config.workspace === "stateless",
  };
}

/** Writes one section to the master (one write) and the index; a failure here ends the run. */
export function writeSection(s: RunSession, section: LogSection): Result<void, ProlongError> {
  return appendSection(s.master, s.index, section, s.config.gridMode).map(() => undefined);
}

export function sectionFromFrame(frame: FrameData, header: LogSection["header"], extra: { plan?: string; toolCall?: Action }): LogSection {
  const grids = frame.frames;
  const board = grids[grids.length - 1];
  if (!board) throw new Error("a frame without grids reached the log");
  return { header, frames: grids.slice(0, -1), board, ...(extra.plan !== undefined ? { plan: extra.plan } : {}), ...(extra.toolCall ? { toolCall: extra.toolCall } : {}) };
}

export interface Executed {
  readonly effect: StepEffect;
  readonly frame: FrameData;
}

/**
 * Executes one action: the game steps, the tally moves, one section is appended, events are emitted.
 * `plan` is the [PLAN] text for this section (none in the stateless arm), `planStep` its place in the batch.
 */
export async function executeAction(s: RunSession, action: Action, plan: string | undefined, planStep: { step: number; total: number } | undefined): Promise<Result<Executed, ProlongError>> {
  const stepped = await s.env.step(action);
  if (stepped.isErr()) return err(stepped.error);
  const frame = stepped.value;
  const effect = recordStep(s.tally, frame);
  s.frame = frame;
  const header = { ...effect.header, kind: "action" as const, ...(planStep ? { planStep } : {}) };
  const written = writeSection(s, sectionFromFrame(frame, header, { ...(plan !== undefined ? { plan } : {}), toolCall: action }));
  if (written.isErr()) return err(written.error);
  const h = effect.header;
  s.events.emit("action", { action: h.action, call: formatToolCall(action), level: h.level, attempt: h.attempt, score: h.score, state: frame.state, frames: frame.frames.length });
  if (frame.message) s.events.emit("warning", { message: `${actionName(action)}: ${frame.message}`, code: "no-op" });
  if (effect.levelUp) s.events.emit("level-up", { action: h.action, level: s.tally.level, score: h.score });
  if (effect.gameOver) s.events.emit("game-over", { action: h.action, level: h.level, attempt: h.attempt });
  s.onProgress?.(s);
  return ok({ effect, frame });
}

/** The runner's own RESET (on NOT_PLAYED and GAME_OVER), logged and counted like any action. */
export async function runnerReset(s: RunSession): Promise<Result<Executed, ProlongError>> {
  const reason = s.frame.state === "GAME_OVER" ? "game over" : "game not started";
  s.events.emit("reset", { action: s.tally.action + 1, level: s.tally.level, attempt: s.tally.attempt, reason });
  return executeAction(s, { id: 0 }, undefined, undefined);
}

/** The prompt for the next agent call. */
export function turnPrompt(s: RunSession, board: string | undefined): string {
  const c = promptContext(s);
  if (s.tally.agentCalls === 0) return firstTurnPrompt(c, board);
  const t = s.tally;
  const summary = `Now: action ${t.action}, level ${t.level}, attempt ${t.attempt}, score ${t.score}, state ${s.frame.state}.`;
  return s.resumed ? resumePrompt(c, summary, board) : nextTurnPrompt(c, summary, board);
}

export interface AgentAnswer {
  readonly reply: TurnReply;
  readonly batch: ActionBatch;
}

/** One agent call: clear the old actions.json, call, read the new one. Errors are the call's failure. */
export async function callAgent(s: RunSession, prompt: string): Promise<Result<AgentAnswer, ProlongError>> {
  rmSync(s.paths.actions, { force: true, recursive: true });
  s.tally.agentCalls += 1;
  const turn = s.tally.agentCalls;
  s.index.setState("agentCalls", turn);
  s.index.setState("wallMs", Math.round(performance.now() - s.startedAt + s.priorMs));
  s.events.emit("agent-call", { turn, action: s.tally.action, prompt });
  const reply = await s.agent.turn({
    workspace: s.paths.workspace,
    prompt,
    turn,
    availableActions: promptContext(s).availableActions,
    actionCap: s.config.actionCap,
    seed: s.config.seed,
  });
  s.resumed = false;
  s.onProgress?.(s);
  if (reply.isErr()) return err(reply.error);
  const batch = readActionsFile(s);
  const r = reply.value;
  const t = s.tally.tokens;
  s.tally.tokens = { input: t.input + r.tokens.input, cached: t.cached + r.tokens.cached, output: t.output + r.tokens.output };
  s.index.setState("tokens", s.tally.tokens);
  s.events.emit("agent-reply", { turn, ms: r.wallMs, actions: batch.isOk() ? batch.value.actions.length : 0, toolCalls: r.toolCalls, tokens: r.tokens, exitCode: r.exitCode, text: r.text });
  if (batch.isErr()) return err(batch.error);
  for (const w of batch.value.warnings) s.events.emit("warning", { message: w, code: "actions-json", path: s.paths.actions });
  if (batch.value.actions.length === 0 && !batch.value.stop) {
    return err(prolongError("no-actions", "actions.json holds no usable action", { path: s.paths.actions, fix: 'list at least one action, or write {"actions": [], "stop": true} to give up' }));
  }
  return ok({ reply: r, batch: batch.value });
}

function readActionsFile(s: RunSession): Result<ActionBatch, ProlongError> {
  const path = s.paths.actions;
  if (!existsSync(path)) {
    return err(prolongError("no-actions-json", "the agent left no actions.json", { path, fix: 'write {"actions": ["ACTION1"]} in the workspace before ending the turn' }));
  }
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    return err(prolongError("no-actions-json", `cannot read actions.json: ${(e as Error).message}`, { path }));
  }
  return parseActions(text, { cap: s.config.actionCap, available: promptContext(s).availableActions, path });
}

/** The [PLAN] text of the i-th action of a batch: the whole answer first, then the short plan repeated. */
export function planText(s: RunSession, answer: string, i: number): string | undefined {
  if (s.config.workspace === "stateless") return undefined;
  const text = i === 0 ? answer.trim() : splitPlan(answer).plan;
  return text.length > 0 ? text : undefined;
}

/** Stateless arm: the agent's plan goes to plans.txt in the workspace instead of the log. */
export function recordPlanOutsideLog(s: RunSession, turn: number, answer: string): void {
  if (s.config.workspace !== "stateless") return;
  const { plan } = splitPlan(answer);
  appendFileSync(s.paths.plans, `--- turn ${turn} (from action ${s.tally.action + 1})\n${plan}\n`);
}

export function warn(s: RunSession, e: ProlongError): void {
  s.events.emit("warning", { message: formatError(e), code: e.code, ...(e.path ? { path: e.path } : {}) });
}
