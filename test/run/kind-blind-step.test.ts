// The run reads a step through its kind only (game/kind.ts: the kind's report for the header and the tally, its
// section codec for the body): no file under src/run/ opens a frame's screen or asks whether a frame has one,
// so a new kind of observation needs a new kind, not a new branch in the turn loop.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const RUN = join(import.meta.dir, "..", "..", "src", "run");

/** The lines of a source file that are code, not comments (a line comment, or a line inside a block comment). */
function codeLines(text: string): { line: number; code: string }[] {
  return text
    .split("\n")
    .map((code, i) => ({ line: i + 1, code }))
    .filter(({ code }) => !/^\s*(\/\/|\/\*|\*)/.test(code));
}

describe("the run is blind to what a step's body is", () => {
  test("no file under src/run/ reads `.screen` of a frame (the kind's report and codec do)", () => {
    const found: string[] = [];
    for (const name of readdirSync(RUN).filter((n) => n.endsWith(".ts"))) {
      for (const { line, code } of codeLines(readFileSync(join(RUN, name), "utf8")))
        if (/\.screen\b(?!Log)/.test(code)) found.push(`src/run/${name}:${line}: ${code.trim()}`);
    }
    expect(found).toEqual([]);
  });
});
