// THE one definition of the log format (logs.txt): how one section is written, and how it is read back.
// Everything that writes or parses log text imports this file; the native scanner (src/native.ts) only
// finds section boundaries fast and is tested against this file's output.
//
// A SECTION, exactly as the published harness writes it (checked byte for byte against its real logs):
//
//   ================================================================================   ← SEPARATOR (80 '=')
//   Action 7 | Level 2 | Attempt 1 | Plan Step 3/7 | Score: 1                         ← header
//   <blank>
//   <blank>                       ┐ only with a plan: "\n[PLAN]\n" + plan + "\n\n"
//   [PLAN]                        │
//   <plan text, any number of lines, escaped as below>
//   <blank>                       ┘
//   Tool Call: ACTION6({"x": 38, "y": 24})                                             ← only with a tool call
//   [POST-ACTION BOARD STATE]                                                          ← [INITIAL BOARD STATE] for action 0
//   [frame 1/2]                   ┐ only with animation: k-1 frames before the settled board,
//   <grid>                        │ "[frame i/(k-1)]" + grid each, then "[settled]"
//   [frame 2/2]                   │
//   <grid>                        │
//   [settled]                     ┘
//   <grid>                                                                             ← the settled board
//   <blank>
//
// The header is "Action N | Level L | Attempt A | Plan Step i/K | Score: S" (" | Plan Step i/K" only while a
// plan is loaded) or "Action 0 | Level L | Attempt A | INITIAL STATE | Score: S" for the initial board. A
// terminal game (NetHack) adds its vitals right before the Score, so the line still ends in "Score: S":
// "Action 12 | Level 2 | Attempt 1 | XL 3 | HP 7(16) | Turn 812 | Score: 154". Grid games never write them.
//
// NEWLINES. writeSection returns the section as it stands at the END of a log: it starts with the separator
// and ends with the settled board's last row + "\n\n" (the row's newline and one blank line). Sections in a
// log are joined by ONE extra "\n": the published writer starts every append after the first with "\n" +
// SEPARATOR. So a log of n sections is sections.map(writeSection).join(SECTION_JOIN), a complete log always
// ends in "\n\n", and appending is sectionAppendText(s, mode, logIsEmpty). A section's byte range as
// native.ts defines it (separator to next separator) therefore is writeSection(s) + "\n" for every section
// but the last, and writeSection(s) for the last.
//
// ESCAPING agent text. The [PLAN] text is the agent's and may contain anything. First, CONTROL characters
// other than tab and newline (U+0000–U+001F and U+007F; a NUL would make every reader call the log binary)
// are written as their Unicode control pictures, U+2400 + code ("␀", "␍", ...; DEL as U+2421 "␡"), and a
// character of that block (U+2400–U+2426) already in the text is quoted by a "␦" (U+2426) before it;
// parseSection maps them back. Then writeSection prefixes ONE
// space to every plan line that, after any leading spaces, would read as structure: a line of exactly 80
// '=', or a line starting with "Tool Call:", "[POST-ACTION", "[INITIAL", "[frame ", "[settled]", "[PLAN]" or
// "Action <digit>". Lines are split at "\n", U+2028 and U+2029 (any of them ends a line for some reader;
// a "\r" is already a picture by then). parseSection removes one space from such lines, so the round trip
// is exact (the rule is mboxrd's ">From " quoting: already-indented lines gain a space too). Text without
// such lines, controls or pictures is written byte for byte, so our logs stay byte-compatible with the
// published ones.
//
// READING is tolerant where real files vary: "\r\n" line ends (in a CRLF section the "\r" of plan lines is
// dropped; in an LF section a raw "\r", which only an older writer leaves, is the agent's and kept), any
// number of blank lines after the board, a header without "Plan Step", free text inside [PLAN]. A section
// is COMPLETE when its text ends with the blank line after the board, or, lacking it, when the settled board
// is square (a log written with no final newline); anything else stopped inside its board and parseLog
// reports it as the cut.
//
// QUIRK of the published logs, normalised: their [PLAN] text sometimes begins with the agent's own raw
// "[PLAN]" line (a doubled "[PLAN]\n[PLAN]\n"). parseSection keeps it as plan text; writeSection escapes it,
// so re-writing such a section gives "[PLAN]\n [PLAN]\n". Every other byte of the four real logs is
// reproduced exactly (test/log/fixtures.test.ts).
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";
import type { Action, Grid, HeaderVitals } from "../game-model.ts";

export type { HeaderVitals };
import { detectGridMode, gridToText, textToGrid, type GridMode } from "./grid-text.ts";
import { escapePlan, unescapePlan } from "./plan-escape.ts";
import { actionText } from "../action-text.ts";
import { parseToolCall } from "./tool-call.ts";

