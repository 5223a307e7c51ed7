// A test helper, not a second runner: plays a game with the explorer by writing sections to a temp
// workspace's logs.txt (format.ts) and calling explorerTurn, with the runner's header rule (RunTally).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseActions } from "../../../src/agent/actions.ts";
import { explorerTurn } from "../../../src/agent/explorer/explorer.ts";
import type { Action, FrameData, Game } from "../../../src/game/types.ts";
import { sectionAppendText, type LogSection } from "../../../src/log/format.ts";
import { newTally, recordStep } from "../../../src/run/tally.ts";

export interface PlayResult {
  readonly levels: number;
  readonly actions: number;
  readonly calls: number;
  readonly won: boolean;
  /** Actions spent on each level (RESETs count), as the runner's tally keeps them. */
  readonly levelActions: readonly number[];
  readonly log: string;
}

/** `newest`: the agent sees only the newest section, frames stripped (what --log-window 0 shows). */
export async function playWithExplorer(game: Game, opts: { maxActions: number; window: "full" | "newest"; seed?: number; cap?: number }): Promise<PlayResult> {
  const workspace = mkdtempSync(join(tmpdir(), "explorer-"));
  try {
    let frame = game.reset();
    const tally = newTally(frame);
    const sections: LogSection[] = [];
    let log = "";
    const append = (s: LogSection) => {
      log += sectionAppendText(s, "ascii", log.length === 0);
      sections.push(s);
    };
    append({ header: { action: 0, level: 1, attempt: 1, score: frame.levelsCompleted, kind: "initial" }, frames: [], board: settled(frame) });
    let calls = 0;
    while (tally.action < opts.maxActions && frame.state !== "WIN") {
      const newest = sections[sections.length - 1]!;
      const copy = opts.window === "full" ? log : sectionAppendText({ ...newest, frames: [] }, "ascii", true);
      writeFileSync(join(workspace, "logs.txt"), copy);
      calls++;
      const reply = await explorerTurn({ workspace, prompt: "play", turn: calls, availableActions: game.info.availableActions, actionCap: opts.cap ?? 20, seed: opts.seed ?? 1 });
      if (reply.isErr()) throw new Error(reply.error.message);
      const batch = parseActions(readFileSync(join(workspace, "actions.json"), "utf8"), { cap: opts.cap ?? 20, available: game.info.availableActions, path: "actions.json" });
      if (batch.isErr() || batch.value.actions.length === 0) break;
      let first = true;
      for (const action of batch.value.actions) {
        if (tally.action >= opts.maxActions) break;
        frame = action.id === 0 ? game.reset() : game.step(action);
        const effect = recordStep(tally, frame);
        append(section(effect.header, frame, action, first ? reply.value.text : undefined));
        first = false;
        if (effect.gameOver && tally.action < opts.maxActions) {
          frame = game.reset();
          const again = recordStep(tally, frame);
          append(section(again.header, frame, { id: 0 }, undefined));
        }
        if (effect.levelUp || effect.gameOver || effect.win) break;
      }
    }
    return { levels: tally.score, actions: tally.action, calls, won: frame.state === "WIN", levelActions: [...tally.levelActions], log };
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

function settled(f: FrameData) {
  return f.frames[f.frames.length - 1]!;
}

function section(header: { action: number; level: number; attempt: number; score: number }, frame: FrameData, toolCall: Action, plan: string | undefined): LogSection {
  return { header: { ...header, kind: "action" }, ...(plan !== undefined ? { plan } : {}), toolCall, frames: frame.frames.slice(0, -1), board: settled(frame) };
}
