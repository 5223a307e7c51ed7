// `prolong log show`: selected sections as a person reads them (header, plan, tool call, what the section says
// beside its picture, the picture: a board in colour, or a screen's rows in its colours, on a terminal) or as
// JSON. Every kind's section is shown alike, from its codec's view. Sections no kind reads are shown raw with the
// reason, never dropped.
import { formatHeader, gridToText, type GridMode } from "../log/format.ts";
import type { LoadedLog } from "../log/load.ts";
import { renderBoard } from "./board.ts";
import type { SectionSummary } from "../log/section-summary.ts";
import { readSection } from "./section-read.ts";
import type { ColourRun, EnvKind, SectionPicture } from "../game/kinds.ts";
import { terminalLine, terminalText } from "../terminal-text.ts";

export interface ShowOptions {
  readonly colour: boolean;
  /** Also show the animation frames before the settled board. */
  readonly frames: boolean;
  readonly mode: GridMode;
  /** The kind the log's run names (inspect/log-kind.ts), whose codec reads its sections first. */
  readonly kind?: EnvKind | undefined;
}

/** A section as `log show` gives it: its summary, then its content as a person reads it. */
export interface ShownSection extends SectionSummary {
  readonly plan: string | null;
  readonly toolCall: string | null;
  /** Boards in the section (animation frames + settled). */
  readonly boards: number;
  /** How its picture is drawn: a board of cells, or a screen's text rows; null when no kind reads it. */
  readonly form: SectionPicture["form"] | null;
  /** The picture's rows: the settled board's as logged, or the whole screen's (its message line first). */
  readonly board: string[] | null;
  /** With --frames: each animation frame's rows. */
  readonly frameBoards?: string[][];
  /** What the section says beside its picture, one line each as logged (a terminal game's status, message, ...). */
  readonly lines: readonly string[];
  /** How the game ended, when the section says so. */
  readonly end: string | null;
  /** A screen's coloured runs per row: [first column, palette index 0..15, length]; null when it has none. */
  readonly colours: readonly (readonly ColourRun[])[] | null;
  /** Why no kind reads the section (then `text` holds its raw text). */
  readonly error: string | null;
  readonly text?: string;
}

export function showSection(log: LoadedLog, i: number, opts: ShowOptions): ShownSection {
  const r = readSection(log, i, opts.kind);
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
  const v = r.view;
  if (!v)
    return { ...base, plan: null, toolCall: null, form: null, board: null, lines: [], end: null, colours: null, text: r.text };
  const p = v.picture;
  return {
    ...base,
    plan: v.plan ?? null,
    toolCall: v.action ?? null,
    form: p.form,
    board: p.form === "cells" ? gridToText(p.board, opts.mode).split("\n") : [...p.rows],
    ...(opts.frames && p.form === "cells" ? { frameBoards: p.frames.map((f) => gridToText(f, opts.mode).split("\n")) } : {}),
    lines: v.lines,
    end: v.end ?? null,
    colours: p.form === "text" ? p.colours : null,
  };
}

const DIM = "\x1b[2m";
const BOLD = "\x1b[1m";
const RESET = "\x1b[0m";
/** Lines of an unreadable section shown raw: enough to see its header and where it went wrong. */
const RAW_LINES = 12;

/** One section as terminal text. */
export function renderShown(log: LoadedLog, i: number, opts: ShowOptions): string {
  const r = readSection(log, i, opts.kind);
  const style = (code: string, text: string) => (opts.colour ? `${code}${text}${RESET}` : text);
  const boards = log.table.frames[i] as number;
  const where = `#${i} at byte ${r.offset}${boards > 1 ? `, ${boards} boards` : ""}`;
  const v = r.view;
  if (!v) {
    const lines = terminalText(r.text).trimEnd().split("\n");
    const shown = lines.slice(0, RAW_LINES);
    if (lines.length > RAW_LINES) shown.push(style(DIM, `(${lines.length - RAW_LINES} more line(s); --json has the whole text)`));
    return [style(BOLD, `-- ${where}: not a readable section`), `   ${terminalText(r.error ?? "")}`, ...shown].join("\n");
  }
  const out = [style(BOLD, `-- ${formatHeader(v.header)}`) + "  " + style(DIM, `(${where})`)];
  // Everything a section holds came from outside (a log may have been forged): never shown with a raw control.
  if (v.plan !== undefined) out.push(style(DIM, "[PLAN]"), terminalText(v.plan));
  if (v.action !== undefined) out.push(`Tool Call: ${terminalText(v.action)}`);
  if (v.episode) out.push(`[EPISODE ${v.episode.index}/${v.episode.total}]`);
  out.push(...v.lines.map(terminalText));
  const p = v.picture;
  if (p.form === "text") return [...out, ...paintRows(p.rows.map(terminalLine), opts.colour ? p.colours : null)].join("\n");
  if (opts.frames) {
    p.frames.forEach((f, k) => {
      out.push(style(DIM, `[frame ${k + 1}/${p.frames.length}]`));
      out.push(...renderBoard(f, opts.colour, gridToText(f, opts.mode)));
    });
    if (p.frames.length > 0) out.push(style(DIM, "[settled]"));
  } else if (p.frames.length > 0) {
    out.push(style(DIM, `(${p.frames.length} animation frame(s) before the settled board: --frames shows them)`));
  }
  out.push(...renderBoard(p.board, opts.colour, gridToText(p.board, opts.mode)));
  return out.join("\n");
}

/** ANSI foreground per palette index (black red green yellow blue magenta cyan white, then bright). */
const ANSI = ["30", "31", "32", "33", "34", "35", "36", "37", "90", "91", "92", "93", "94", "95", "96", "97"];

/** A text picture's rows, each run of one colour painted (none without colours), trailing blanks trimmed. */
function paintRows(rows: readonly string[], colours: readonly (readonly ColourRun[])[] | null): string[] {
  if (!colours) return rows.map((r) => r.trimEnd());
  return rows.map((row, y) => {
    // Each cell's palette index (-1: the default), a later run over an earlier one.
    const c = new Array<number>(row.length).fill(-1);
    for (const [x, k, n] of colours[y] ?? []) c.fill(k, x, x + n);
    let line = "";
    for (let x = 0; x < row.length; ) {
      let end = x + 1;
      while (end < row.length && c[end] === c[x]) end++;
      const k = c[x] ?? -1;
      line += k >= 0 ? `\x1b[${ANSI[k]}m${row.slice(x, end)}${RESET}` : row.slice(x, end);
      x = end;
    }
    return line.trimEnd();
  });
}
