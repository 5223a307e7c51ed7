// THE one window routine: what part of the master log an agent sees under each memory arm (--log-window;
// the window itself is setting/log-window.ts).
// Windows are built from the master's own bytes (verbatim ranges), except the newest-section arm of a grid
// log, which rewrites one section through format.ts without its animation frames. A terminal game's log may
// write some state only when it changes (NetHack's inventory): every window of it keeps the newest section
// that wrote that state, so a windowed arm never shows the agent less of the game than the game shows.
import { err, ok, type Result } from "neverthrow";
import type { LogWindow } from "../setting/log-window.ts";
import { prolongError, type ProlongError } from "../errors.ts";
import { SECTION_KIND, sectionIndex, sectionKindName, type SectionKindName, type SectionTable } from "../native.ts";
import { parseSection, SECTION_JOIN, writeSection, type GridMode } from "./format.ts";
import type { AppendRange, ByteSource } from "./master.ts";

/** One section of the master as the harness recorded it. */
export interface SectionSpan {
  readonly ordinal: number;
  readonly start: number;
  readonly end: number;
  readonly kind: SectionKindName;
}

/** What a window needs to know about the sections; the run index and a native SectionTable both provide it. */
export interface SectionLookup {
  count(): number;
  first(): SectionSpan | undefined;
  last(): SectionSpan | undefined;
  /** n = 1 is the newest action section. */
  nthLastAction(n: number): SectionSpan | undefined;
  /** The section whose bytes hold `offset` (the join before a section belongs to none). */
  containing(offset: number): Result<SectionSpan | undefined, ProlongError>;
}

/**
 * State a terminal game's log writes only when it changes (NetHack's inventory). A window that left out the
 * section that last wrote it would show the agent less than the game does, and the arm would measure
 * observation as well as memory.
 */
export interface CarriedState {
  /** The line that opens the state's block in a section ("[INVENTORY]"): candidates are found by it. */
  readonly marker: string;
  /** What it is, as the agent's prompts name it ("your `[INVENTORY]`"). */
  readonly label: string;
  /** Whether a section's text really holds the block (an agent's plan may quote the marker). */
  holds(sectionText: string): boolean;
}

/** How a kind's log is windowed (every kind's section codec says it; game/kind.ts). */
export interface SectionWindowing {
  /** What its sections write only when it changes, kept by every window (a terminal game's inventory). */
  readonly carried?: CarriedState;
  /**
   * Whether its sections hold animation frames, which the newest-section arm leaves out (a grid game's, rewritten
   * through format.ts); a log without them shows its newest section as logged.
   */
  readonly animated: boolean;
}

/** A grid game's windowing: animated sections, nothing carried. The default of a log read with no kind at hand. */
export const GRID_WINDOWING: SectionWindowing = { animated: true };

/**
 * A lookup over a native section table (a log read from disk, no index at hand). Native ranges run to the
 * next separator; the join "\n" before it is left out so spans match the run index's (see SectionRow).
 */
export function tableLookup(t: SectionTable): SectionLookup {
  const span = (i: number): SectionSpan | undefined => {
    if (i < 0 || i >= t.count) return undefined;
    const end = i < t.count - 1 ? (t.end[i] as number) - SECTION_JOIN.length : (t.end[i] as number);
    return { ordinal: i, start: t.start[i] as number, end, kind: sectionKindName(t.kind[i] as number) };
  };
  return {
    count: () => t.count,
    first: () => span(0),
    last: () => span(t.count - 1),
    nthLastAction(n) {
      let seen = 0;
      for (let i = t.count - 1; i >= 0; i--) if (t.kind[i] === SECTION_KIND.action && ++seen === n) return span(i);
      return undefined;
    },
    containing(offset) {
      // The sections' starts ascend: the last one at or before the offset, if the offset is inside it.
      let lo = 0;
      let hi = t.count - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if ((t.start[mid] as number) <= offset) lo = mid;
        else hi = mid - 1;
      }
      const s = span(lo);
      return ok(s && s.start <= offset && offset < s.end ? s : undefined);
    },
  };
}

