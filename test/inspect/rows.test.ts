import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { sectionRows } from "../../src/inspect/rows.ts";
import { sectionRowsText } from "../../src/native.ts";
import { actionText } from "../../src/action-text.ts";
import { parseLog, type LogSection } from "../../src/log/format.ts";
import type { LoadedLog } from "../../src/log/load.ts";
import { generateLog } from "../../src/bench/gen-log.ts";
import { FIXTURE_GAMES, fixturesDir, loaded } from "./helpers.ts";

function changedCells(a: LogSection, b: LogSection): number {
  let n = 0;
  for (let i = 0; i < b.board.cells.length; i++) if (a.board.cells[i] !== b.board.cells[i]) n++;
  return n;
}

/** Every row against the format's own parser (the oracle). */
function checkAgainstParser(log: LoadedLog) {
  const parsed = parseLog(new TextDecoder().decode(log.bytes));
  const rows = sectionRows(log);
  expect(rows.length).toBe(log.table.count);
  parsed.sections.forEach((s, i) => {
    const r = rows[i]!;
    expect(r.kind).toBe(s.header.kind);
    expect([r.action, r.level, r.attempt, r.score]).toEqual([s.header.action, s.header.level, s.header.attempt, s.header.score]);
    expect(r.planStep).toEqual(s.header.planStep ?? null);
    expect(r.toolCall).toBe(s.toolCall ? actionText(s.toolCall, "log") : null);
    expect(r.frames).toBe(s.frames.length + 1);
    expect(r.cellsChanged).toBe(i === 0 ? null : changedCells(parsed.sections[i - 1]!, s));
    expect(r.complete).toBe(true);
  });
  return { rows, parsed };
}

describe("sectionRows", () => {
  test("a generated log with frames, plans and level-ups matches parseLog section by section", () => {
    const { rows } = checkAgainstParser(loaded(generateLog({ sections: 120, seed: 9 })));
    expect(rows.some((r) => r.frames > 1)).toBe(true);
    expect(rows.some((r) => r.toolCall?.startsWith("ACTION6"))).toBe(true);
  });

  test("a CRLF log: the tool call loses its \\r", () => {
    checkAgainstParser(loaded(generateLog({ sections: 20, seed: 3, crlf: true })));
  });

  test("a log cut inside its last board: the last row says so", () => {
    const text = generateLog({ sections: 10, seed: 5 });
    const cut = text.slice(0, text.length - 64 * 20);
    const log = loaded(cut);
    const rows = sectionRows(log);
    expect(rows.length).toBe(10);
    expect(rows[9]!.complete).toBe(false);
    expect(rows.slice(0, 9).every((r) => r.complete)).toBe(true);
    expect(new TextDecoder().decode(sectionRowsText(log.bytes)).split("\n")[10]).toContain("CUT");
  });

  test("the table has one line per section under a header", () => {
    const lines = new TextDecoder().decode(sectionRowsText(loaded(generateLog({ sections: 5, seed: 1 })).bytes)).split("\n");
    expect(lines.length).toBe(7);
    expect(lines[6]).toBe("");
    expect(lines[0]).toMatch(/#\s+action\s+level\s+attempt\s+score\s+plan\s+tool call\s+frames\s+changed\s+offset/);
    expect(lines[1]).toMatch(/^\s*0\s+0 init\s+1\s+1\s+0\s/);
  });

  const fixtures = fixturesDir();
  test.skipIf(fixtures === null)("the four published logs match parseLog", () => {
    for (const g of FIXTURE_GAMES) {
      const { rows, parsed } = checkAgainstParser(loaded(readFileSync(path.join(fixtures!, g, "logs.txt"))));
      expect(parsed.cut).toBeUndefined();
      expect(rows.length).toBe(parsed.sections.length);
    }
  });
  if (fixtures === null) console.log("skipped: published logs not found at ../shared/fixtures/prolong-release");
});