export { ASCII_PALETTE, detectGridMode, gridToText, textToGrid, type GridMode } from "./grid-text.ts";
export { escapePlan, unescapePlan } from "./plan-escape.ts";
export { parseToolCall } from "./tool-call.ts";

export const SEPARATOR = "=".repeat(80);
/** What separates two sections in a log (see NEWLINES above). */
export const SECTION_JOIN = "\n";
export const MARKER = {
  plan: "[PLAN]",
  initialBoard: "[INITIAL BOARD STATE]",
  postActionBoard: "[POST-ACTION BOARD STATE]",
  settled: "[settled]",
  toolCall: "Tool Call: ",
  episode: "[EPISODE",
} as const;

export interface SectionHeader {
  action: number;
  level: number;
  attempt: number;
  score: number;
  kind: "initial" | "action";
  planStep?: { step: number; total: number };
  /** A terminal game's experience level, hit points and turn counter after the action (NetHack). */
  vitals?: HeaderVitals;
}

/**
 * What a section holds beside its header and its observation, whichever kind wrote the observation (a grid
 * game's boards here, a terminal game's screen by its kind's codec): the plan, the action, the episode marker.
 */
export interface SectionExtra {
  plan?: string;
  toolCall?: Action;
  /**
   * Lifetime arm (--episodes K): an INITIAL STATE section that starts episode `index` of `total` carries the
   * line "[EPISODE index/total]" before its observation. prolong's own addition; the published logs have none.
   */
  episode?: { index: number; total: number };
}

/** A grid game's section: its header, what it holds beside the boards, and the boards. */
export interface LogSection extends SectionExtra {
  header: SectionHeader;
  /** animation frames before the settled board (empty for a one-frame step) */
  frames: Grid[];
  board: Grid;
}

// ---------------------------------------------------------------- header

const HEADER_RE =
  /^Action (\d+) \| Level (\d+) \| Attempt (\d+)(?: \| (?:(INITIAL STATE)|Plan Step (\d+)\/(\d+)))?(?: \| XL (\d+) \| HP (\d+)\((\d+)\) \| Turn (\d+))? \| Score: (\d+)$/;

export function formatHeader(h: SectionHeader): string {
  const middle =
    h.kind === "initial" ? " | INITIAL STATE" : h.planStep ? ` | Plan Step ${h.planStep.step}/${h.planStep.total}` : "";
  const v = h.vitals;
  const vitals = v ? ` | XL ${v.xl} | HP ${v.hp}(${v.hpMax}) | Turn ${v.turn}` : "";
  return `Action ${h.action} | Level ${h.level} | Attempt ${h.attempt}${middle}${vitals} | Score: ${h.score}`;
}

/** The header line's fields, or undefined when the line is not a header (a trailing "\r" is ignored). */
export function parseHeader(line: string): SectionHeader | undefined {
  const m = HEADER_RE.exec(stripCr(line));
  if (!m) return undefined;
  const base: SectionHeader = {
    action: Number(m[1]),
    level: Number(m[2]),
    attempt: Number(m[3]),
    score: Number(m[11]),
    kind: m[4] ? "initial" : "action",
  };
  if (m[5] !== undefined) base.planStep = { step: Number(m[5]), total: Number(m[6]) };
  if (m[7] !== undefined) base.vitals = { xl: Number(m[7]), hp: Number(m[8]), hpMax: Number(m[9]), turn: Number(m[10]) };
  return base;
}

// ---------------------------------------------------------------- writing

function boardBlock(frames: readonly Grid[], board: Grid, mode: GridMode): string {
  if (frames.length === 0) return gridToText(board, mode);
  const n = frames.length;
  const parts = frames.map((f, i) => `[frame ${i + 1}/${n}]\n${gridToText(f, mode)}`);
  parts.push(`${MARKER.settled}\n${gridToText(board, mode)}`);
  return parts.join("\n");
}

/** The section's exact bytes as the last section of a log (ends with "\n\n"; see NEWLINES above). */
export function writeSection(s: LogSection, mode: GridMode): string {
  let out = `${SEPARATOR}\n${formatHeader(s.header)}\n\n`;
  if (s.plan !== undefined) out += `\n${MARKER.plan}\n${escapePlan(s.plan)}\n\n`;
  if (s.toolCall) out += `${MARKER.toolCall}${actionText(s.toolCall, "log")}\n`;
  if (s.episode) out += `${MARKER.episode} ${s.episode.index}/${s.episode.total}]\n`;
  const marker = s.header.kind === "initial" ? MARKER.initialBoard : MARKER.postActionBoard;
  return `${out}${marker}\n${boardBlock(s.frames, s.board, mode)}\n\n`;
}

