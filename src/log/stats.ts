// Whole-log figures for `prolong log stats`, computed from the native section index alone.
import type { LoadedLog } from "./load.ts";
import { SECTION_KIND } from "../native.ts";

export interface LogStats {
  readonly path: string;
  readonly bytes: number;
  readonly lines: number;
  readonly sections: number;
  /** Sections whose header is an action header (the initial-state sections are not actions). */
  readonly actions: number;
  readonly lastAction: number | null;
  /** Highest level reached (a header's Level field). */
  readonly levels: number;
  /** Highest attempt number seen, and how many times an attempt was restarted (GAME_OVER). */
  readonly maxAttempt: number;
  readonly gameOvers: number;
  readonly finalScore: number | null;
  /** Animation frames over all sections (a one-frame step counts 1). */
  readonly frames: number;
  readonly animatedSections: number;
  /** Sections whose header could not be read. */
  readonly unreadable: number;
  readonly preambleBytes: number;
  /** The last section when its settled board is cut short (a crash mid-write). */
  readonly cut: { readonly index: number; readonly offset: number; readonly action: number | null } | null;
}

export function logStats(log: LoadedLog): LogStats {
  const t = log.table;
  let actions = 0,
    levels = 0,
    maxAttempt = 0,
    gameOvers = 0,
    frames = 0,
    animated = 0,
    unreadable = 0;
  let lastAction: number | null = null;
  let finalScore: number | null = null;
  let prevAttempt = -1,
    prevLevel = -1;
  for (let i = 0; i < t.count; i++) {
    const kind = t.kind[i];
    const f = t.frames[i] as number;
    frames += f;
    if (f > 1) animated++;
    if (kind === SECTION_KIND.other) {
      unreadable++;
      continue;
    }
    if (kind === SECTION_KIND.action) {
      actions++;
      lastAction = t.action[i] as number;
    }
    const level = t.level[i] as number;
    const attempt = t.attempt[i] as number;
    levels = Math.max(levels, level);
    maxAttempt = Math.max(maxAttempt, attempt);
    if (level === prevLevel && attempt > prevAttempt) gameOvers += attempt - prevAttempt;
    prevAttempt = attempt;
    prevLevel = level;
    finalScore = t.score[i] as number;
  }
  const last = t.count - 1;
  const cut =
    last >= 0 && t.complete[last] === 0
      ? {
          index: last,
          offset: t.start[last] as number,
          action: (t.action[last] as number) >= 0 ? (t.action[last] as number) : null,
        }
      : null;
  return {
    path: log.path,
    bytes: log.bytes.length,
    // Counted by the native scan, in the same pass as the section index.
    lines: t.lines,
    sections: t.count,
    actions,
    lastAction,
    levels,
    maxAttempt,
    gameOvers,
    finalScore,
    frames,
    animatedSections: animated,
    unreadable,
    preambleBytes: t.preambleEnd,
    cut,
  };
}
