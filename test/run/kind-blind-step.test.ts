// The run and the readers of a log see a step only through its kind (game/kind.ts: the kind's report for the
// header and the tally, its section codec for the body and for what readers show): no file under src/run/,
// src/view/ or src/inspect/ opens a frame's screen, asks whether a frame or a section has one, or names a screen
// codec, so a new kind of observation needs a new kind, not a new branch in the turn loop or the page.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const SRC = join(import.meta.dir, "..", "..", "src");
const BLIND = ["run", "view", "inspect"];

/** The lines of a source file that are code, not comments (a line comment, or a line inside a block comment). */
function codeLines(text: string): { line: number; code: string }[] {
  return text
    .split("\n")
    .map((code, i) => ({ line: i + 1, code }))
    .filter(({ code }) => !/^\s*(\/\/|\/\*|\*)/.test(code));
}

/** Each code line of the blind folders that matches `pattern`, as "src/<folder>/<file>:<line>: <code>". */
function linesMatching(pattern: RegExp): string[] {
  const found: string[] = [];
  for (const folder of BLIND)
    for (const name of readdirSync(join(SRC, folder)).filter((n) => n.endsWith(".ts")))
      for (const { line, code } of codeLines(readFileSync(join(SRC, folder, name), "utf8")))
        if (pattern.test(code)) found.push(`src/${folder}/${name}:${line}: ${code.trim()}`);
  return found;
}

describe("the run and the log's readers are blind to what a step's body is", () => {
  test("no file under src/run/, src/view/ or src/inspect/ reads `.screen` (the kind's report and codec do)", () => {
    expect(linesMatching(/\.screen\b/)).toEqual([]);
  });

  test("none names a screen codec or a screen view: every kind's section is read by its one codec", () => {
    expect(linesMatching(/screenLog|screenView|ScreenSection|ScreenView/)).toEqual([]);
  });

  test("none writes or parses a grid section itself: every section goes through its kind's codec", () => {
    expect(linesMatching(/\b(writeSection|parseSection|sectionAppendText)\b/)).toEqual([]);
  });

  test("the check sees a read of `.screen` (a planted line is found)", () => {
    const planted = codeLines("// a comment: frame.screen\nconst s = frame.screen;\n");
    expect(planted.filter(({ code }) => /\.screen\b/.test(code)).map((l) => l.line)).toEqual([2]);
  });
});
