// The obviously-correct twin of native sectionIndex: split into lines, then read them one by one.
// Slow on purpose; it exists to be compared against (see CONTRACT in src/native.ts).
import type { SectionTable } from "../../src/native.ts";

const MARKERS = new Set(["[settled]", "[POST-ACTION BOARD STATE]", "[INITIAL BOARD STATE]", "[CURRENT BOARD STATE]"]);
const SEPARATOR = "=".repeat(80);
const INT_MAX = 2 ** 31 - 1;

interface Line {
  start: number;
  /** Offset just past the line's '\n' (or the buffer end when it has none). */
  next: number;
  /** The bytes before '\n', as latin1 text (one char per byte). */
  raw: string;
  hasNewline: boolean;
}

function lines(buf: Uint8Array): Line[] {
  const text = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString("latin1");
  const out: Line[] = [];
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf("\n", start);
    const stop = nl === -1 ? text.length : nl;
    out.push({ start, next: nl === -1 ? text.length : nl + 1, raw: text.slice(start, stop), hasNewline: nl !== -1 });
    start = stop + 1;
  }
  return out;
}

const stripCR = (s: string) => (s.endsWith("\r") ? s.slice(0, -1) : s);

function isSeparator(l: Line): boolean {
  return l.raw === SEPARATOR || (l.hasNewline && l.raw === SEPARATOR + "\r");
}

function field(s: string | undefined): number | null {
  if (s === undefined) return null;
  const v = Number(s);
  return v <= INT_MAX ? v : null;
}

interface Header {
  kind: number;
  action: number;
  level: number;
  attempt: number;
  planStep: number;
  planTotal: number;
  score: number;
}

const OTHER: Header = { kind: 2, action: -1, level: -1, attempt: -1, planStep: -1, planTotal: -1, score: -1 };

export function parseHeaderOracle(line: string): Header {
  const m =
    /^Action (\d+) \| Level (\d+) \| Attempt (\d+) \| (?:(INITIAL STATE) \| |Plan Step (\d+)\/(\d+) \| )?(?:XL (\d+) \| HP (\d+)\((\d+)\) \| Turn (\d+) \| )?Score: (\d+)$/.exec(
      line,
    );
  if (!m) return OTHER;
  const [action, level, attempt, score] = [field(m[1]), field(m[2]), field(m[3]), field(m[11])];
  if (action === null || level === null || attempt === null || score === null) return OTHER;
  if (m[7] !== undefined && [m[7], m[8], m[9], m[10]].some((v) => field(v) === null)) return OTHER;
  if (m[4] !== undefined) return { kind: 0, action, level, attempt, planStep: -1, planTotal: -1, score };
  if (m[5] === undefined) return { kind: 1, action, level, attempt, planStep: -1, planTotal: -1, score };
  const [planStep, planTotal] = [field(m[5]), field(m[6])];
  if (planStep === null || planTotal === null) return OTHER;
  return { kind: 1, action, level, attempt, planStep, planTotal, score };
}

export function sectionIndexOracle(buf: Uint8Array): SectionTable {
  const all = lines(buf);
  const seps = all.map((l, i) => (isSeparator(l) ? i : -1)).filter((i) => i >= 0);
  const rows: Array<
    Header & { start: number; end: number; frames: number; boardStart: number; boardEnd: number; complete: number }
  > = [];
  seps.forEach((sepLine, k) => {
    const nextSep = seps[k + 1];
    const body = all.slice(sepLine + 1, nextSep ?? all.length);
    const start = all[sepLine]!.start;
    const end = nextSep === undefined ? buf.length : all[nextSep]!.start;
    const header = body[0] ? parseHeaderOracle(stripCR(body[0].raw)) : OTHER;
    // A header that parses and names XL, HP and Turn is a terminal game's (its screen is not square).
    const terminal = header.kind !== 2 && / \| XL \d+ \| HP \d+\(\d+\) \| Turn \d+ \| Score: /.test(stripCR(body[0]!.raw));
    const frames = body.filter((l) => l.raw.startsWith("[frame ")).length + 1;
    let lastMarker = -1;
    body.forEach((l, i) => {
      if (MARKERS.has(stripCR(l.raw))) lastMarker = i;
    });
    let boardStart = -1;
    let boardEnd = -1;
    let complete = 0;
    if (lastMarker >= 0) {
      const board: Line[] = [];
      for (const l of body.slice(lastMarker + 1)) {
        const s = stripCR(l.raw);
        if (s === "" || s.startsWith("[frame ")) break;
        board.push(l);
      }
      if (board.length > 0) {
        boardStart = board[0]!.start;
        boardEnd = board[board.length - 1]!.next;
        const after = body[lastMarker + 1 + board.length];
        const blankAfter = terminal && after !== undefined && stripCR(after.raw) === "" && after.start < end;
        complete = board.length === stripCR(board[0]!.raw).length || blankAfter ? 1 : 0;
      }
    }
    rows.push({ ...header, start, end, frames, boardStart, boardEnd, complete });
  });
  const col = <T>(f: (r: (typeof rows)[number]) => number, make: (xs: number[]) => T) => make(rows.map(f));
  return {
    count: rows.length,
    preambleEnd: rows[0]?.start ?? buf.length,
    lines: all.length,
    start: col(
      (r) => r.start,
      (x) => new Float64Array(x),
    ),
    end: col(
      (r) => r.end,
      (x) => new Float64Array(x),
    ),
    kind: col(
      (r) => r.kind,
      (x) => new Uint8Array(x),
    ),
    action: col(
      (r) => r.action,
      (x) => new Int32Array(x),
    ),
    level: col(
      (r) => r.level,
      (x) => new Int32Array(x),
    ),
    attempt: col(
      (r) => r.attempt,
      (x) => new Int32Array(x),
    ),
    planStep: col(
      (r) => r.planStep,
      (x) => new Int32Array(x),
    ),
    planTotal: col(
      (r) => r.planTotal,
      (x) => new Int32Array(x),
    ),
    score: col(
      (r) => r.score,
      (x) => new Int32Array(x),
    ),
    frames: col(
      (r) => r.frames,
      (x) => new Int32Array(x),
    ),
    boardStart: col(
      (r) => r.boardStart,
      (x) => new Float64Array(x),
    ),
    boardEnd: col(
      (r) => r.boardEnd,
      (x) => new Float64Array(x),
    ),
    complete: col(
      (r) => r.complete,
      (x) => new Uint8Array(x),
    ),
  };
}
