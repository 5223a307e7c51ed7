// Every environment kind has one section codec behind one interface (game/kind.ts SectionCodec): what the run
// writes for a step, what resume and replay read back (SectionRead) and what the log's readers show (SectionView)
// come from it for every kind, and a log that does not name its kind is read by the codec that reads it.
import { describe, expect, test } from "bun:test";
import { createGame } from "../../src/game/catalog.ts";
import { ENV_KINDS, envKind, viewSection, type SectionCodec } from "../../src/game/kinds.ts";
import { nethackEntry } from "../../src/game/nethack/actions.ts";
import { screenBody, type ScreenFrame } from "../../src/game/nethack/screen-frame.ts";
import type { FrameData } from "../../src/game-model.ts";
import type { SectionExtra, SectionHeader } from "../../src/log/format.ts";

const RUN = { gridMode: "ascii" } as const;

/** Two successive steps of the committed game glide: its first frame, and a move. */
function gridSteps(): [FrameData, FrameData] {
  const game = createGame("glide")._unsafeUnwrap();
  const first = game.reset();
  return [first, game.step({ id: 4 })];
}

const vitals = { xl: 1, hp: 12, hpMax: 16, turn: 9 };
function screenStep(message: string): FrameData {
  const screen: ScreenFrame = {
    level: 2,
    score: 154,
    progression: 0.0154,
    status: "Dlvl:2 | $:0 | HP:12(16) | Pw:2(2) | AC:6 | Xp:1/0 | T:9 | Not Hungry | Unencumbered",
    message,
    stops: ["hp lost 4"],
    notes: [],
    rows: Array.from({ length: 23 }, (_, y) => (y === 5 ? "        @" : "").padEnd(80)),
    colours: Array.from({ length: 24 }, (_, y) => (y === 6 ? `${".".repeat(8)}W${".".repeat(71)}` : ".".repeat(80))),
    vitals,
  };
  return { frames: [], state: "NOT_FINISHED", levelsCompleted: 0, winLevels: 0, availableActions: [], body: screenBody(screen) };
}

const header = (h: Partial<SectionHeader>): SectionHeader => ({
  action: 3,
  level: 1,
  attempt: 1,
  score: 0,
  kind: "action",
  ...h,
});

/** A kind's step, its header and extras, and a step that differs from it. */
interface Case {
  readonly step: FrameData;
  readonly other: FrameData;
  readonly header: SectionHeader;
  readonly extra: SectionExtra;
  readonly form: "cells" | "text";
}

function caseOf(codec: SectionCodec): Case {
  if (codec.animated) {
    const [first, moved] = gridSteps();
    return { step: moved, other: first, header: header({}), extra: { plan: "go right", toolCall: { id: 4 } }, form: "cells" };
  }
  const toolCall = nethackEntry("north")._unsafeUnwrap();
  return {
    step: screenStep("You hear a door open."),
    other: screenStep("You hear nothing."),
    header: header({ level: 2, score: 154, vitals }),
    extra: { plan: "go north", toolCall, episode: { index: 2, total: 3 } },
    form: "text",
  };
}

describe("every kind's section codec", () => {
  for (const name of ENV_KINDS) {
    test(`${name}: a step written is read back whole, checks clean against its step and not another, and is shown`, () => {
      const codec = envKind(name).codec();
      const c = caseOf(codec);
      const written = codec.write(c.step, c.header, c.extra, RUN)._unsafeUnwrap();
      expect(written.text.endsWith("\n\n")).toBe(true);
      expect(written.boards).toBe(Math.max(1, c.step.frames.length));
      const read = codec.read(written.text)._unsafeUnwrap();
      expect(read.header).toEqual(c.header);
      expect({ plan: read.plan, toolCall: read.toolCall, episode: read.episode }).toEqual({
        plan: c.extra.plan,
        toolCall: c.extra.toolCall,
        episode: c.extra.episode,
      });
      expect(read.boards).toBe(written.boards);
      expect(read.check(c.step)).toEqual([]);
      expect(read.check(c.other).length).toBeGreaterThan(0);

      const view = codec.view(written.text)._unsafeUnwrap();
      expect(view.header).toEqual(c.header);
      expect(view.plan).toBe(c.extra.plan);
      expect(view.picture.form).toBe(c.form);
      if (view.picture.form === "cells") expect(view.picture.board).toEqual(c.step.frames.at(-1)!);
      else {
        expect(view.picture.rows).toHaveLength(24);
        expect(view.picture.rows[0]!.trimEnd()).toBe("You hear a door open.");
        // The coloured '@' (row 6 of the screen, column 8) is bright white, palette index 15; the rest default.
        expect(view.picture.colours?.[6]).toEqual([[8, 15, 1]]);
        expect(view.picture.colours?.flat()).toHaveLength(1);
        expect(view.lines).toContain("[EVENT] hp lost 4");
      }
      expect(codec.current(written.text, c.step)._unsafeUnwrap()).toContain("Score: ");
    });
  }

  test("a step of another kind is refused by name, never written as this kind's section", () => {
    const grid = envKind("local").codec();
    const screen = envKind("nethack").codec();
    expect(grid.write(screenStep("x"), header({}), {}, RUN)._unsafeUnwrapErr()).toContain("without a board");
    expect(screen.write(gridSteps()[1], header({}), {}, RUN)._unsafeUnwrapErr()).toContain("holds a screen");
    const gridText = grid.write(gridSteps()[1], header({}), {}, RUN)._unsafeUnwrap().text;
    expect(screen.read(gridText).isErr()).toBe(true);
    const screenText = screen.write(screenStep("x"), header({ vitals }), {}, RUN)._unsafeUnwrap().text;
    expect(grid.read(screenText).isErr()).toBe(true);
  });
});

describe("a log that does not name its kind", () => {
  test("each section is read by the codec that reads it: a board by the grid games', a screen by NetHack's", () => {
    const grid = envKind("local").codec().write(gridSteps()[1], header({}), {}, RUN)._unsafeUnwrap().text;
    const screen = envKind("nethack").codec().write(screenStep("x"), header({ vitals }), {}, RUN)._unsafeUnwrap().text;
    const g = viewSection(grid)._unsafeUnwrap();
    expect([g.kind.name, g.view.picture.form]).toEqual(["local", "cells"]);
    const s = viewSection(screen)._unsafeUnwrap();
    expect([s.kind.name, s.view.picture.form]).toEqual(["nethack", "text"]);
    // Read by no kind: why the first (the grid games') refused it.
    expect(viewSection(`${"=".repeat(80)}\nnot a header\n`)._unsafeUnwrapErr()).toContain("expected a header");
  });
});
