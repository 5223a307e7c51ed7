import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { decodeBoardText, readLog } from "../../../src/agent/explorer/read-log.ts";
import { gridToText, parseLog } from "../../../src/log/format.ts";
import { board64, logOf } from "./helpers.ts";

const bytes = (s: string) => new TextEncoder().encode(s);
const FIXTURES = path.resolve(import.meta.dir, "../../../..", "shared", "fixtures", "prolong-release");

describe("readLog", () => {
  test("reads header fields, tool calls and settled boards of a written log", () => {
    const a = board64(5, [{ x: 0, y: 0, w: 4, h: 4, c: 8 }]);
    const b = board64(5, [{ x: 4, y: 0, w: 4, h: 4, c: 8 }]);
    const log = logOf(a, [
      { action: { id: 4 }, board: b },
      { action: { id: 6, x: 12, y: 40 }, board: b, attempt: 2 },
    ]);
    const run = readLog(bytes(log), "logs.txt")._unsafeUnwrap();
    expect(run.width).toBe(64);
    expect(run.steps.map((s) => [s.kind, s.actionNumber, s.attempt, s.score])).toEqual([
      ["initial", 0, 1, 0],
      ["action", 1, 1, 0],
      ["action", 2, 2, 0],
    ]);
    expect(run.steps[1]!.action).toEqual({ id: 4 });
    expect(run.steps[2]!.action).toEqual({ id: 6, x: 12, y: 40 });
    expect(Array.from(run.steps[1]!.board!.cells)).toEqual(Array.from(b.cells));
  });

  test("a plan that quotes a tool call does not fool it", () => {
    const a = board64(5);
    const log = logOf(a, [{ action: { id: 2 }, board: a }]).replace(
      "Tool Call: ACTION2({})",
      '\n[PLAN]\nTool Call: ACTION6({"x": 1, "y": 1}) is what I would do\n\nTool Call: ACTION2({})',
    );
    const run = readLog(bytes(log), "logs.txt")._unsafeUnwrap();
    expect(run.steps[1]!.action).toEqual({ id: 2 });
  });

  test("a torn last section has no board", () => {
    const a = board64(5);
    const log = logOf(a, [{ action: { id: 1 }, board: a }]);
    const run = readLog(bytes(log.slice(0, log.length - 64 * 30)), "logs.txt")._unsafeUnwrap();
    expect(run.steps[1]!.board).toBeUndefined();
    expect(run.steps[1]!.action).toEqual({ id: 1 });
  });

  test("hex-mode boards decode to the same colours", () => {
    const g = board64(3, [{ x: 2, y: 2, w: 3, h: 3, c: 8 }]);
    const decoded = decodeBoardText(gridToText(g, "hex"))!;
    expect(decoded.width).toBe(64);
    expect(Array.from(decoded.cells)).toEqual(Array.from(g.cells));
    expect(decoded.colourAt(3, 3)).toBe(8);
  });

  test("CRLF logs give the same boards and tool calls", () => {
    const a = board64(5, [{ x: 0, y: 0, w: 4, h: 4, c: 8 }]);
    const log = logOf(a, [{ action: { id: 6, x: 1, y: 2 }, board: a }]);
    const lf = readLog(bytes(log), "lf")._unsafeUnwrap();
    const crlf = readLog(bytes(log.replaceAll("\n", "\r\n")), "crlf")._unsafeUnwrap();
    expect(crlf.steps[1]!.action).toEqual({ id: 6, x: 1, y: 2 });
    expect(Array.from(crlf.steps[1]!.board!.cells)).toEqual(Array.from(lf.steps[1]!.board!.cells));
  });

  test.skipIf(!existsSync(FIXTURES))(
    `agrees with format.parseLog on every section of the real logs${existsSync(FIXTURES) ? "" : ` (skipped: ${FIXTURES} is absent; the shared fixtures are not in a user's checkout)`}`,
    () => {
      for (const game of ["ft09", "lp85"]) {
        const text = readFileSync(path.join(FIXTURES, game, "logs.txt"), "utf8");
        const run = readLog(bytes(text), game)._unsafeUnwrap();
        const parsed = parseLog(text).sections;
        expect(run.steps.length).toBe(parsed.length);
        parsed.forEach((s, i) => {
          const step = run.steps[i]!;
          expect(step.score).toBe(s.header.score);
          expect(step.action).toEqual(s.toolCall);
          expect(Array.from(step.board!.cells)).toEqual(Array.from(s.board.cells));
        });
      }
    },
  );
});
