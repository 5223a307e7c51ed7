// Reads the agent's copy of the log back into what the explorer needs per section: header fields, the
// action taken and the settled board's cells. The native section index finds sections and board ranges
// without scanning text in JS; format.ts parses the one line per section that the index does not (Tool Call).
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../../errors.ts";
import type { Action } from "../../game/types.ts";
import { ASCII_PALETTE, parseToolCall } from "../../log/format.ts";
import { SECTION_KIND, sectionIndex } from "../../native.ts";

export interface LoggedStep {
  /** Section ordinal in the file (0 = first section present, which is not always the INITIAL one). */
  readonly section: number;
  readonly kind: "initial" | "action" | "other";
  /** The header's "Action N" (-1 for an unparsed header). */
  readonly actionNumber: number;
  readonly level: number;
  readonly attempt: number;
  /** Levels completed after this section's action: the level the board below belongs to is score + 1. */
  readonly score: number;
  /** The section's Tool Call, when it has a readable one. */
  readonly action?: Action;
  /** Settled board as colour indices (row-major), when the section holds a complete board. */
  readonly board?: Uint8Array;
}

export interface LoggedRun {
  readonly steps: LoggedStep[];
  readonly width: number;
  readonly height: number;
}

const TOOL_CALL = new TextEncoder().encode("\nTool Call: ");
const HEX_DIGITS = "0123456789abcdef";

/** Indexes and decodes a log held in memory. `path` only names the file in errors. */
export function readLog(buf: Uint8Array, path: string): Result<LoggedRun, ProlongError> {
  const table = sectionIndex(buf);
  const decode = chooseDecoder(buf, table.boardStart, table.boardEnd, table.count);
  const steps: LoggedStep[] = [];
  let width = 0;
  let height = 0;
  const text = new TextDecoder();
  for (let i = 0; i < table.count; i++) {
    const kindCode = table.kind[i]!;
    const kind = kindCode === SECTION_KIND.initial ? "initial" : kindCode === SECTION_KIND.action ? "action" : "other";
    const start = table.start[i]!;
    const boardStart = table.boardStart[i]!;
    const boardEnd = table.boardEnd[i]!;
    let board: Uint8Array | undefined;
    if (table.complete[i] === 1 && boardStart >= 0) {
      const cells = decodeBoard(buf, boardStart, boardEnd, decode);
      if (cells !== undefined) {
        if (width === 0) {
          width = cells.width;
          height = cells.height;
        }
        if (cells.width === width && cells.height === height) board = cells.cells;
      }
    }
    let action: Action | undefined;
    if (kind === "action") {
      // The LAST "Tool Call: " before the board: agent text in [PLAN] may quote the phrase, the harness's
      // own line comes after it.
      const limit = boardStart >= 0 ? boardStart : table.end[i]!;
      const at = lastIndexOf(buf, TOOL_CALL, start, limit);
      if (at >= 0) {
        const lineStart = at + 1;
        let lineEnd = buf.indexOf(10, lineStart);
        if (lineEnd < 0 || lineEnd > limit) lineEnd = limit;
        const line = text.decode(buf.subarray(lineStart + TOOL_CALL.length - 1, lineEnd)).trim();
        const parsed = parseToolCall(line);
        if (parsed.isOk()) action = parsed.value;
      }
    }
    steps.push({
      section: i, kind, actionNumber: table.action[i]!, level: table.level[i]!, attempt: table.attempt[i]!,
      score: table.score[i]!, ...(action ? { action } : {}), ...(board ? { board } : {}),
    });
  }
  if (steps.length > 0 && width === 0) {
    return err(prolongError("explorer-no-board", "the log has sections but no complete board to read", {
      path, fix: "check that the log is a prolong log (64x64 boards after [POST-ACTION BOARD STATE])",
    }));
  }
  return ok({ steps, width, height });
}

/** Decodes a board given as text (the prompt's [CURRENT BOARD STATE] block, or a test's grid). */
export function decodeBoardText(textBoard: string): { cells: Uint8Array; width: number; height: number } | undefined {
  const buf = new TextEncoder().encode(textBoard.trim() + "\n");
  const decode = chooseDecoder(buf, new Float64Array([0]), new Float64Array([buf.length]), 1);
  return decodeBoard(buf, 0, buf.length, decode);
}

// The ascii palette and hex mode share two characters ('8' and 'f'), so the mode is decided once per log:
// ascii when any board character is outside the hex digits, hex when a hex-only digit appears.
function chooseDecoder(buf: Uint8Array, starts: Float64Array, ends: Float64Array, count: number): Int8Array {
  const ascii = new Int8Array(256).fill(-1);
  for (let c = 0; c < ASCII_PALETTE.length; c++) ascii[ASCII_PALETTE.charCodeAt(c)] = c;
  const hex = new Int8Array(256).fill(-1);
  for (let c = 0; c < 16; c++) hex[HEX_DIGITS.charCodeAt(c)] = c;
  for (let i = 0; i < count; i++) {
    const s = starts[i]!;
    if (s < 0) continue;
    const e = ends[i]!;
    for (let p = s; p < e; p++) {
      const b = buf[p]!;
      if (b === 10 || b === 13) continue;
      if (hex[b] === -1) return ascii;
      if (ascii[b] === -1) return hex;
    }
  }
  return ascii;
}

function decodeBoard(buf: Uint8Array, start: number, end: number, decode: Int8Array): { cells: Uint8Array; width: number; height: number } | undefined {
  const firstNl = buf.indexOf(10, start);
  let width = (firstNl < 0 || firstNl > end ? end : firstNl) - start;
  if (width > 0 && buf[start + width - 1] === 13) width--;
  if (width <= 0) return undefined;
  const cells = new Uint8Array(width * Math.ceil((end - start) / (width + 1)));
  let n = 0;
  let col = 0;
  for (let p = start; p < end; p++) {
    const b = buf[p]!;
    if (b === 10) {
      if (col !== width) return undefined;
      col = 0;
      continue;
    }
    if (b === 13) continue;
    const c = decode[b]!;
    if (c < 0 || col >= width) return undefined;
    cells[n++] = c;
    col++;
  }
  if (col !== 0 && col !== width) return undefined;
  const height = n / width;
  return { cells: cells.subarray(0, n), width, height };
}

function lastIndexOf(buf: Uint8Array, needle: Uint8Array, from: number, to: number): number {
  // Backwards from the board: animation frames between the marker and [settled] are skipped natively.
  const view = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  const at = view.lastIndexOf(needle, to - needle.length);
  return at >= from ? at : -1;
}
