// The grid games' section codec (local, ARC offline and online, the toy): a step's animation frames and settled
// board written in the log format (log/format.ts) and read back, behind the same interface as every kind's codec.
import { err, ok } from "neverthrow";
import { actionText } from "../action-text.ts";
import type { FrameData, Grid } from "../game-model.ts";
import { parseSection, writeSection, type LogSection } from "../log/format.ts";
import { bytesSource, currentBoardText, GRID_WINDOWING } from "../log/window.ts";
import type { SectionCodec, SectionRead } from "./kind.ts";

const encoder = new TextEncoder();

export const gridCodec: SectionCodec = {
  ...GRID_WINDOWING,
  replay: "every-difference",
  write(frame, header, extra, run) {
    const board = frame.frames[frame.frames.length - 1];
    if (!board) return err("the game gave a step without a board");
    const section: LogSection = { header, frames: frame.frames.slice(0, -1), board, ...extra };
    return ok({ text: writeSection(section, run.gridMode), boards: frame.frames.length });
  },
  read(text) {
    return parseSection(text)
      .map(gridSectionRead)
      .mapErr((e) => e.message);
  },
  view(text) {
    return parseSection(text)
      .map((s) => ({
        header: s.header,
        ...(s.plan !== undefined ? { plan: s.plan } : {}),
        ...(s.toolCall ? { action: actionText(s.toolCall, "log") } : {}),
        ...(s.toolCall?.id === 6 ? { click: [s.toolCall.x, s.toolCall.y] as const } : {}),
        ...(s.episode ? { episode: s.episode } : {}),
        lines: [],
        picture: { form: "cells" as const, frames: s.frames, board: s.board },
      }))
      .mapErr((e) => e.message);
  },
  current(text) {
    return currentBoardText(bytesSource(encoder.encode(text))).mapErr((e) => e.message);
  },
};

/** A grid game's parsed section as the replay checks it: every frame, the settled board and the score. */
export function gridSectionRead(section: LogSection): SectionRead {
  return {
    header: section.header,
    ...(section.plan !== undefined ? { plan: section.plan } : {}),
    ...(section.toolCall ? { toolCall: section.toolCall } : {}),
    ...(section.episode ? { episode: section.episode } : {}),
    boards: section.frames.length + 1,
    check: (frame) => compareSection(section, frame),
  };
}

/** Differences between what the log holds and what the game returned, one string per difference. */
export function compareSection(section: LogSection, frame: FrameData): string[] {
  const logged = [...section.frames, section.board];
  const out: string[] = [];
  if (logged.length !== frame.frames.length) out.push(`frame count: log ${logged.length}, replay ${frame.frames.length}`);
  const n = Math.min(logged.length, frame.frames.length);
  for (let k = 0; k < n; k++) {
    const d = gridDiff(logged[k]!, frame.frames[k]!);
    if (d) out.push(`${k === logged.length - 1 ? "settled board" : `frame ${k + 1}/${logged.length - 1}`}: ${d}`);
  }
  if (section.header.score !== frame.levelsCompleted)
    out.push(`score: log ${section.header.score}, replay ${frame.levelsCompleted}`);
  return out;
}

function gridDiff(a: Grid, b: Grid): string | null {
  if (a.width !== b.width || a.height !== b.height) return `size: log ${a.width}x${a.height}, replay ${b.width}x${b.height}`;
  let count = 0;
  let first = -1;
  for (let i = 0; i < a.cells.length; i++) {
    if (a.cells[i] !== b.cells[i]) {
      if (first < 0) first = i;
      count++;
    }
  }
  return count === 0 ? null : `${count} cell(s) differ, first at x=${first % a.width}, y=${Math.floor(first / a.width)}`;
}
