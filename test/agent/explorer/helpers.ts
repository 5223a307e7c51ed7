// Hand-made boards and logs for the explorer's unit tests.
import { Knowledge } from "../../../src/agent/explorer/knowledge.ts";
import { foldStep } from "../../../src/agent/explorer/log-cursor.ts";
import { readLog } from "../../../src/agent/explorer/read-log.ts";
import type { Action, Grid } from "../../../src/game-model.ts";
import { writeLog, type LogSection } from "../../../src/log/format.ts";

/** A grid from rows of hex digits (one colour per character). */
export function grid(rows: string[]): Grid {
  const height = rows.length;
  const width = rows[0]!.length;
  const cells = new Uint8Array(width * height);
  rows.forEach((r, y) => {
    for (let x = 0; x < width; x++) cells[y * width + x] = parseInt(r[x]!, 16);
  });
  return { width, height, cells };
}

/** A 64x64 board of colour `bg` with rectangles painted on it. */
export function board64(bg: number, rects: { x: number; y: number; w: number; h: number; c: number }[] = []): Grid {
  const cells = new Uint8Array(64 * 64).fill(bg);
  for (const r of rects) for (let y = r.y; y < r.y + r.h; y++) for (let x = r.x; x < r.x + r.w; x++) cells[y * 64 + x] = r.c;
  return { width: 64, height: 64, cells };
}

export interface Step {
  readonly action: Action;
  readonly board: Grid;
  readonly attempt?: number;
  readonly score?: number;
}

/** A log: the initial board, then one section per step (level = score + 1 unless given). */
export function logOf(initial: Grid, steps: Step[]): string {
  const sections: LogSection[] = [
    { header: { action: 0, level: 1, attempt: 1, score: 0, kind: "initial" }, frames: [], board: initial },
  ];
  steps.forEach((s, i) => {
    const score = s.score ?? 0;
    sections.push({
      header: { action: i + 1, level: score + 1, attempt: s.attempt ?? 1, score, kind: "action" },
      toolCall: s.action,
      frames: [],
      board: s.board,
    });
  });
  return writeLog(sections, "ascii");
}

/** What the explorer knows after folding a whole log, as its turn would fold it. */
export function knowledgeOf(log: string): Knowledge {
  const run = readLog(new TextEncoder().encode(log), "logs.txt")._unsafeUnwrap();
  const known = new Knowledge(run.width, run.height);
  known.fold(run.steps.map(foldStep));
  return known;
}
