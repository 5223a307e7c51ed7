// Reads the agent's copy of the log back into what the explorer needs per section: header fields, the
// action taken and the settled board's cells. The native section index finds sections and board ranges
// without scanning text in JS; format.ts parses the one line per section that the index does not (Tool Call).
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../../errors.ts";
import type { Action } from "../../game-model.ts";
import { parseToolCall } from "../../log/format.ts";
import { CELL_DECODE } from "../../log/grid-text.ts";
import { sectionIndex, sectionKindName, type SectionKindName } from "../../native.ts";

/** Not log/section-summary.ts's SectionSummary: the agent's hot path, plain numbers (-1 unreadable), a board view. */
export interface LoggedStep {
  /** Section ordinal in the file (0 = first section present, which is not always the INITIAL one). */
  readonly section: number;
  /** Byte offset of the section's separator in the buffer read. */
  readonly start: number;
  readonly kind: SectionKindName;
  /** The header's "Action N" (-1 for an unparsed header). */
  readonly actionNumber: number;
  readonly level: number;
  readonly attempt: number;
  /** Levels completed after this section's action: the level the board below belongs to is score + 1. */
  readonly score: number;
  /** The section's Tool Call, when it has a readable one. */
  readonly action?: Action;
  /** The settled board, when the section holds a complete one. */
  readonly board?: LoggedBoard;
  /**
   * Cells (row-major indices, ascending) where some animation frame of the section differed from its
   * settled board: something happened in between even when the board settled back to where it was.
   */
  readonly between?: Int32Array;
}

/**
 * A settled board as it sits in the log: a zero-copy view of its text (hashing needs nothing more), decoded
 * to colours only when asked. Decoding every board of a 100K-line log would cost more than everything else.
 */
export class LoggedBoard {
  private decoded: Uint8Array | undefined;

  constructor(
    /** The rows' bytes, `stride` bytes apart (the row plus its "\n" or "\r\n"). */
    readonly text: Uint8Array,
    readonly width: number,
    readonly height: number,
    readonly stride: number,
    private readonly table: Int8Array,
  ) {}

  /** Colour indices, row-major. */
  get cells(): Uint8Array {
    if (this.decoded) return this.decoded;
    const cells = new Uint8Array(this.width * this.height);
    for (let y = 0; y < this.height; y++) {
      const row = y * this.stride;
      for (let x = 0; x < this.width; x++) cells[y * this.width + x] = Math.max(0, this.table[this.text[row + x]!]!);
    }
    return (this.decoded = cells);
  }

  colourAt(x: number, y: number): number {
    return Math.max(0, this.table[this.text[y * this.stride + x]!]!);
  }
}

export interface LoggedRun {
  readonly steps: LoggedStep[];
  readonly width: number;
  readonly height: number;
  /** Byte → colour table the boards were decoded with (ascii palette or hex digits). */
  readonly decoder: Int8Array;
}

/** What an earlier read of the same log settled, so that a read of its continuation decodes alike. */
export interface ReadContext {
  readonly decoder: Int8Array;
  readonly width: number;
  readonly height: number;
}

const TOOL_CALL = new TextEncoder().encode("\nTool Call: ");