/** The bytes to append to a log so that it gains this section (the join "\n" unless the log is empty). */
export function sectionAppendText(s: LogSection, mode: GridMode, logIsEmpty: boolean): string {
  return (logIsEmpty ? "" : SECTION_JOIN) + writeSection(s, mode);
}

/** A whole log: exactly the bytes appending the sections one by one produces. */
export function writeLog(sections: readonly LogSection[], mode: GridMode): string {
  return sections.map((s) => writeSection(s, mode)).join(SECTION_JOIN);
}

// ---------------------------------------------------------------- parsing

function stripCr(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}

function isBlank(line: string | undefined): boolean {
  return line === "" || line === "\r";
}

function quote(line: string | undefined): string {
  if (line === undefined) return "the end of the section";
  return JSON.stringify(line.length > 80 ? `${line.slice(0, 77)}...` : line);
}

function sectionError(message: string, fix?: string): Result<never, ProlongError> {
  return err(prolongError("bad-section", message, fix ? { fix } : {}));
}

/** A line that closes a [PLAN] block: the tool call or a board marker (agent text never is one, once escaped). */
function endsPlan(line: string): boolean {
  const l = stripCr(line);
  return l.startsWith("Tool Call:") || l === MARKER.postActionBoard || l === MARKER.initialBoard;
}

/** The index after a run of board rows starting at i (rows are non-blank and never start with '['). */
function rowsEnd(lines: readonly string[], i: number): number {
  let j = i;
  while (j < lines.length && !isBlank(lines[j]) && !(lines[j] ?? "").startsWith("[")) j++;
  return j;
}

/**
 * One section's text (from its separator line to the next separator, or the end of the log) → LogSection.
 * Accepts "\r\n" line ends and any number of blank lines after the board. Errors name what was expected.
 * A section whose text stops inside its board (no blank line after a board that is not square) is "cut".
 */
export function parseSection(text: string): Result<LogSection, ProlongError> {
  const lines = text.split("\n");
  if (stripCr(lines[0] ?? "") !== SEPARATOR) {
    return sectionError(`expected a separator line of 80 '=' at the start of the section, found ${quote(lines[0])}`);
  }
  const header = parseHeader(lines[1] ?? "");
  if (!header) {
    return sectionError(
      `expected a header "Action N | Level L | Attempt A | Plan Step i/K | Score: S" after the separator, found ${quote(lines[1])}`,
    );
  }
  if (!isBlank(lines[2])) return sectionError(`expected a blank line after the header, found ${quote(lines[2])}`);

  let i = 3;
  let plan: string | undefined;
  if (isBlank(lines[3]) && stripCr(lines[4] ?? "") === MARKER.plan) {
    let j = 5;
    while (j < lines.length && !endsPlan(lines[j] ?? "")) j++;
    if (j >= lines.length) {
      return sectionError(`the [PLAN] block never ends: expected a "Tool Call:" or board marker line after it`);
    }
    // In a CRLF section the "\r" ends the line; in an LF section a "\r" is the agent's and is kept.
    const crlf = (lines[0] ?? "").endsWith("\r");
    const planLines = crlf ? lines.slice(5, j).map(stripCr) : lines.slice(5, j);
    if (planLines.length > 0 && isBlank(planLines[planLines.length - 1])) planLines.pop();
    plan = unescapePlan(planLines.join("\n"));
    i = j;
  }

  let toolCall: Action | undefined;
  const toolLine = stripCr(lines[i] ?? "");
  if (toolLine.startsWith("Tool Call:")) {
    const parsed = parseToolCall(toolLine.slice("Tool Call:".length));
    if (parsed.isErr()) return err(parsed.error);
    toolCall = parsed.value;
    i++;
  }

  let episode: LogSection["episode"];
  const episodeMatch = /^\[EPISODE (\d+)\/(\d+)\]$/.exec(stripCr(lines[i] ?? ""));
  if (episodeMatch) {
    episode = { index: Number(episodeMatch[1]), total: Number(episodeMatch[2]) };
    i++;
  }

  const marker = header.kind === "initial" ? MARKER.initialBoard : MARKER.postActionBoard;
  if (stripCr(lines[i] ?? "") !== marker) {
    return sectionError(`expected ${marker} (action ${header.action}), found ${quote(lines[i])}`);
  }
  i++;

  // Collect every board's rows first so the grid mode is decided once for the whole section.
  const boards: string[][] = [];
  const frameMatch = /^\[frame (\d+)\/(\d+)\]$/.exec(stripCr(lines[i] ?? ""));
  if (frameMatch) {
    const total = Number(frameMatch[2]);
    for (let n = 1; n <= total; n++) {
      if (stripCr(lines[i] ?? "") !== `[frame ${n}/${total}]`) {
        return sectionError(`expected "[frame ${n}/${total}]" (action ${header.action}), found ${quote(lines[i])}`);
      }
      const end = rowsEnd(lines, i + 1);
      if (end === i + 1)
        return sectionError(
          `expected a board after "[frame ${n}/${total}]" (action ${header.action}), found ${quote(lines[end])}`,
        );
      boards.push(lines.slice(i + 1, end));
      i = end;
    }
    if (stripCr(lines[i] ?? "") !== MARKER.settled) {
      return sectionError(
        `expected "${MARKER.settled}" after ${total} frames (action ${header.action}), found ${quote(lines[i])}`,
      );
    }
    i++;
  }
  const boardEnd = rowsEnd(lines, i);
  if (boardEnd === i)
    return sectionError(`expected the board's rows after the marker (action ${header.action}), found ${quote(lines[i])}`);
  boards.push(lines.slice(i, boardEnd));

  const rest = lines.slice(boardEnd);
  const extra = rest.find((l) => !isBlank(l));
  if (extra !== undefined) {
    return sectionError(
      `unexpected text after the board (action ${header.action}): ${quote(extra)}; expected blank lines up to the next separator`,
    );
  }

  const mode = detectGridMode(boards.map((b) => b.join("")).join(""));
  const grids: Grid[] = [];
  for (const rows of boards) {
    const g = textToGrid(rows.join("\n"), mode);
    if (g.isErr()) return err({ ...g.error, message: `action ${header.action}: ${g.error.message}` });
    grids.push(g.value);
  }
  const board = grids.pop() as Grid; // boards is never empty here
  // The writer always ends a section with a blank line; without it only a square board counts as whole.
  const endedCleanly = rest.length >= 2;
  if (!endedCleanly && board.height !== board.width) {
    return sectionError(
      `section of action ${header.action} stops inside its board (${board.height} rows of ${board.width} cells, no blank line after it)`,
      "the log was cut while this section was written; the sections before it are complete",
    );
  }
  const section: LogSection = { header, frames: grids, board };
  if (plan !== undefined) section.plan = plan;
  if (toolCall) section.toolCall = toolCall;
  if (episode) section.episode = episode;
  return ok(section);
}

