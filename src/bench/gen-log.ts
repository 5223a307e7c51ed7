// Synthetic logs in the paper's format, of any size, for benchmarks and differential tests of the scanners.
// Every section is written WITH writeSection (src/log/format.ts), so the format has one definition; this
// file only invents the content: random-walk boards that change a few cells per action, plan batches with
// "Plan Step i/K", level-ups and game-overs, and some sections with 2..65 animation frames.
//
// adversarial=true adds hostile agent text to the [PLAN] blocks: '=' lines of 79 and 81 characters, lines
// that read as structure (escaped by writeSection as it must), CR characters, multi-byte UTF-8 (including
// astral characters), very long lines — AND, in some sections, a line of exactly 80 '=' written RAW inside
// the plan, bypassing the escape. Such logs are deliberately hostile: that raw line IS a separator by the
// format's definition, so every scanner must split the section there (the second half has no header).
// parseLog stops at the first such split and names it as its cut. Never use them as examples of valid logs.
//
// CLI: bun src/bench/gen-log.ts --lines 320000 [--seed N] [--adversarial] -o FILE   (see --help)
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type { Action } from "../game-model.ts";
import { seededRandom } from "../random.ts";
import { SEPARATOR, writeSection, SECTION_JOIN, type GridMode, type LogSection, type SectionHeader } from "../log/format.ts";

export interface GenLogOptions {
  /** Stop once the log has at least this many lines. */
  lines?: number;
  /** Stop after this many sections (the initial one included). Default 100 when `lines` is not given. */
  sections?: number;
  /** Same seed, same options → same bytes. Default 1. */
  seed?: number;
  adversarial?: boolean;
  /** Write every line end as "\r\n". */
  crlf?: boolean;
  /** false: strip the newlines at the end of the file (the last board's last row has none). Default true. */
  finalNewline?: boolean;
  /** Some sections get 2..65 animation frames. Default true. */
  frames?: boolean;
  mode?: GridMode;
}

const SIDE = 64;
const CELLS = SIDE * SIDE;

type Rand = ReturnType<typeof seededRandom>;
const int = (r: Rand, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
function pick<T>(r: Rand, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)] as T;
}

/** A level's opening board: a background, a few rectangles, and a step bar on the bottom row. */
function newBoard(r: Rand): Uint8Array {
  const cells = new Uint8Array(CELLS).fill(int(r, 0, 15));
  for (let n = int(r, 3, 9); n > 0; n--) {
    const x0 = int(r, 0, SIDE - 8),
      y0 = int(r, 0, SIDE - 10),
      w = int(r, 2, 12),
      h = int(r, 2, 12),
      c = int(r, 0, 15);
    for (let y = y0; y < Math.min(SIDE - 1, y0 + h); y++) cells.fill(c, y * SIDE + x0, y * SIDE + Math.min(SIDE, x0 + w));
  }
  cells.fill(11, (SIDE - 1) * SIDE, CELLS);
  return cells;
}

/** One action's effect: a small blob moves a step, and the step bar loses a cell. */
function stepBoard(r: Rand, cells: Uint8Array, cursor: { x: number; y: number }, action: number): Uint8Array {
  const next = cells.slice();
  cursor.x = Math.max(0, Math.min(SIDE - 2, cursor.x + int(r, -2, 2)));
  cursor.y = Math.max(0, Math.min(SIDE - 3, cursor.y + int(r, -2, 2)));
  const c = int(r, 0, 15);
  for (let n = int(r, 1, 6); n > 0; n--) next[(cursor.y + int(r, 0, 1)) * SIDE + cursor.x + int(r, 0, 1)] = c;
  next[(SIDE - 1) * SIDE + (action % SIDE)] = 4;
  return next;
}

function grid(cells: Uint8Array) {
  return { width: SIDE, height: SIDE, cells };
}

function randomAction(r: Rand): Action {
  const id = pick(r, [1, 2, 3, 4, 5, 6, 6, 6, 7] as const);
  return id === 6 ? { id: 6, x: int(r, 0, SIDE - 1), y: int(r, 0, SIDE - 1) } : { id };
}

