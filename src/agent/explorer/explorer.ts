// The built-in explorer: a training-free graph explorer that plays through the same contract as any agent.
// What it knows is a function of workspace/logs.txt alone: each call folds the sections appended since the
// last call into its knowledge (knowledge.ts; a fresh process folds the whole log and decides alike) and
// writes workspace/actions.json. Deterministic for a given log and seed.
import { err, ok, type Result } from "neverthrow";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { prolongError, type ProlongError } from "../../errors.ts";
import { ACTIONS_FILE, actionsFileText } from "../actions.ts";
import { NO_TOKENS, type Agent, type TurnInput, type TurnReply } from "../agent.ts";
import { describeIndicators } from "./indicators.ts";
import { Knowledge, knowledgeOf } from "./knowledge.ts";
import { decide, type Decision } from "./plan.ts";
import { decodeBoardText, type LoggedBoard } from "./read-log.ts";

export const LOG_FILE = "logs.txt";

export function createExplorer(): Agent {
  return { name: "explorer", turn: explorerTurn };
}

export async function explorerTurn(input: TurnInput): Promise<Result<TurnReply, ProlongError>> {
  const started = performance.now();
  const decided = think(input);
  if (decided.isErr()) return err(decided.error);
  const { decision, text } = decided.value;
  const path = join(input.workspace, ACTIONS_FILE);
  try {
    writeFileSync(path, actionsFileText(decision.actions, decision.actions.length === 0));
  } catch (e) {
    return err(
      prolongError("explorer-write", `cannot write actions: ${(e as Error).message}`, {
        path,
        fix: "check that the workspace is writable",
      }),
    );
  }
  return ok({ text, toolCalls: 0, tokens: NO_TOKENS, wallMs: performance.now() - started, exitCode: 0 });
}

/** One decision from what the workspace shows; no file is written. Exported for the benchmark. */
export function think(input: TurnInput): Result<{ decision: Decision; text: string }, ProlongError> {
  const known = observe(input);
  if (known.isErr()) return err(known.error);
  const { mask, graph } = known.value.view();
  const decision = decide(graph, { available: input.availableActions, actionCap: input.actionCap, seed: input.seed });
  let levelStates = 0;
  for (const s of graph.states.values()) if (s.score === graph.currentScore) levelStates++;
  let levelEdges = 0;
  for (const [k, out] of graph.edges) if (graph.states.get(k)?.score === graph.currentScore) levelEdges += out.size;
  const masked = describeIndicators(mask);
  const text = [
    `Level ${graph.currentScore + 1}, attempt ${graph.currentAttempt}: ${levelStates} states and ${levelEdges} tested actions known on this level (folded from the log${masked.length ? `; status indicators masked: ${masked.join(", ")}` : ""}).`,
    `Next: ${decision.reason}.`,
  ].join(" ");
  return ok({ decision, text });
}

/** The log when there is one; otherwise (the no-log arm) the board in the prompt as a one-step history. */
function observe(input: TurnInput): Result<Knowledge, ProlongError> {
  const path = join(input.workspace, LOG_FILE);
  if (existsSync(path)) {
    const known = knowledgeOf(path);
    if (known.isOk() && known.value !== undefined && known.value.steps.some((s) => s.cells !== undefined)) return ok(known.value);
    // An empty or unreadable copy: the prompt may still show the board; if not, report the log's problem.
    const fromPrompt = boardFromPrompt(input.prompt);
    if (fromPrompt.isOk() || known.isOk()) return fromPrompt;
    return err(known.error);
  }
  return boardFromPrompt(input.prompt);
}

const PROMPT_BOARD = "[CURRENT BOARD STATE]";

/** The board a prompt shows in its [CURRENT BOARD STATE] block (the no-log arm), with the header's score and action. */
export function promptBoard(prompt: string): { board: LoggedBoard; score: number; actionNumber: number } | undefined {
  const at = prompt.indexOf(PROMPT_BOARD);
  if (at < 0) return undefined;
  const rows: string[] = [];
  for (const line of prompt
    .slice(at + PROMPT_BOARD.length)
    .split("\n")
    .map((l) => l.trimEnd())) {
    if (line === "") {
      if (rows.length > 0) break;
      continue;
    }
    if (rows.length > 0 && line.length !== rows[0]!.length) break;
    rows.push(line);
  }
  const board = decodeBoardText(rows.join("\n"));
  if (!board) return undefined;
  const score = Number(/Score: (\d+)/.exec(prompt)?.[1] ?? 0);
  const actionNumber = Number(/Action: (\d+)/.exec(prompt)?.[1] ?? -1);
  return { board, score, actionNumber };
}

function boardFromPrompt(prompt: string): Result<Knowledge, ProlongError> {
  const fix = "give the explorer a workspace with logs.txt, or a prompt with a [CURRENT BOARD STATE] block";
  if (!prompt.includes(PROMPT_BOARD))
    return err(prolongError("explorer-no-board", "no logs.txt in the workspace and no board in the prompt", { fix }));
  const shown = promptBoard(prompt);
  if (!shown) return err(prolongError("explorer-no-board", "the prompt's [CURRENT BOARD STATE] block is not a board", { fix }));
  const { board, score, actionNumber } = shown;
  const known = new Knowledge(board.width, board.height);
  known.fold([{ kind: "initial", actionNumber, level: score + 1, attempt: 1, score, cells: board.cells }]);
  return ok(known);
}