/**
 * The master byte ranges a verbatim window is made of, in order. The full log is [0, end of last section);
 * a last-N window is the preamble and first section, then everything from the join before the N-th newest
 * action section on — so the window reads like a log written with the sections in between left out. When
 * the two ranges touch, the result is the full log.
 */
export function windowRanges(sections: SectionLookup, w: { kind: "full" } | { kind: "last"; sections: number }): AppendRange[] {
  const last = sections.last();
  if (!last) return [];
  const whole = [{ start: 0, end: last.end }];
  if (w.kind === "full") return whole;
  const first = sections.first();
  const nth = sections.nthLastAction(w.sections);
  const from = nth ? nth.start - SECTION_JOIN.length : 0;
  if (!first || !nth || from <= first.end) return whole;
  return [
    { start: 0, end: first.end },
    { start: from, end: last.end },
  ];
}

/**
 * The ranges of a verbatim window: `windowRanges`, with the newest section that holds the carried state (if the
 * log's kind carries one) put back where it stands when the window left it out (the window still reads like a
 * log written with the sections in between left out). The newest-section arm is that section, then the newest.
 */
export function carriedWindowRanges(
  src: ByteSource,
  sections: SectionLookup,
  w: { kind: "full" } | { kind: "last"; sections: number } | { kind: "newest" },
  carried: CarriedState | undefined,
): Result<AppendRange[], ProlongError> {
  const last = sections.last();
  if (!last) return ok([]);
  const ranges: AppendRange[] = w.kind === "newest" ? [{ start: last.start, end: last.end }] : windowRanges(sections, w);
  const shown = ranges[ranges.length - 1];
  // A window that starts at the top of the log holds every section before its last range.
  if (!carried || !shown || (ranges.length === 1 && shown.start === 0)) return ok(ranges);
  const below = ranges.length > 1 ? (ranges[0] as AppendRange).end : 0;
  return newestHolding(src, sections, carried, below, last.end).map((held) => {
    if (!held || held.end > shown.start) return ranges; // in the window already, or nothing holds it
    const join = held.start >= SECTION_JOIN.length && below > 0 ? SECTION_JOIN.length : 0;
    const put = { start: held.start - join, end: held.end };
    // The newest-section arm has no join before its one section: the held one is followed by one.
    return w.kind === "newest" ? [put, { start: last.start - SECTION_JOIN.length, end: last.end }] : [ranges[0]!, put, shown];
  });
}

/** Bytes searched per read when looking back for the carried state (the master is read, not mapped, past 0). */
const SEARCH_CHUNK = 1 << 20;

/**
 * The newest section in master[from, to) that holds the carried state: its marker line found by a byte
 * search backwards, each hit checked by the kind on its whole section. Linear in the bytes after the
 * section found, so a state that changes often is found at once; one that never changes costs a search
 * of the log (about a millisecond per few MB).
 */
function newestHolding(
  src: ByteSource,
  sections: SectionLookup,
  carried: CarriedState,
  from: number,
  to: number,
): Result<SectionSpan | undefined, ProlongError> {
  const marker = Buffer.from(`\n${carried.marker}\n`);
  let end = to;
  while (end - from >= marker.length) {
    const start = Math.max(from, end - SEARCH_CHUNK);
    const read = src.read(start, end);
    if (read.isErr()) return err(read.error);
    const chunk = Buffer.from(read.value.buffer, read.value.byteOffset, read.value.length);
    for (let at = chunk.lastIndexOf(marker); at !== -1; at = at > 0 ? chunk.lastIndexOf(marker, at - 1) : -1) {
      const found = sections.containing(start + at + 1);
      if (found.isErr()) return err(found.error);
      const span = found.value;
      if (!span || span.end > to) continue;
      const text = src.read(span.start, span.end);
      if (text.isErr()) return err(text.error);
      if (carried.holds(new TextDecoder().decode(text.value))) return ok(span);
    }
    if (start === from) break;
    end = start + marker.length - 1; // a marker across the chunk's edge is found in the next read
  }
  return ok(undefined);
}

/**
 * The bytes of the agent's copy under a window, or null for the no-log arm. `mode` is the log's grid mode
 * (the newest-section arm of an animated log writes its section back through format.ts); `windowing` is the
 * log's kind's (a grid game's when not given).
 */
