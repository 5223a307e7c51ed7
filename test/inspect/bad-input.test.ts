// Never a crash: every inspection path over logs cut at many points, hostile, CRLF and hex logs, and a log
// with foreign cell characters. Whatever loads must give rows, shows, diffs, greps and a replay page.
import { describe, expect, test } from "bun:test";
import { logGridMode } from "../../src/inspect/board.ts";
import { diffSections } from "../../src/inspect/diff.ts";
import { grepLog } from "../../src/inspect/grep.ts";
import { sectionRows } from "../../src/inspect/rows.ts";
import { sectionRowsText } from "../../src/native.ts";
import { renderShown, showSection } from "../../src/inspect/show.ts";
import { loadLog } from "../../src/log/load.ts";
import { replayHtml } from "../../src/view/html.ts";
import { buildReplay } from "../../src/view/replay.ts";
import { generateLog } from "../../src/bench/gen-log.ts";
import { sectionRowsTextOracle } from "../oracle/rows.ts";
import { logFile } from "./helpers.ts";

function exercise(text: string): { loaded: boolean; steps: number } {
  const log = loadLog(logFile(text));
  if (log.isErr()) {
    expect(log.error.code).toBe("not-a-log");
    return { loaded: false, steps: 0 };
  }
  const l = log.value;
  const mode = logGridMode(l);
  const rows = sectionRows(l);
  expect(rows.length).toBe(l.table.count);
  expect(new TextDecoder().decode(sectionRowsText(l.bytes))).toBe(sectionRowsTextOracle(l.bytes));
  for (let i = 0; i < l.table.count; i++) {
    const shown = showSection(l, i, { colour: false, frames: true, mode });
    expect(shown.error === null ? shown.board !== null : shown.text !== undefined).toBe(true);
    expect(renderShown(l, i, { colour: true, frames: true, mode }).length).toBeGreaterThan(0);
    if (i > 0) diffSections(l, i - 1, i, mode); // an Err is fine; a throw is not
  }
  expect(grepLog(l, "Tool Call", { fixed: true, ignoreCase: false, max: 5 }).isOk()).toBe(true);
  const replay = buildReplay(l, {
    logPath: "x",
    runDir: null,
    title: "t",
    events: [],
    trajectory: [],
    scorecard: null,
    warnings: [],
  });
  expect(replayHtml(replay)).toContain("</html>");
  return { loaded: true, steps: replay.steps.length };
}

describe("bad input never crashes inspection or the viewer", () => {
  const shapes: Record<string, string> = {
    plain: generateLog({ sections: 12, seed: 31 }),
    adversarial: generateLog({ sections: 12, seed: 32, adversarial: true }),
    crlf: generateLog({ sections: 8, seed: 33, crlf: true }),
    hex: generateLog({ sections: 8, seed: 34, mode: "hex" }),
    noFinalNewline: generateLog({ sections: 8, seed: 35, finalNewline: false }),
  };
  for (const [name, text] of Object.entries(shapes)) {
    test(`${name}: whole and cut at 23 points`, () => {
      expect(exercise(text)).toMatchObject({ loaded: true });
      for (let k = 1; k <= 23; k++) exercise(text.slice(0, Math.floor((text.length * k) / 24)));
    });
  }

  test("foreign cell characters and a foreign file", () => {
    const text = shapes.plain!;
    const board = text.indexOf("[POST-ACTION BOARD STATE]\n") + 26;
    const odd = `${text.slice(0, board)}@@@@${text.slice(board + 4)}`;
    expect(exercise(odd).steps).toBe(12);
    expect(exercise("not a log\n".repeat(50))).toEqual({ loaded: false, steps: 0 });
  });
});
