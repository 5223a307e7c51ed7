// `prolong log show`: selected sections as a person reads them (header, plan, tool call, boards in colour
// on a terminal) or as JSON. Sections that do not parse are shown raw with the reason, never dropped.
import { actionText } from "../action-text.ts";
import { formatHeader, gridToText, type GridMode } from "../log/format.ts";
import type { LoadedLog } from "../log/load.ts";
import { renderBoard } from "./board.ts";
import type { SectionSummary } from "../log/section-summary.ts";
import { readSection } from "./section-read.ts";
import { screenView, type SectionCodec, type ScreenView } from "../game/kinds.ts";
import { terminalLine, terminalText } from "../terminal-text.ts";

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
  /** A terminal game's section (NetHack): its observation; `board` then holds the 24 screen rows. */
  readonly screen?: {
    readonly status: string;
    readonly message: string;
    readonly inventory: readonly string[] | null;
    readonly events: readonly string[] | null;
    readonly end: string | null;
    /** The [COLOURS] lines as logged, null when the screen had none. */
    readonly colours: readonly string[] | null;
  };
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
  const screen = s ? null : (screenSection(r.text)?.view ?? null);
  if (screen)
    return {
      ...base,
      error: null,
      plan: screen.plan ?? null,
      toolCall: screen.action ?? null,
      board: [screen.message.padEnd(80), ...screen.board],
      screen: {
        status: screen.status,
        message: screen.message,
        inventory: screen.inventory ?? null,
        events: screen.events ?? null,
        end: screen.end ?? null,
        colours: screen.colours ?? null,
      },
    };
  if (!s) return { ...base, plan: null, toolCall: null, board: null, text: r.text };
  return {
    ...base,
    plan: s.plan ?? null,
    toolCall: s.toolCall ? actionText(s.toolCall, "log") : null,
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
  const screen = s ? null : screenSection(r.text);
  if (screen) return renderScreen(screen, where, opts.colour);
  if (!s) {
    const lines = terminalText(r.text).trimEnd().split("\n");
    const shown = lines.slice(0, RAW_LINES);
    if (lines.length > RAW_LINES) shown.push(style(DIM, `(${lines.length - RAW_LINES} more line(s); --json has the whole text)`));
    return [style(BOLD, `-- ${where}: not a readable section`), `   ${terminalText(r.error ?? "")}`, ...shown].join("\n");
  }
  const out = [style(BOLD, `-- ${formatHeader(s.header)}`) + "  " + style(DIM, `(${where})`)];
  // The plan is shown as the agent wrote it, but never with a raw control: the log's pictures stay pictures.
  if (s.plan !== undefined) out.push(style(DIM, "[PLAN]"), terminalText(s.plan));
  if (s.toolCall) out.push(`Tool Call: ${terminalText(actionText(s.toolCall, "log"))}`);
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

/** A terminal game's section (the grid parse refused it) and its kind's codec, or null when it is not one either. */
function screenSection(text: string): { readonly view: ScreenView; readonly codec: SectionCodec } | null {
  return screenView(text);
}

/** A screen section with every text it holds made safe for a terminal (a log may have been forged). */
function screenForTerminal(s: ScreenView): ScreenView {
  const t = terminalText;
  return {
    ...s,
    ...(s.plan !== undefined ? { plan: t(s.plan) } : {}),
    ...(s.action !== undefined ? { action: t(s.action) } : {}),
    status: t(s.status),
    message: t(s.message),
    board: s.board.map(terminalLine),
    ...(s.inventory ? { inventory: s.inventory.map(t) } : {}),
    ...(s.events ? { events: s.events.map(t) } : {}),
    ...(s.end !== undefined ? { end: t(s.end) } : {}),
  };
}

/** ANSI foreground per palette index (black red green yellow blue magenta cyan white, then bright). */
const ANSI = ["30", "31", "32", "33", "34", "35", "36", "37", "90", "91", "92", "93", "94", "95", "96", "97"];

/** A terminal game's section as a person reads it: its observation lines, then the whole screen in its colours. */
function renderScreen({ view: raw, codec }: { view: ScreenView; codec: SectionCodec }, where: string, colour: boolean): string {
  const s = screenForTerminal(raw);
  const dim = (t: string) => (colour ? `${DIM}${t}${RESET}` : t);
  const out = [
    (colour ? `${BOLD}-- ${formatHeader(s.header)}${RESET}` : `-- ${formatHeader(s.header)}`) + "  " + dim(`(${where})`),
  ];
  if (s.plan !== undefined) out.push(dim("[PLAN]"), s.plan);
  if (s.action !== undefined) out.push(`Tool Call: ${s.action}`);
  if (s.episode) out.push(`[EPISODE ${s.episode.index}/${s.episode.total}]`);
  out.push(`[STATUS] ${s.status}`, `[MESSAGE] ${s.message}`);
  if (s.inventory) out.push("[INVENTORY]", ...s.inventory.map((l) => ` ${l}`));
  if (s.events) out.push(`[EVENT] ${s.events.join("; ")}`);
  if (s.end !== undefined) out.push(`[END] ${s.end}`);
  const rows = [s.message.padEnd(80), ...s.board];
  if (!colour || !s.colours) return [...out, ...rows.map((r) => r.trimEnd())].join("\n");
  const palette = codec.palette?.(s.colours) ?? [];
  const painted = rows.map((row, y) => {
    const c = palette[y] ?? [];
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
  return [...out, ...painted].join("\n");
}
