// Every harness access to the agent's directory, behind a few named functions: prepare it for a turn (the
// stateless wipe, the instruction files, the verified copy of the log), clear and read actions.json, append
// to plans.txt. The loop calls only these; what they do to the files is this file's business alone.
import { err, ok, type Result } from "neverthrow";
import { appendFileSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseActions, type ActionBatch } from "../agent/actions.ts";
import { INSTRUCTION_FILES, instructionsText } from "../agent/prompts.ts";
import { prolongError, type ProlongError } from "../errors.ts";
import { syncAgentCopy, type TamperEvent } from "../log/sandbox.ts";
import { currentBoardText } from "../log/window.ts";
import { promptContext, type RunSession } from "./session.ts";

/** Files the stateless arm keeps between turns. */
const KEPT = new Set<string>(["logs.txt", "plans.txt", ...INSTRUCTION_FILES]);

export interface PreparedTurn {
  /** The current board for the prompt, in the no-log arm only. */
  readonly board: string | undefined;
  /** What the agent did to its copy since the last turn, repaired by now. */
  readonly tamper: TamperEvent | null;
}

/** Before every agent call: wipe (stateless arm), restore the instructions, bring the copy of the log up to date. */
export function prepareTurn(s: RunSession): Result<PreparedTurn, ProlongError> {
  if (s.config.workspace === "stateless") wipeWorkspace(s.paths.workspace);
  writeInstructions(s); // restored if the agent removed or edited them; also carries the current action list
  const synced = syncAgentCopy({ master: s.master, copyPath: s.paths.copy, index: s.index, window: s.window, mode: s.config.gridMode });
  if (synced.isErr()) return err(synced.error);
  const tamper = synced.value.tamper;
  if (s.window.kind !== "none") return ok({ board: undefined, tamper });
  return currentBoardText(s.master, s.index).map((board) => ({ board, tamper }));
}

/** The instructions file, under each name the coding CLIs look for. */
export function writeInstructions(s: RunSession): void {
  const text = instructionsText(promptContext(s));
  for (const f of INSTRUCTION_FILES) writeFileSync(join(s.paths.workspace, f), text);
}

/** Removes the last turn's actions.json, so a turn that writes none is seen as such. */
export function clearActions(s: RunSession): void {
  rmSync(s.paths.actions, { force: true, recursive: true });
}

/** The agent's actions.json, parsed against the cap and the actions the game offers now. */
export function readActions(s: RunSession): Result<ActionBatch, ProlongError> {
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

/** Stateless arm: the agent's plan goes to plans.txt in the workspace instead of the log. */
export function appendPlan(s: RunSession, turn: number, fromAction: number, plan: string): void {
  appendFileSync(s.paths.plans, `--- turn ${turn} (from action ${fromAction})\n${plan}\n`);
}

function wipeWorkspace(dir: string): void {
  for (const name of readdirSync(dir)) {
    if (!KEPT.has(name)) rmSync(join(dir, name), { recursive: true, force: true });
  }
}