const WORDS = (
  "the block moves left when clicked and the bar at the bottom counts steps so each probe costs one " +
  "cell; wall at row twelve blocks upward motion; target bracket is yellow; hypothesis rotate ring twice then " +
  "press interact; score should rise to the next level if the colours match the signature tile"
).split(" ");
const HOSTILE_LINES = [
  "=".repeat(79),
  "=".repeat(81),
  `${SEPARATOR} `,
  ` ${SEPARATOR}`,
  "Tool Call: ACTION1({})",
  "[POST-ACTION BOARD STATE]",
  "[INITIAL BOARD STATE]",
  "[settled]",
  "[frame 1/2]",
  "[PLAN]",
  "  [PLAN]",
  "Action 7 | Level 1 | Attempt 1 | Score: 0",
  `${SEPARATOR}\r`,
  "line with a CR\rinside",
  "CRLF line\r",
  "× — → Δ ≡ −",
  "🧩 astral 𝔾 chars 日本語",
  "é".repeat(300),
  "=".repeat(4000),
  "",
];
/** A plan line of exactly 80 '='; writeSection escapes it, and hostile sections then un-escape it. */
const RAW_SEPARATOR_MARK = `\n ${SEPARATOR}\n`;

function sentence(r: Rand): string {
  const n = int(r, 6, 18);
  const words = Array.from({ length: n }, () => pick(r, WORDS));
  return `${words.join(" ")}.`;
}

function planText(r: Rand, briefing: boolean, adversarial: boolean): string {
  const lines: string[] = [];
  const paragraphs = briefing ? int(r, 2, 5) : 1;
  for (let p = 0; p < paragraphs; p++) {
    if (p > 0) lines.push("");
    lines.push(Array.from({ length: briefing ? int(r, 2, 6) : int(r, 2, 3) }, () => sentence(r)).join(" "));
  }
  if (adversarial) {
    for (let n = int(r, 1, 4); n > 0; n--) lines.splice(int(r, 0, lines.length), 0, pick(r, HOSTILE_LINES));
    if (r() < 0.05) lines.splice(int(r, 0, lines.length), 0, SEPARATOR);
  }
  return lines.join("\n");
}

function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

export function generateLog(opts: GenLogOptions = {}): string {
  const r = seededRandom(opts.seed ?? 1);
  const mode = opts.mode ?? "ascii";
  const maxSections = opts.sections ?? (opts.lines === undefined ? 100 : Number.POSITIVE_INFINITY);
  const maxLines = opts.lines ?? Number.POSITIVE_INFINITY;
  const withFrames = opts.frames ?? true;
  const adversarial = opts.adversarial ?? false;

  const parts: string[] = [];
  let lines = 0;
  let board = newBoard(r);
  const cursor = { x: 32, y: 32 };
  const header: SectionHeader = { action: 0, level: 1, attempt: 1, score: 0, kind: "initial" };
  let batch = { step: 0, total: 0, plan: "" };
  let resetNext = false;

  while (parts.length < maxSections && lines < maxLines) {
    const section: LogSection = { header: { ...header }, frames: [], board: grid(board) };
    if (header.kind === "action") {
      if (batch.step >= batch.total) {
        const loaded = r() >= 0.05; // now and then no plan is loaded: no "Plan Step", no [PLAN]
        batch = { step: 0, total: loaded ? int(r, 1, 20) : 0, plan: planText(r, false, adversarial) };
        if (loaded) section.plan = planText(r, true, adversarial);
      } else {
        section.plan = batch.plan;
      }
      batch.step++;
      if (batch.total > 0) section.header.planStep = { step: batch.step, total: batch.total };
      else batch.step = 0;
      section.toolCall = resetNext ? { id: 0 } : randomAction(r);
      resetNext = false;
      if (withFrames && r() < 0.03) {
        const k = r() < 0.2 ? int(r, 9, 65) : int(r, 2, 8);
        let f = board;
        for (let n = 1; n < k; n++) {
          section.frames.push(grid(f));
          f = stepBoard(r, f, cursor, header.action);
        }
        board = f;
      } else {
        board = stepBoard(r, board, cursor, header.action);
      }
      section.board = grid(board);
    }
    let text = writeSection(section, mode);
    // Half the plan lines of exactly 80 '=' stay escaped; the other half go in raw (hostile, see the top).
    if (adversarial && text.includes(RAW_SEPARATOR_MARK) && r() < 0.5)
      text = text.replace(RAW_SEPARATOR_MARK, `\n${SEPARATOR}\n`);
    // writeSection turns a "\r" in a plan into "␍"; logs of older writers hold it raw, and scanners must cope.
    // (Not after 80 '=', which would make a separator line the writer never lets through.)
    if (adversarial) text = text.replace(/(?<!={80})\u240d/g, "\r");
    if (parts.length > 0) text = SECTION_JOIN + text;
    parts.push(text);
    lines += countLines(text);

    // What happens next: level up, game over (the runner then sends RESET), or the next step of the batch.
    header.kind = "action";
    header.action++;
    const roll = r();
    if (roll < 0.02) {
      header.score++;
      header.level++;
      header.attempt = 1;
      batch.step = batch.total;
      board = newBoard(r);
    } else if (roll < 0.025) {
      header.attempt++;
      batch.step = batch.total;
      resetNext = true;
    }
  }

  let log = parts.join("");
  if (opts.crlf) log = log.replaceAll("\n", "\r\n");
  if (opts.finalNewline === false) log = log.replace(/(?:\r?\n)+$/, "");
  return log;
}