/** Character offsets of every separator line (80 '=' at a line start, then "\n", "\r\n" or the end). */
export function separatorOffsets(text: string): number[] {
  const out: number[] = [];
  let from = 0;
  for (;;) {
    const i = text.indexOf(SEPARATOR, from);
    if (i < 0) return out;
    const atLineStart = i === 0 || text.charCodeAt(i - 1) === 10;
    const after = i + SEPARATOR.length;
    const c = text.charCodeAt(after);
    const atLineEnd = after === text.length || c === 10 || (c === 13 && text.charCodeAt(after + 1) === 10);
    if (atLineStart && atLineEnd) {
      out.push(i);
      from = after;
    } else {
      // A separator starts a line: skip the rest of this one.
      const nl = text.indexOf("\n", i);
      if (nl < 0) return out;
      from = nl + 1;
    }
  }
}

export interface LogCut {
  /** Index of the first section that did not parse (= number of complete sections). */
  index: number;
  /** Byte offset (UTF-8) of that section's separator, or 0 when the text is not a log. */
  offset: number;
  reason: string;
}

export interface ParsedLog {
  sections: LogSection[];
  cut?: LogCut;
}

/**
 * A whole log → its sections, never failing: it stops at the first section that does not parse (a
 * cut last board, or hostile text) and names it in `cut`. Text that is not a log gives no sections and a
 * cut at 0. An empty text is an empty log. Whitespace before the first separator is ignored.
 */
export function parseLog(text: string): ParsedLog {
  const starts = separatorOffsets(text);
  const first = starts[0] ?? text.length;
  if (text.slice(0, first).trim() !== "") {
    const reason =
      starts.length === 0
        ? "no separator line (80 '=') found: this is not a prolong log"
        : "text before the first separator line: a prolong log starts with a line of 80 '='";
    return { sections: [], cut: { index: 0, offset: 0, reason } };
  }
  const sections: LogSection[] = [];
  for (let k = 0; k < starts.length; k++) {
    const start = starts[k] ?? 0;
    const parsed = parseSection(text.slice(start, starts[k + 1] ?? text.length));
    if (parsed.isErr()) {
      const offset = Buffer.byteLength(text.slice(0, start), "utf8");
      return { sections, cut: { index: k, offset, reason: parsed.error.message } };
    }
    sections.push(parsed.value);
  }
  return { sections };
}
