// The random agent (`--agent random`): the floor a study shows beside its agents, and the explorer's yardstick.
// Seeded: each action is drawn uniformly among the game's available actions (RESET excepted: the harness
// restarts a lost level itself), and a click (ACTION6) lands on a uniformly drawn one of the board's distinct
// things — its connected single-colour components, each at its own cell nearest its centre — rather than on a
// uniformly drawn cell, so that a small button is as likely as the background around it. It reads only the
// newest board in its workspace's log (the prompt's board without a log), fills each batch to the action cap,
// and never stops. The draw depends on the seed and the log's last action number alone, so a resumed or
// stateless run draws as the uninterrupted one would.
import { err, ok, type Result } from "neverthrow";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { prolongError, type ProlongError } from "../errors.ts";
import type { Action, ActionId } from "../game-model.ts";
import { seededRandom } from "../random.ts";
import { ACTIONS_FILE, actionsFileText } from "./actions.ts";
import { NO_TOKENS, type Agent, type TurnInput, type TurnReply } from "./agent.ts";
import { LOG_FILE, promptBoard } from "./explorer/explorer.ts";
import { readNewSections, type Cursor } from "./explorer/log-cursor.ts";
import { segment } from "./explorer/segment.ts";

export function createRandomAgent(): Agent {
  return { name: "random", turn: randomTurn };
}

/** The newest board of a log and where the read stopped, kept per log so a turn reads only what was appended. */
interface Newest {
  readonly cursor: Cursor;
  readonly cells: Uint8Array;
  readonly width: number;
  readonly height: number;
  readonly actionNumber: number;
}
const newest = new Map<string, Newest>();
const KEPT = 8;

export async function randomTurn(input: TurnInput): Promise<Result<TurnReply, ProlongError>> {
  const started = performance.now();
  const board = currentBoard(input);
  if (board.isErr()) return err(board.error);
  const actions = drawBatch(board.value, input);
  const path = join(input.workspace, ACTIONS_FILE);
  try {
    writeFileSync(path, actionsFileText(actions, false));
  } catch (e) {
    return err(
      prolongError("random-write", `cannot write actions: ${(e as Error).message}`, {
        path,
        fix: "check that the workspace is writable",
      }),
    );
  }
  const text = `Random play (seed ${input.seed}): ${actions.length} action${actions.length === 1 ? "" : "s"} drawn among ${input.availableActions.filter((a) => a !== 0).length} available, clicks among the board's things.`;
  return ok({ text, toolCalls: 0, tokens: NO_TOKENS, wallMs: performance.now() - started, exitCode: 0 });
}

type Board = Pick<Newest, "cells" | "width" | "height" | "actionNumber">;

/** A batch of `actionCap` draws; exported for the tests. */
export function drawBatch(board: Board, input: Pick<TurnInput, "availableActions" | "actionCap" | "seed">): Action[] {
  const offered = input.availableActions.filter((a): a is Exclude<ActionId, 0> => a !== 0);
  if (offered.length === 0) return [];
  const things = offered.includes(6) ? segment({ width: board.width, height: board.height, cells: board.cells }).components : [];
  const next = seededRandom(Number(Bun.hash.wyhash(`random:${board.actionNumber}`, BigInt(input.seed >>> 0)) & 0xffffffffn));
  const out: Action[] = [];
  for (let i = 0; i < Math.max(1, input.actionCap); i++) {
    const id = offered[Math.floor(next() * offered.length)]!;
    if (id !== 6) out.push({ id });
    else if (things.length > 0) {
      const t = things[Math.floor(next() * things.length)]!;
      out.push({ id: 6, x: t.clickX, y: t.clickY });
    }
  }
  return out;
}

function currentBoard(input: TurnInput): Result<Board, ProlongError> {
  const fix = "give the random agent a workspace with logs.txt, or a prompt with a [CURRENT BOARD STATE] block";
  const path = join(input.workspace, LOG_FILE);
  if (existsSync(path)) {
    const held = newest.get(path);
    const read = readNewSections(path, held?.cursor);
    if (read.isOk() && read.value.cursor !== undefined) {
      const last = read.value.steps.findLast((s) => s.cells !== undefined);
      const kept = last?.cells
        ? {
            cursor: read.value.cursor,
            cells: last.cells,
            width: read.value.width,
            height: read.value.height,
            actionNumber: last.actionNumber,
          }
        : held && !read.value.restart
          ? { ...held, cursor: read.value.cursor }
          : undefined;
      if (kept) {
        newest.delete(path);
        newest.set(path, kept);
        while (newest.size > KEPT) newest.delete(newest.keys().next().value!);
        return ok(kept);
      }
    }
    newest.delete(path);
  }
  const shown = promptBoard(input.prompt);
  if (shown)
    return ok({
      cells: shown.board.cells,
      width: shown.board.width,
      height: shown.board.height,
      actionNumber: shown.actionNumber,
    });
  return err(prolongError("random-no-board", "no board in the workspace's logs.txt nor in the prompt", { path, fix }));
}