export function renderWindow(
  src: ByteSource,
  sections: SectionLookup,
  w: LogWindow,
  mode: GridMode,
  windowing: SectionWindowing = GRID_WINDOWING,
): Result<Uint8Array | null, ProlongError> {
  if (w.kind === "none") return ok(null);
  if (w.kind === "newest" && windowing.animated) {
    const last = sections.last();
    if (!last) return ok(new Uint8Array(0));
    return src.read(last.start, last.end).andThen((bytes) => {
      if (last.kind === "other") return ok(bytes);
      return stripFrames(new TextDecoder().decode(bytes), mode).map((text) => new TextEncoder().encode(text));
    });
  }
  return carriedWindowRanges(src, sections, w, windowing.carried).andThen((ranges) => readRanges(src, ranges));
}

/** One section rewritten as a one-frame section: the [frame ..] grids and the [settled] marker go, the settled board stays. */
export function stripFrames(sectionText: string, mode: GridMode): Result<string, ProlongError> {
  return parseSection(sectionText)
    .map((s) => (s.frames.length === 0 ? sectionText : writeSection({ ...s, frames: [] }, mode)))
    .mapErr((e) => ({ ...e, message: `cannot strip the newest section's frames: ${e.message}` }));
}

/** Convenience for a whole log in memory (tests, inspection): indexes it and renders the window. */
export function windowOfLog(
  log: Uint8Array,
  w: LogWindow,
  mode: GridMode,
  windowing?: SectionWindowing,
): Result<Uint8Array | null, ProlongError> {
  return renderWindow(bytesSource(log), tableLookup(sectionIndex(log)), w, mode, windowing);
}

/**
 * The no-log arm's board, as the published harness's current_board.txt has it:
 * `Score: S\nAction: N\n\n[CURRENT BOARD STATE]\n<grid>` (grid rows as logged, no final newline).
 * Taken from the newest section that has a header and a board.
 */
export function currentBoardText(master: ByteSource, sections?: SectionLookup): Result<string, ProlongError> {
  const lookup = sections ? ok(sections) : tableOf(master);
  if (lookup.isErr()) return err(lookup.error);
  const last = lookup.value.last();
  if (!last)
    return err(
      prolongError("empty-log", "the master log has no section yet, so there is no current board", {
        fix: "append the INITIAL STATE section before the first agent call",
      }),
    );
  return master.read(last.start, last.end).andThen((bytes) => {
    const t = sectionIndex(bytes);
    const i = t.count - 1;
    const boardStart = t.boardStart[i] ?? -1;
    const boardEnd = t.boardEnd[i] ?? -1;
    if (i < 0 || t.kind[i] === SECTION_KIND.other || boardStart < 0) {
      return err(
        prolongError("no-board", `the newest section (bytes ${last.start}..${last.end}) has no header and board to show`, {
          fix: "the runner must end every turn on an action or INITIAL STATE section",
        }),
      );
    }
    const grid = new TextDecoder().decode(bytes.subarray(boardStart, boardEnd)).replace(/\r?\n$/, "");
    return ok(`Score: ${t.score[i]}\nAction: ${t.action[i]}\n\n[CURRENT BOARD STATE]\n${grid}`);
  });
}

function tableOf(src: ByteSource): Result<SectionLookup, ProlongError> {
  return src.read(0, src.size).map((all) => tableLookup(sectionIndex(all)));
}

/** A ByteSource over bytes in memory. */
export function bytesSource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.length,
    read(start, end) {
      if (!(0 <= start && start <= end && end <= bytes.length))
        throw new RangeError(`read(${start}, ${end}) outside [0, ${bytes.length}]`);
      return ok(bytes.subarray(start, end));
    },
  };
}

function readRanges(src: ByteSource, ranges: readonly AppendRange[]): Result<Uint8Array, ProlongError> {
  const total = ranges.reduce((n, r) => n + r.end - r.start, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const r of ranges) {
    const got = src.read(r.start, r.end);
    if (got.isErr()) return err(got.error);
    out.set(got.value, at);
    at += got.value.length;
  }
  return ok(out);
}
