// The explorer folds only what is new in the log, yet decides exactly as a fresh read of the whole log does.
import { afterEach, describe, expect, test } from "bun:test";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { think } from "../../../src/agent/explorer/explorer.ts";
import { forgetKnowledge, knowledgeOf } from "../../../src/agent/explorer/knowledge.ts";
import type { ActionId } from "../../../src/game-model.ts";
import { sectionAppendText, type LogSection } from "../../../src/log/format.ts";
import { board64 } from "./helpers.ts";

const dirs: string[] = [];
function workspace(): string {
  const d = mkdtempSync(join(tmpdir(), "explorer-knowledge-"));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  forgetKnowledge();
});

const AVAILABLE: ActionId[] = [1, 2, 3, 4, 5, 6];

/**
 * Sections of a made-up game: a player wandering a 6x6 field, a meter on row 50 that drains, a reset midway;
 * ACTION5 plays an animation (a flash at the field's corner) and settles on the board it started from.
 */
function sections(count: number): LogSection[] {
  const out: LogSection[] = [];
  let px = 2;
  let py = 2;
  let attempt = 1;
  let meter = 40;
  const board = () =>
    board64(5, [
      { x: 4 * px, y: 4 * py, w: 4, h: 4, c: 8 },
      { x: 40, y: 20, w: 3, h: 3, c: 11 },
      { x: 10, y: 50, w: meter, h: 1, c: 9 },
    ]);
  out.push({ header: { action: 0, level: 1, attempt: 1, score: 0, kind: "initial" }, frames: [], board: board() });
  for (let i = 1; i < count; i++) {
    const id = ((i * 7) % 5) + 1;
    if (i % 23 === 0) {
      attempt++;
      px = 2;
      py = 2;
      meter = 40;
      out.push({
        header: { action: i, level: 1, attempt, score: 0, kind: "action" },
        toolCall: { id: 0 },
        frames: [],
        board: board(),
      });
      continue;
    }
    if (id === 1 && py > 0) py--;
    if (id === 2 && py < 5) py++;
    if (id === 3 && px > 0) px--;
    if (id === 4 && px < 5) px++;
    meter--;
    const settled = board();
    const flash = { ...settled, cells: settled.cells.slice().fill(12, 30 * 64, 30 * 64 + 6) };
    out.push({
      header: { action: i, level: 1, attempt, score: 0, kind: "action" },
      toolCall: { id: id as 1 | 2 | 3 | 4 | 5 },
      frames: id === 5 ? [flash, settled] : [],
      board: settled,
    });
  }
  return out;
}

const input = (ws: string) => ({ workspace: ws, prompt: "", turn: 1, availableActions: AVAILABLE, actionCap: 20, seed: 3 });

describe("incremental reading", () => {
  test("decisions from a log read a few sections at a time equal decisions from the same log read whole", () => {
    const all = sections(70);
    const growing = workspace();
    let text = "";
    for (let k = 0; k < all.length; k++) {
      const piece = sectionAppendText(all[k]!, "ascii", k === 0);
      text += piece;
      appendFileSync(join(growing, "logs.txt"), piece);
      if (k % 3 !== 0 && k !== all.length - 1) continue;
      const incremental = think(input(growing))._unsafeUnwrap();
      const fresh = workspace(); // another path: nothing cached for it
      writeFileSync(join(fresh, "logs.txt"), text);
      const whole = think(input(fresh))._unsafeUnwrap();
      expect(incremental.decision).toEqual(whole.decision);
      expect(incremental.text).toBe(whole.text);
    }
    expect(think(input(growing))._unsafeUnwrap().text).toContain("meter row 50");
    // The animated ACTION5 did something each time, folded in pieces as read whole.
    const { graph } = knowledgeOf(join(growing, "logs.txt"))._unsafeUnwrap()!.view();
    const pour = graph.moves.get(5)!;
    expect(pour.tries).toBeGreaterThanOrEqual(3);
    expect(pour.changes).toBe(pour.tries);
  });

  test("a turn folds only the new sections; a rewritten log (a window) is folded again from the start", () => {
    const all = sections(30);
    const ws = workspace();
    const path = join(ws, "logs.txt");
    const text = (list: LogSection[]) => list.map((s, i) => sectionAppendText(s, "ascii", i === 0)).join("");
    writeFileSync(path, text(all.slice(0, 20)));
    const first = knowledgeOf(path)._unsafeUnwrap()!;
    expect(first.steps.length).toBe(20);
    appendFileSync(
      path,
      all
        .slice(20)
        .map((s) => sectionAppendText(s, "ascii", false))
        .join(""),
    );
    const second = knowledgeOf(path)._unsafeUnwrap()!;
    expect(second).toBe(first); // the same fold, extended
    expect(second.steps.length).toBe(30);
    // a window of the log: the first section and the last five
    writeFileSync(path, text([all[0]!, ...all.slice(25)]));
    const third = knowledgeOf(path)._unsafeUnwrap()!;
    expect(third).not.toBe(first);
    expect(third.steps.length).toBe(6);
  });

  test("a window that shifts over sections with identical boards is still seen as a rewrite", () => {
    const still = board64(5, [{ x: 8, y: 8, w: 4, h: 4, c: 8 }]);
    const list: LogSection[] = [
      { header: { action: 0, level: 1, attempt: 1, score: 0, kind: "initial" }, frames: [], board: still },
    ];
    for (let i = 1; i <= 12; i++)
      list.push({
        header: { action: i, level: 1, attempt: 1, score: 0, kind: "action" },
        toolCall: { id: 5 },
        frames: [],
        board: still,
      });
    const text = (l: LogSection[]) => l.map((s, i) => sectionAppendText(s, "ascii", i === 0)).join("");
    const ws = workspace();
    const path = join(ws, "logs.txt");
    writeFileSync(path, text([list[0]!, ...list.slice(1, 11)]));
    const first = knowledgeOf(path)._unsafeUnwrap()!;
    writeFileSync(path, text([list[0]!, ...list.slice(2, 12)]));
    const second = knowledgeOf(path)._unsafeUnwrap()!;
    expect(second).not.toBe(first);
    expect(second.steps.map((s) => s.actionNumber)).toEqual([0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  test("a torn last section is left for the next read, then folded once whole", () => {
    const all = sections(6);
    const ws = workspace();
    const path = join(ws, "logs.txt");
    const whole = all.map((s, i) => sectionAppendText(s, "ascii", i === 0)).join("");
    const cut = whole.length - 64 * 20;
    writeFileSync(path, whole.slice(0, cut));
    expect(knowledgeOf(path)._unsafeUnwrap()!.steps.length).toBe(5);
    appendFileSync(path, whole.slice(cut));
    const known = knowledgeOf(path)._unsafeUnwrap()!;
    expect(known.steps.length).toBe(6);
    expect(Array.from(known.steps[5]!.cells!)).toEqual(Array.from(all[5]!.board.cells));
    expect(readFileSync(path, "utf8")).toBe(whole);
  });
});
