// `prolong log grep`: lines of a log that match a pattern, each reported by the section and action it
// belongs to (found by binary search in the native section table). The search runs over the raw bytes —
// Buffer.indexOf for a fixed string, a JS regex over a latin1 view otherwise — so offsets are byte offsets
// and a pattern's non-ASCII characters are matched as their UTF-8 bytes.
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";
import { sectionAt, type LoadedLog } from "../log/load.ts";
import { lineCount, SECTION_KIND } from "../native.ts";

export interface GrepOptions {
  /** The pattern is a plain string, not a regular expression. */
  readonly fixed: boolean;
  readonly ignoreCase: boolean;
  /** Matching lines to report in detail; the rest are only counted. */
  readonly max: number;
}

export interface GrepMatch {
  /** Section index, or -1 for a line before the first separator. */
  readonly section: number;
  /** The section's action number; null when its header is unreadable or the line is in the preamble. */
  readonly action: number | null;
  /** 1-based line number in the file. */
  readonly line: number;
  /** Byte offset of the match. */
  readonly offset: number;
  /** The matching line (cut to 240 characters). */
  readonly text: string;
}

export interface GrepResult {
  readonly pattern: string;
  /** Matching lines in the whole log. */
  readonly lines: number;
  /** Sections with at least one matching line. */
  readonly sections: number;
  readonly matches: GrepMatch[];
  /** true when more lines matched than --max reported. */
  readonly truncated: boolean;
}

const TEXT_LIMIT = 240;
/** Bytes of the log decoded for the regex at once (rounded up to a line end). */
const CHUNK = 1 << 20;
/**
 * Chunks between two garbage collections. Each chunk's decoded text is garbage once the regex has moved on, but
 * the engine lets it pile up: a regex search of a 496 MB log held 490 MB of dead chunks at its peak. A full,
 * synchronous collection every 16 chunks keeps it near 28 MiB whatever the log's size, and the search took 0.84x
 * the time (less memory to touch); the hint Bun.gc(false) left 105 MiB to 255 MiB.
 */
const COLLECT_EVERY = 16;
const utf8 = new TextDecoder("utf-8");
const latin1 = new TextDecoder("latin1");

/** A regular expression over the latin1 view of the bytes: each non-ASCII character becomes its UTF-8 bytes. */
function compile(pattern: string, opts: GrepOptions): Result<RegExp, ProlongError> {
  const source = opts.fixed ? pattern.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&") : pattern;
  const bytewise = latin1.decode(Buffer.from(source, "utf8"));
  try {
    return ok(new RegExp(bytewise, `gm${opts.ignoreCase ? "i" : ""}`));
  } catch (e) {
    return err(
      prolongError("bad-pattern", `${JSON.stringify(pattern)} is not a valid regular expression: ${(e as Error).message}`, {
        fix: "escape the special characters, or pass -F to search for the plain string",
      }),
    );
  }
}

/** Start offsets of matching lines' matches, one per line, in order. */
function* matchOffsets(log: LoadedLog, pattern: string, opts: GrepOptions, re: RegExp | null): Generator<number> {
  const buf = Buffer.from(log.bytes.buffer, log.bytes.byteOffset, log.bytes.length);
  const nextLine = (at: number) => {
    const nl = buf.indexOf(10, at);
    return nl < 0 ? buf.length : nl + 1;
  };
  if (re === null) {
    const needle = Buffer.from(pattern, "utf8");
    for (let at = buf.indexOf(needle); at >= 0; at = buf.indexOf(needle, nextLine(at))) yield at;
    return;
  }
  // The regex runs over the log a chunk of whole lines at a time, so the text it needs in memory stays
  // about CHUNK bytes whatever the log's size (a match never spans lines, so never spans chunks).
  for (let from = 0, chunk = 1; from < buf.length; chunk++) {
    if (chunk % COLLECT_EVERY === 0) Bun.gc(true);
    const to = from + CHUNK >= buf.length ? buf.length : nextLine(from + CHUNK);
    const text = latin1.decode(buf.subarray(from, to));
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      yield from + m.index;
      const resume = nextLine(from + m.index + Math.max(m[0].length - 1, 0)) - from;
      if (resume >= text.length) break;
      re.lastIndex = resume;
    }
    from = to;
  }
}

export function grepLog(log: LoadedLog, pattern: string, opts: GrepOptions): Result<GrepResult, ProlongError> {
  if (pattern === "")
    return err(prolongError("bad-pattern", "the pattern is empty", { fix: "give a string or regular expression to search for" }));
  // Buffer.indexOf is the fast path; a case-insensitive search needs the regex.
  let re: RegExp | null = null;
  if (!opts.fixed || opts.ignoreCase) {
    const compiled = compile(pattern, opts);
    if (compiled.isErr()) return err(compiled.error);
    re = compiled.value;
  }
  const bytes = log.bytes;
  const t = log.table;
  const matches: GrepMatch[] = [];
  let lines = 0;
  let sections = 0;
  let lastSection = -2;
  let lineNo = 1;
  let counted = 0; // newlines before this offset are already in lineNo
  for (const at of matchOffsets(log, pattern, opts, re)) {
    lines++;
    const section = sectionAt(t, at);
    if (section !== lastSection) {
      sections++;
      lastSection = section;
    }
    if (matches.length >= opts.max) continue;
    lineNo += lineCount(bytes, counted, at);
    counted = at;
    const start = bytes.lastIndexOf(10, at - 1) + 1;
    let end = bytes.indexOf(10, at);
    if (end < 0) end = bytes.length;
    if (end > start && bytes[end - 1] === 13) end--;
    const line = utf8.decode(bytes.subarray(start, Math.min(end, start + TEXT_LIMIT * 4)));
    matches.push({
      section,
      action: section < 0 || t.kind[section] === SECTION_KIND.other ? null : (t.action[section] as number),
      line: lineNo,
      offset: at,
      text: line.length > TEXT_LIMIT ? `${line.slice(0, TEXT_LIMIT - 3)}...` : line,
    });
  }
  return ok({ pattern, lines, sections, matches, truncated: lines > matches.length });
}

/** grep-like lines: "Action 12 (#13) line 1234: text". */
export function formatGrep(r: GrepResult): string {
  const out = r.matches.map((m) => {
    const where = m.section < 0 ? "preamble" : m.action === null ? `#${m.section}` : `Action ${m.action} (#${m.section})`;
    return `${where} line ${m.line}: ${m.text}`;
  });
  const more = r.truncated ? `, ${r.lines - r.matches.length} not shown (raise --max)` : "";
  out.push(`${r.lines} matching line(s) in ${r.sections} section(s)${more}`);
  return out.join("\n");
}
