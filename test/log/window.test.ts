import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Grid } from "../../src/game-model.ts";
import { gridToText, parseLog, parseSection, writeLog, writeSection, type LogSection } from "../../src/log/format.ts";
import { appendSection, RunIndex } from "../../src/log/run-index.ts";
import { MasterLog } from "../../src/log/master.ts";
import { LogWindowSchema, parseLogWindow, windowLabel, windowText, type LogWindow } from "../../src/config/log-window.ts";
import { bytesSource, currentBoardText, renderWindow, tableLookup, windowOfLog } from "../../src/log/window.ts";
import * as v from "valibot";
import { sectionIndex } from "../../src/native.ts";

const FIXTURES = resolve(import.meta.dir, "../..", "..", "shared", "fixtures", "prolong-release");
const text = (b: Uint8Array | null) => (b === null ? null : new TextDecoder().decode(b));

function grid(seed: number): Grid {
  return { width: 8, height: 8, cells: Uint8Array.from({ length: 64 }, (_, i) => (i * 3 + seed * 11) % 16) };
}

/** Initial section + 6 actions; action 6 (the newest) is animated with 3 frames, action 2 with 2. */
function sections(): LogSection[] {
  const out: LogSection[] = [
    { header: { action: 0, level: 1, attempt: 1, score: 0, kind: "initial" }, frames: [], board: grid(0) },
  ];
  for (let a = 1; a <= 6; a++) {
    out.push({
      header: {
        action: a,
        level: a < 4 ? 1 : 2,
        attempt: 1,
        score: a < 4 ? 0 : 1,
        kind: "action",
        planStep: { step: a, total: 6 },
      },
      plan: "walk right, then click the red block",
      toolCall: a % 2 ? { id: 4 } : { id: 6, x: a, y: 7 },
      frames: a === 6 ? [grid(60), grid(61), grid(62)] : a === 2 ? [grid(20), grid(21)] : [],
      board: grid(a),
    });
  }
  return out;
}

function indexed(all: LogSection[]) {
  const dir = mkdtempSync(join(tmpdir(), "prolong-window-"));
  const master = MasterLog.open(join(dir, "logs.txt"))._unsafeUnwrap();
  const index = RunIndex.open(join(dir, "index.sqlite"))._unsafeUnwrap();
  for (const s of all) appendSection(master, index, s, "ascii")._unsafeUnwrap();
  return { master, index, bytes: new Uint8Array(readFileSync(join(dir, "logs.txt"))) };
}

describe("LogWindow: one type, one text form", () => {
  test("the text forms and the paper's numbers map to the four arms, and back to the canonical text", () => {
    const cases: [string, LogWindow, string][] = [
      ["full", { kind: "full" }, "full"],
      ["last:25", { kind: "last", sections: 25 }, "last:25"],
      ["25", { kind: "last", sections: 25 }, "last:25"],
      [" 3 ", { kind: "last", sections: 3 }, "last:3"],
      ["newest", { kind: "newest" }, "newest"],
      ["0", { kind: "newest" }, "newest"],
      ["none", { kind: "none" }, "none"],
      ["-1", { kind: "none" }, "none"],
    ];
    for (const [flag, w, back] of cases) {
      expect(parseLogWindow(flag)._unsafeUnwrap()).toEqual(w);
      expect(windowText(w)).toBe(back);
      expect(parseLogWindow(windowText(w))._unsafeUnwrap()).toEqual(w);
    }
    expect(windowLabel({ kind: "last", sections: 7 })).toBe("last 7 sections");
  });

  test("as a setting: the LogWindow itself, its text, or an older run.json's null / number", () => {
    const parse = (x: unknown) => v.parse(LogWindowSchema, x);
    expect(parse(null)).toEqual({ kind: "full" });
    expect(parse(7)).toEqual({ kind: "last", sections: 7 });
    expect(parse(-1)).toEqual({ kind: "none" });
    expect(parse("newest")).toEqual({ kind: "newest" });
    expect(parse({ kind: "last", sections: 4 })).toEqual({ kind: "last", sections: 4 });
    expect(v.safeParse(LogWindowSchema, -2).success).toBe(false);
    expect(v.safeParse(LogWindowSchema, { kind: "last", sections: 0 }).success).toBe(false);
  });

  test("bad values are errors that say what the flag takes", () => {
    for (const flag of ["-2", "abc", "1.5", "", "1e3", "last:", "last:0", "last:-3"]) {
      const r = parseLogWindow(flag);
      expect(r.isErr()).toBe(true);
      expect(r.isErr() && r.error.code).toBe("bad-flag");
      expect(r.isErr() && r.error.fix).toContain("last:N (the last N action sections");
    }
  });
});

