import { describe, expect, test } from "bun:test";
import { grepLog, formatGrep } from "../../src/inspect/grep.ts";
import { parseHeader, SEPARATOR } from "../../src/log/format.ts";
import { generateLog } from "../../src/bench/gen-log.ts";
import { loaded } from "./helpers.ts";

/** The slow, obvious twin: split into lines, test each, track the current section's action. */
function naiveGrep(text: string, test: (line: string) => boolean) {
  const out: Array<{ line: number; action: number | null; text: string }> = [];
  let action: number | null = null;
  let afterSeparator = false;
  text.split("\n").forEach((raw, k) => {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (afterSeparator) action = parseHeader(line)?.action ?? null;
    afterSeparator = line === SEPARATOR;
    if (test(line)) out.push({ line: k + 1, action, text: line });
  });
  return out;
}

describe("grepLog", () => {
  // Adversarial plans: multi-byte UTF-8, CR characters, 79/81-'=' lines, lines that read as structure.
  const text = generateLog({ sections: 80, seed: 11, adversarial: true });
  const log = loaded(text);

  test("a regex: every matching line, with its line number and action, as the naive twin finds them", () => {
    const r = grepLog(log, "Tool Call: ACTION[36]", { fixed: false, ignoreCase: false, max: 10_000 })._unsafeUnwrap();
    const want = naiveGrep(text, (l) => /Tool Call: ACTION[36]/.test(l));
    expect(want.length).toBeGreaterThan(5);
    expect(r.matches.map((m) => [m.line, m.action, m.text])).toEqual(want.map((w) => [w.line, w.action, w.text]));
    expect(r.lines).toBe(want.length);
    expect(r.truncated).toBe(false);
  });

  test("a fixed string with multi-byte characters matches its UTF-8 bytes; offsets are byte offsets", () => {
    const needle = "é";
    const want = naiveGrep(text, (l) => l.includes(needle));
    expect(want.length).toBeGreaterThan(0);
    for (const fixed of [true, false]) {
      const r = grepLog(log, needle, { fixed, ignoreCase: false, max: 10_000 })._unsafeUnwrap();
      expect(r.matches.map((m) => m.line)).toEqual(want.map((w) => w.line));
      const m = r.matches[0]!;
      expect(Buffer.from(log.bytes.subarray(m.offset, m.offset + 2)).toString("utf8")).toBe(needle);
    }
  });

  test("-i, and --max reports the first N while counting all", () => {
    const want = naiveGrep(text, (l) => /level/i.test(l));
    const r = grepLog(log, "LEVEL", { fixed: true, ignoreCase: true, max: 3 })._unsafeUnwrap();
    expect(r.lines).toBe(want.length);
    expect(r.matches.map((m) => m.line)).toEqual(want.slice(0, 3).map((w) => w.line));
    expect(r.truncated).toBe(true);
    expect(formatGrep(r)).toContain(`${want.length - 3} not shown`);
  });

  test("one report per line even when a line matches many times; ^ anchors at line starts", () => {
    const r = grepLog(log, "^Action \\d+ \\|", { fixed: false, ignoreCase: false, max: 10_000 })._unsafeUnwrap();
    expect(r.lines).toBe(naiveGrep(text, (l) => /^Action \d+ \|/.test(l)).length);
    const many = grepLog(log, "O", { fixed: true, ignoreCase: false, max: 10_000 })._unsafeUnwrap();
    expect(many.lines).toBe(naiveGrep(text, (l) => l.includes("O")).length);
  });

  test("an invalid regex and an empty pattern are errors with a fix", () => {
    const bad = grepLog(log, "(", { fixed: false, ignoreCase: false, max: 10 });
    expect(bad._unsafeUnwrapErr().code).toBe("bad-pattern");
    expect(bad._unsafeUnwrapErr().fix).toContain("-F");
    expect(grepLog(log, "", { fixed: true, ignoreCase: false, max: 10 }).isErr()).toBe(true);
  });

  test("no match: zero lines", () => {
    const r = grepLog(log, "no such text anywhere", { fixed: true, ignoreCase: false, max: 10 })._unsafeUnwrap();
    expect([r.lines, r.sections, r.matches.length]).toEqual([0, 0, 0]);
  });
});