/** Indexes and decodes a log held in memory. `path` only names the file in errors. */
export function readLog(buf: Uint8Array, path: string, context?: ReadContext): Result<LoggedRun, ProlongError> {
  const table = sectionIndex(buf);
  const decode = context?.decoder ?? chooseDecoder(buf, table.boardStart, table.boardEnd, table.count);
  const steps: LoggedStep[] = [];
  let width = context?.width ?? 0;
  let height = context?.height ?? 0;
  const text = new TextDecoder();
  for (let i = 0; i < table.count; i++) {
    const kindCode = table.kind[i]!;
    const kind = sectionKindName(kindCode);
    const start = table.start[i]!;
    const boardStart = table.boardStart[i]!;
    const boardEnd = table.boardEnd[i]!;
    let board: LoggedBoard | undefined;
    if (table.complete[i] === 1 && boardStart >= 0) {
      const b = viewBoard(buf, boardStart, boardEnd, decode);
      if (b !== undefined) {
        if (width === 0) {
          width = b.width;
          height = b.height;
        }
        if (b.width === width && b.height === height) board = b;
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
    const between = board !== undefined && table.frames[i]! > 1 ? framesApart(buf, start, boardStart, board, decode) : undefined;
    steps.push({
      section: i,
      start,
      kind,
      actionNumber: table.action[i]!,
      level: table.level[i]!,
      attempt: table.attempt[i]!,
      score: table.score[i]!,
      ...(action ? { action } : {}),
      ...(board ? { board } : {}),
      ...(between !== undefined && between.length > 0 ? { between } : {}),
    });
  }
  if (steps.length > 0 && width === 0) {
    return err(
      prolongError("explorer-no-board", "the log has sections but no complete board to read", {
        path,
        fix: "check that the log is a prolong log (64x64 boards after [POST-ACTION BOARD STATE])",
      }),
    );
  }
  return ok({ steps, width, height, decoder: decode });
}

/** Decodes a board given as text (the prompt's [CURRENT BOARD STATE] block, or a test's grid). */
export function decodeBoardText(textBoard: string): LoggedBoard | undefined {
  const buf = new TextEncoder().encode(textBoard.trim() + "\n");
  const decode = chooseDecoder(buf, new Float64Array([0]), new Float64Array([buf.length]), 1);
  return viewBoard(buf, 0, buf.length, decode);
}

// The ascii palette and hex mode share two characters ('8' and 'f'), so the mode is decided once per log:
// ascii when any board character is outside the hex digits, hex when a hex-only digit appears.
function chooseDecoder(buf: Uint8Array, starts: Float64Array, ends: Float64Array, count: number): Int8Array {
  const { ascii, hex } = CELL_DECODE;
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

/** A view of the board rows in buf[start, end), or undefined when the rows are not all `width` long. */
function viewBoard(buf: Uint8Array, start: number, end: number, table: Int8Array): LoggedBoard | undefined {
  const firstNl = buf.indexOf(10, start);
  if (firstNl < 0 || firstNl >= end) return undefined;
  const crlf = firstNl > start && buf[firstNl - 1] === 13;
  const width = firstNl - start - (crlf ? 1 : 0);
  const stride = width + (crlf ? 2 : 1);
  if (width <= 0) return undefined;
  const height = Math.floor((end - start) / stride);
  if (height <= 0) return undefined;
  // Checking each row's line end is enough: the native index already bounded the board's lines.
  for (let y = 0; y < height; y++) if (buf[start + y * stride + stride - 1] !== 10) return undefined;
  return new LoggedBoard(buf.subarray(start, start + height * stride), width, height, stride, table);
}

const FRAME = new TextEncoder().encode("\n[frame ");

/**
 * The cells where a frame between buf[from, to) (each a "[frame i/n]" line and the board's rows) differs from
 * the settled board, as ascending row-major indices. A frame not of the settled board's shape is skipped.
 */
function framesApart(buf: Uint8Array, from: number, to: number, board: LoggedBoard, table: Int8Array): Int32Array {
  const { width, height } = board;
  const settled = board.cells;
  const apart = new Uint8Array(width * height);
  const view = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  let count = 0;
  for (let at = view.indexOf(FRAME, from); at >= 0 && at < to; at = view.indexOf(FRAME, at + FRAME.length)) {
    const rows = buf.indexOf(10, at + 1) + 1;
    if (rows <= 0 || rows >= to) break;
    const firstNl = buf.indexOf(10, rows);
    if (firstNl < 0) break;
    const crlf = firstNl > rows && buf[firstNl - 1] === 13;
    if (firstNl - rows - (crlf ? 1 : 0) !== width) continue;
    const stride = width + (crlf ? 2 : 1);
    if (rows + height * stride > to) continue;
    let whole = true;
    for (let y = 0; y < height && whole; y++) whole = buf[rows + y * stride + stride - 1] === 10;
    if (!whole) continue;
    for (let y = 0; y < height; y++) {
      const row = rows + y * stride;
      for (let x = 0; x < width; x++) {
        const i = y * width + x;
        if (apart[i] === 0 && Math.max(0, table[buf[row + x]!]!) !== settled[i]) {
          apart[i] = 1;
          count++;
        }
      }
    }
  }
  const out = new Int32Array(count);
  for (let i = 0, n = 0; n < count; i++) if (apart[i] === 1) out[n++] = i;
  return out;
}

function lastIndexOf(buf: Uint8Array, needle: Uint8Array, from: number, to: number): number {
  // Backwards from the board: animation frames between the marker and [settled] are skipped natively.
  const view = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  const at = view.lastIndexOf(needle, to - needle.length);
  return at >= from ? at : -1;
}
