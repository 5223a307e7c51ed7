// `prolong log show`: selected sections as a person reads them (header, plan, tool call, boards in colour
// on a terminal) or as JSON. Sections that do not parse are shown raw with the reason, never dropped.
import { formatHeader, formatToolCall, gridToText, type GridMode } from "../log/format.ts";
import type { LoadedLog } from "../log/load.ts";
import { renderBoard } from "./board.ts";
import type { SectionSummary } from "../log/section-summary.ts";
import { readSection } from "./section-read.ts";

export interface ShowOptions {
  readonly colour: boolean;
  /** Also show the animation frames before the settled board. */
  readonly frames: boolean;
  readonly mode: GridMode;
}

/** A section as `log show` gives it: its summary, then its content as a person reads it. */
export interface ShownSection extends SectionSummary {
  readonly plan: string | null;
  readonly toolCall: string | null;
  /** Boards in the section (animation frames + settled). */
  readonly boards: number;
  /** The settled board's rows as logged. */
  readonly board: string[] | null;
  /** With --frames: each animation frame's rows. */
  readonly frameBoards?: string[][];
  /** Why the section did not parse (then `text` holds its raw text). */
  readonly error: string | null;
  readonly text?: string;
}

export function showSection(log: LoadedLog, i: number, opts: ShowOptions): ShownSection {
  const r = readSection(log, i);
  const s = r.section;
  const base = {
    index: r.index,
    offset: r.offset,
    kind: r.kind,
    action: r.action,
    level: r.level,
    attempt: r.attempt,
    score: r.score,
    planStep: r.planStep,
    boards: log.table.frames[i] as number,
    error: r.error,
  };
  if (!s) return { ...base, plan: null, toolCall: null, board: null, text: r.text };
  return {
    ...base,
    plan: s.plan ?? null,
    toolCall: s.toolCall ? formatToolCall(s.toolCall) : null,
    board: gridToText(s.board, opts.mode).split("\n"),
    ...(opts.frames ? { frameBoards: s.frames.map((f) => gridToText(f, opts.mode).split("\n")) } : {}),
  };
}

const DIM = "\x1b[2m";
const BOLD = "\x1b[1m";
const RESET = "\x1b[0m";
/** Lines of an unreadable section shown raw: enough to see its header and where it went wrong. */
const RAW_LINES = 12;

/** One section as terminal text. */
export function renderShown(log: LoadedLog, i: number, opts: ShowOptions): string {
  const r = readSection(log, i);
  const s = r.section;
  const style = (code: string, text: string) => (opts.colour ? `${code}${text}${RESET}` : text);
  const boards = log.table.frames[i] as number;
  const where = `#${i} at byte ${r.offset}${boards > 1 ? `, ${boards} boards` : ""}`;
  if (!s) {
    const lines = r.text.trimEnd().split("\n");
    const shown = lines.slice(0, RAW_LINES);
    if (lines.length > RAW_LINES) shown.push(style(DIM, `(${lines.length - RAW_LINES} more line(s); --json has the whole text)`));
    return [style(BOLD, `-- ${where}: not a readable section`), `   ${r.error}`, ...shown].join("\n");
  }
  const out = [style(BOLD, `-- ${formatHeader(s.header)}`) + "  " + style(DIM, `(${where})`)];
  if (s.plan !== undefined) out.push(style(DIM, "[PLAN]"), s.plan);
  if (s.toolCall) out.push(`Tool Call: ${formatToolCall(s.toolCall)}`);
  if (s.episode) out.push(`[EPISODE ${s.episode.index}/${s.episode.total}]`);
  if (opts.frames) {
    s.frames.forEach((f, k) => {
      out.push(style(DIM, `[frame ${k + 1}/${s.frames.length}]`));
      out.push(...renderBoard(f, opts.colour, gridToText(f, opts.mode)));
    });
    if (s.frames.length > 0) out.push(style(DIM, "[settled]"));
  } else if (s.frames.length > 0) {
    out.push(style(DIM, `(${s.frames.length} animation frame(s) before the settled board: --frames shows them)`));
  }
  out.push(...renderBoard(s.board, opts.colour, gridToText(s.board, opts.mode)));
  return out.join("\n");
}