describe("what the agent sees under each arm", () => {
  const all = sections();
  const { master, index, bytes } = indexed(all);

  test("full log: the master, byte for byte", () => {
    expect(
      text(renderWindow(master, index.windowLookup({ kind: "full" })._unsafeUnwrap(), { kind: "full" }, "ascii")._unsafeUnwrap()),
    ).toBe(writeLog(all, "ascii"));
  });

  test("--log-window 2: the INITIAL STATE section, then the two newest action sections, as a well-formed log", () => {
    const seen = text(
      renderWindow(
        master,
        index.windowLookup({ kind: "last", sections: 2 })._unsafeUnwrap(),
        { kind: "last", sections: 2 },
        "ascii",
      )._unsafeUnwrap(),
    );
    expect(seen).toBe(writeLog([all[0], all[5], all[6]] as LogSection[], "ascii"));
    const parsed = parseLog(seen as string);
    expect(parsed.cut).toBeUndefined();
    expect(parsed.sections.map((s) => s.header.action)).toEqual([0, 5, 6]);
  });

  test("--log-window N with N at least the number of action sections: the full log", () => {
    for (const n of [6, 7, 100]) {
      expect(
        text(
          renderWindow(
            master,
            index.windowLookup({ kind: "last", sections: n })._unsafeUnwrap(),
            { kind: "last", sections: n },
            "ascii",
          )._unsafeUnwrap(),
        ),
      ).toBe(writeLog(all, "ascii"));
    }
    // N = 5 leaves out only action 1.
    expect(
      text(
        renderWindow(
          master,
          index.windowLookup({ kind: "last", sections: 5 })._unsafeUnwrap(),
          { kind: "last", sections: 5 },
          "ascii",
        )._unsafeUnwrap(),
      ),
    ).toBe(writeLog([all[0], ...all.slice(2)] as LogSection[], "ascii"));
  });

  test("--log-window 0: only the newest section, its animation frames gone, its settled board, plan and tool call kept", () => {
    const seen = text(
      renderWindow(master, index.windowLookup({ kind: "newest" })._unsafeUnwrap(), { kind: "newest" }, "ascii")._unsafeUnwrap(),
    ) as string;
    const newest = all[6] as LogSection;
    expect(seen).toBe(writeSection({ ...newest, frames: [] }, "ascii"));
    expect(seen).not.toContain("[frame");
    expect(seen).not.toContain("[settled]");
    expect(seen).toContain(`[POST-ACTION BOARD STATE]\n${gridToText(newest.board, "ascii")}\n\n`);
    const parsed = parseSection(seen)._unsafeUnwrap();
    expect(parsed.frames).toEqual([]);
    expect(parsed.header).toEqual(newest.header);
    expect(parsed.plan).toBe(newest.plan);
    expect(Array.from(parsed.board.cells)).toEqual(Array.from(newest.board.cells));
  });

  test("--log-window -1: no file, and the board the prompt carries is the published side file's text", () => {
    expect(
      renderWindow(master, index.windowLookup({ kind: "none" })._unsafeUnwrap(), { kind: "none" }, "ascii")._unsafeUnwrap(),
    ).toBeNull();
    const board = currentBoardText(master, index.lookup()._unsafeUnwrap())._unsafeUnwrap();
    expect(board).toBe(`Score: 1\nAction: 6\n\n[CURRENT BOARD STATE]\n${gridToText((all[6] as LogSection).board, "ascii")}`);
    // Without an index the same text comes from scanning the master.
    expect(currentBoardText(master)._unsafeUnwrap()).toBe(board);
  });

  test("a log read from disk (native section table) gives the same windows as the run index", () => {
    for (const w of [
      { kind: "full" },
      { kind: "last", sections: 1 },
      { kind: "last", sections: 3 },
      { kind: "newest" },
    ] as LogWindow[]) {
      expect(text(windowOfLog(bytes, w, "ascii")._unsafeUnwrap())).toBe(
        text(renderWindow(master, index.windowLookup(w)._unsafeUnwrap(), w, "ascii")._unsafeUnwrap()),
      );
    }
  });

  test("an empty log gives an empty window and no current board", () => {
    const empty = bytesSource(new Uint8Array(0));
    const lookup = tableLookup(sectionIndex(new Uint8Array(0)));
    expect(renderWindow(empty, lookup, { kind: "last", sections: 3 }, "ascii")._unsafeUnwrap()).toEqual(new Uint8Array(0));
    expect(currentBoardText(empty, lookup).isErr()).toBe(true);
  });
});

describe("windows of the published logs", () => {
  const present = existsSync(FIXTURES);
  if (!present) console.log(`skip: ${FIXTURES} is absent (the published logs live outside the project)`);
  test.skipIf(!present)(
    "last-N keeps the initial section and exactly N action sections; 0 strips the newest section's frames",
    () => {
      for (const game of ["ft09", "m0r0"]) {
        const bytes = new Uint8Array(readFileSync(join(FIXTURES, game, "logs.txt")));
        const whole = parseLog(new TextDecoder().decode(bytes)).sections;
        const last3 = parseLog(text(windowOfLog(bytes, { kind: "last", sections: 3 }, "ascii")._unsafeUnwrap()) as string);
        expect(last3.cut).toBeUndefined();
        expect(last3.sections.map((s) => s.header.action)).toEqual([0, ...whole.slice(-3).map((s) => s.header.action)]);
        const newest = parseSection(
          text(windowOfLog(bytes, { kind: "newest" }, "ascii")._unsafeUnwrap()) as string,
        )._unsafeUnwrap();
        const expected = whole[whole.length - 1] as LogSection;
        expect(newest.frames).toEqual([]);
        expect(newest.header).toEqual(expected.header);
        expect(Array.from(newest.board.cells)).toEqual(Array.from(expected.board.cells));
      }
    },
  );

  test.skipIf(!present)("an animated section of a real log loses its frames and keeps its settled board", () => {
    const log = new TextDecoder().decode(readFileSync(join(FIXTURES, "ft09", "logs.txt")));
    const sep = "=".repeat(80);
    const animated = log
      .split(`\n${sep}`)
      .map((s, i) => (i === 0 ? s : sep + s))
      .find((s) => s.includes("[frame 1/"));
    expect(animated).toBeDefined();
    const cut = new TextEncoder().encode((animated as string).replace(/\n+$/, "\n\n"));
    const stripped = text(windowOfLog(cut, { kind: "newest" }, "ascii")._unsafeUnwrap()) as string;
    expect(stripped).not.toContain("[frame");
    const before = parseSection(animated as string)._unsafeUnwrap();
    const after = parseSection(stripped)._unsafeUnwrap();
    expect(before.frames.length).toBeGreaterThan(0);
    expect(Array.from(after.board.cells)).toEqual(Array.from(before.board.cells));
  });
});