const USAGE = `usage: bun src/bench/gen-log.ts [--lines N | --sections N] [options] [-o FILE]

Writes a synthetic prolong log (the paper's format, built with src/log/format.ts) to FILE or stdout.

  --lines N            stop once the log has at least N lines (320000 ≈ 20 MB, the benchmark size)
  --sections N         stop after N sections (default 100 when --lines is not given)
  --seed N             random seed (default 1); same seed and options give the same bytes
  --adversarial        hostile [PLAN] text: '=' lines of 79/81, raw 80-'=' lines, CR, UTF-8 (see the file's top)
  --crlf               "\\r\\n" line ends
  --no-final-newline   strip the newlines at the end of the file
  --no-frames          no animation frames
  --mode ascii|hex     grid encoding (default ascii)
  -o, --output FILE    where to write (default stdout)
  -h, --help           this text`;

function main(argv: string[]): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        lines: { type: "string" },
        sections: { type: "string" },
        seed: { type: "string" },
        adversarial: { type: "boolean" },
        crlf: { type: "boolean" },
        "no-final-newline": { type: "boolean" },
        "no-frames": { type: "boolean" },
        mode: { type: "string" },
        output: { type: "string", short: "o" },
        help: { type: "boolean", short: "h" },
      },
    }).values;
  } catch (e) {
    console.error(`gen-log: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.help) {
    console.log(USAGE);
    return 0;
  }
  const num = (name: string, s: string | undefined): number | undefined | Error => {
    if (s === undefined) return undefined;
    const n = Number(s);
    return Number.isInteger(n) && n >= 0 ? n : new Error(`--${name} needs a whole number >= 0, got ${JSON.stringify(s)}`);
  };
  const lines = num("lines", parsed.lines),
    sections = num("sections", parsed.sections),
    seed = num("seed", parsed.seed);
  for (const x of [lines, sections, seed]) {
    if (x instanceof Error) {
      console.error(`gen-log: ${x.message}`);
      return 2;
    }
  }
  if (parsed.mode !== undefined && parsed.mode !== "ascii" && parsed.mode !== "hex") {
    console.error(`gen-log: --mode must be ascii or hex, got ${JSON.stringify(parsed.mode)}`);
    return 2;
  }
  const opts: GenLogOptions = {
    adversarial: parsed.adversarial ?? false,
    crlf: parsed.crlf ?? false,
    finalNewline: !parsed["no-final-newline"],
    frames: !parsed["no-frames"],
    mode: (parsed.mode as GridMode | undefined) ?? "ascii",
  };
  if (typeof lines === "number") opts.lines = lines;
  if (typeof sections === "number") opts.sections = sections;
  if (typeof seed === "number") opts.seed = seed;
  const log = generateLog(opts);
  if (parsed.output) {
    writeFileSync(parsed.output, log);
    console.error(`gen-log: wrote ${Buffer.byteLength(log)} bytes, ${countLines(log)} lines to ${parsed.output}`);
  } else {
    process.stdout.write(log);
  }
  return 0;
}

if (import.meta.main) process.exit(main(process.argv.slice(2)));
