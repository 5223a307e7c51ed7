// The log format's own tests: exact bytes of small sections, round trips of generated sections in every
// shape, the plan escaping rule, error messages, tolerant whole-log parsing, and the generator.
import { actionText, parseAction } from "../../src/action-text.ts";
import { describe, expect, test } from "bun:test";
import type { Action, Grid, GridAction } from "../../src/game-model.ts";
import {
  ASCII_PALETTE,
  SEPARATOR,
  detectGridMode,
  escapePlan,
  gridToText,
  formatHeader,
  parseHeader,
  parseLog,
  parseSection,
  parseToolCall,
  sectionAppendText,
  separatorOffsets,
  textToGrid,
  unescapePlan,
  writeLog,
  writeSection,
  type GridMode,
  type LogSection,
  type SectionHeader,
} from "../../src/log/format.ts";
import { generateLog } from "../../src/bench/gen-log.ts";

function grid(rows: number[][]): Grid {
  const width = rows[0]?.length ?? 0;
  return { width, height: rows.length, cells: Uint8Array.from(rows.flat()) };
}

/** Deterministic pseudo-random grid (a tiny LCG: tests need variety, not quality). */
function randomGrid(width: number, height: number, seed: number): Grid {
  let s = seed >>> 0;
  const cells = Uint8Array.from({ length: width * height }, () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s >>> 28;
  });
  return { width, height, cells };
}

function sameGrid(a: Grid, b: Grid): void {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  expect(Array.from(a.cells)).toEqual(Array.from(b.cells));
}

function sameSection(a: LogSection, b: LogSection): void {
  expect(a.header).toEqual(b.header);
  expect(a.plan).toEqual(b.plan);
  expect(a.toolCall).toEqual(b.toolCall);
  expect(a.frames.length).toBe(b.frames.length);
  a.frames.forEach((f, i) => sameGrid(f, b.frames[i] as Grid));
  sameGrid(a.board, b.board);
}

const G2 = grid([
  [0, 1],
  [15, 9],
]); // "$8" / "\"f" in ascii, "01" / "f9" in hex

describe("constants and grids", () => {
  test("separator and palette", () => {
    expect(SEPARATOR).toBe("=".repeat(80));
    expect(ASCII_PALETTE).toBe('$8#hqOCznf(G->I"');
    expect(new Set(ASCII_PALETTE).size).toBe(16);
  });

  test("gridToText writes rows joined by \\n with no final newline", () => {
    expect(gridToText(G2, "ascii")).toBe('$8\n"f');
    expect(gridToText(G2, "hex")).toBe("01\nf9");
    expect(gridToText(grid([[3, 4, 5]]), "ascii")).toBe("hqO");
  });

  for (const mode of ["ascii", "hex"] as GridMode[]) {
    test(`textToGrid inverts gridToText (${mode}, square and not, explicit and auto mode)`, () => {
      for (const [w, h, seed] of [
        [64, 64, 1],
        [7, 3, 2],
        [1, 1, 3],
        [30, 64, 4],
      ] as const) {
        const g = randomGrid(w, h, seed);
        const text = gridToText(g, mode);
        sameGrid(textToGrid(text, mode)._unsafeUnwrap(), g);
        sameGrid(textToGrid(`${text}\n`, mode)._unsafeUnwrap(), g);
        sameGrid(textToGrid(text.replaceAll("\n", "\r\n"), mode)._unsafeUnwrap(), g);
        if (w * h > 16) sameGrid(textToGrid(text, "auto")._unsafeUnwrap(), g);
      }
    });
  }

  test("mode detection: hex digits outside the palette mean hex; '8'/'f' alone read as ascii", () => {
    expect(detectGridMode('$8\n"f')).toBe("ascii");
    expect(detectGridMode("01\nf9")).toBe("hex");
    expect(detectGridMode("8f\nf8")).toBe("ascii");
    expect(Array.from(textToGrid("8f", "auto")._unsafeUnwrap().cells)).toEqual([1, 9]);
  });

  test("textToGrid errors name the row, the column and the fix", () => {
    const ragged = textToGrid("$$$\n$$", "ascii");
    expect(ragged._unsafeUnwrapErr().message).toBe("board row 2 has 2 cells, expected 3 like row 1");
    const badChar = textToGrid("$$\n$X", "ascii")._unsafeUnwrapErr();
    expect(badChar.message).toBe('board row 2 column 2 has "X", not a ascii cell');
    expect(badChar.fix).toContain(ASCII_PALETTE);
    expect(textToGrid("0g", "hex")._unsafeUnwrapErr().message).toContain('"g", not a hex cell');
    expect(textToGrid("", "ascii")._unsafeUnwrapErr().code).toBe("bad-grid");
  });
});

describe("tool calls", () => {
  test("the published spelling", () => {
    expect(actionText({ id: 6, x: 38, y: 38 }, "log")).toBe('ACTION6({"x": 38, "y": 38})');
    expect(actionText({ id: 3 }, "log")).toBe("ACTION3({})");
    expect(actionText({ id: 0 }, "log")).toBe("RESET({})");
    expect(actionText({ id: 7 }, "log")).toBe("ACTION7({})");
  });

  test("round trip of every action", () => {
    const all: Action[] = [
      { id: 0 },
      { id: 1 },
      { id: 2 },
      { id: 3 },
      { id: 4 },
      { id: 5 },
      { id: 7 },
      { id: 6, x: 0, y: 63 },
      { id: 6, x: 12, y: 0 },
    ];
    for (const a of all) expect(parseToolCall(actionText(a, "log"))._unsafeUnwrap()).toEqual(a);
    expect(parseToolCall(' ACTION6({"y":5,"x":4}) ')._unsafeUnwrap()).toEqual({ id: 6, x: 4, y: 5 });
  });

  test("bad tool calls are errors that say what was expected", () => {
    for (const bad of [
      "JUMP({})",
      "ACTION8({})",
      "ACTION6({})",
      'ACTION6({"x": -1, "y": 2})',
      'ACTION6({"x": 1.5, "y": 2})',
      "ACTION1(nope)",
      "ACTION1([])",
      "ACTION1",
    ]) {
      const e = parseToolCall(bad)._unsafeUnwrapErr();
      expect(e.code).toBe("bad-tool-call");
      expect(e.message).toContain(JSON.stringify(bad));
    }
    expect(parseToolCall("ACTION6({})")._unsafeUnwrapErr().message).toContain("ACTION6 needs integer x and y");
  });

  test("one grammar: the log's tool call and actions.json read a click alike (bounds, key order), each spelling round-trips", () => {
    // On one grammar a text the log reads is an entry too, with the same action; a click off the board is
    // refused by both (the log took x 100 before), either key order read by both (entries refused y first).
    const logSpelled = [
      'ACTION6({"x": 100, "y": 2})',
      'ACTION6({"y": 5, "x": 4})',
      'ACTION6({"x": 63, "y": 0})',
      "RESET({})",
      "ACTION7({})",
      'ACTION3({"x": 1, "y": 2})',
      'ACTION6({"x": 1, "y": 2, "z": 3})',
    ];
    for (const text of logSpelled) {
      const log = parseToolCall(text);
      const entry = parseAction(text, "entry");
      expect([text, log.isOk() ? log.value : "refused"]).toEqual([text, entry.isOk() ? entry.value : "refused"]);
    }
    expect(parseToolCall('ACTION6({"x": 100, "y": 2})')._unsafeUnwrapErr().message).toContain("0..63");
    // The log always writes the arguments; an entry may leave them out.
    expect(parseAction("ACTION1", "log").isErr()).toBe(true);
    expect(parseAction("ACTION6(1,2)", "log").isErr()).toBe(true);
    const all: GridAction[] = [{ id: 0 }, { id: 1 }, { id: 5 }, { id: 6, x: 0, y: 63 }, { id: 7 }];
    for (const a of all) {
      expect(parseAction(actionText(a, "log"), "log")._unsafeUnwrap()).toEqual(a);
      expect(parseAction(actionText(a, "entry"), "entry")._unsafeUnwrap()).toEqual(a);
      expect(actionText(a, "name")).toBe(a.id === 0 ? "RESET" : `ACTION${a.id}`);
    }
    expect(actionText({ id: "key", name: "far east", keys: "L" }, "log")).toBe("far east");
  });
});

describe("headers", () => {
  test("the three header shapes", () => {
    expect(parseHeader("Action 0 | Level 1 | Attempt 1 | INITIAL STATE | Score: 0")).toEqual({
      action: 0,
      level: 1,
      attempt: 1,
      score: 0,
      kind: "initial",
    });
    expect(parseHeader("Action 12 | Level 3 | Attempt 2 | Plan Step 4/9 | Score: 2\r")).toEqual({
      action: 12,
      level: 3,
      attempt: 2,
      score: 2,
      kind: "action",
      planStep: { step: 4, total: 9 },
    });
    expect(parseHeader("Action 5 | Level 1 | Attempt 1 | Score: 0")).toEqual({
      action: 5,
      level: 1,
      attempt: 1,
      score: 0,
      kind: "action",
    });
    expect(parseHeader("Action x | Level 1 | Attempt 1 | Score: 0")).toBeUndefined();
    expect(parseHeader("Action 5 | Level 1 | Attempt 1 | HP 1(1) | XL 1 | Turn 3 | Score: 0")).toBeUndefined();
    expect(parseHeader("Action 5 | Level 1 | Attempt 1 | Score: 0 ")).toBeUndefined();
  });
});

describe("a terminal game's vitals in the header (XL, HP, Turn before the Score)", () => {
  const vitals = { xl: 3, hp: 7, hpMax: 16, turn: 812 };
  const shapes: [string, SectionHeader][] = [
    [
      "Action 0 | Level 1 | Attempt 2 | INITIAL STATE | XL 3 | HP 7(16) | Turn 812 | Score: 0",
      { action: 0, level: 1, attempt: 2, score: 0, kind: "initial", vitals },
    ],
    [
      "Action 12 | Level 2 | Attempt 1 | Plan Step 4/9 | XL 3 | HP 7(16) | Turn 812 | Score: 154",
      { action: 12, level: 2, attempt: 1, score: 154, kind: "action", planStep: { step: 4, total: 9 }, vitals },
    ],
    [
      "Action 5 | Level 2 | Attempt 1 | XL 3 | HP 7(16) | Turn 812 | Score: 154",
      { action: 5, level: 2, attempt: 1, score: 154, kind: "action", vitals },
    ],
  ];
  for (const [line, header] of shapes)
    test(`${line.slice(0, 40)}…: parsed, and written back byte for byte`, () => {
      expect(parseHeader(line)).toEqual(header);
      expect(formatHeader(header)).toBe(line);
      expect(parseHeader(`${line}\r`)).toEqual(header);
    });
  test("a grid game's header is written as before (no vitals)", () => {
    expect(formatHeader({ action: 5, level: 1, attempt: 1, score: 0, kind: "action" })).toBe(
      "Action 5 | Level 1 | Attempt 1 | Score: 0",
    );
  });
});

describe("writeSection: exact bytes", () => {
  test("initial section", () => {
    const s: LogSection = { header: { action: 0, level: 1, attempt: 1, score: 0, kind: "initial" }, frames: [], board: G2 };
    expect(writeSection(s, "ascii")).toBe(
      `${SEPARATOR}\nAction 0 | Level 1 | Attempt 1 | INITIAL STATE | Score: 0\n\n[INITIAL BOARD STATE]\n$8\n"f\n\n`,
    );
  });

  test("action with plan, click and frames", () => {
    const s: LogSection = {
      header: { action: 4, level: 1, attempt: 1, score: 1, kind: "action", planStep: { step: 4, total: 4 } },
      plan: "Click the tiles.",
      toolCall: { id: 6, x: 38, y: 54 },
      frames: [
        grid([
          [0, 0],
          [0, 0],
        ]),
        grid([
          [1, 1],
          [1, 1],
        ]),
      ],
      board: G2,
    };
    expect(writeSection(s, "hex")).toBe(
      `${SEPARATOR}\nAction 4 | Level 1 | Attempt 1 | Plan Step 4/4 | Score: 1\n\n\n[PLAN]\nClick the tiles.\n\n` +
        `Tool Call: ACTION6({"x": 38, "y": 54})\n[POST-ACTION BOARD STATE]\n[frame 1/2]\n00\n00\n[frame 2/2]\n11\n11\n[settled]\n01\nf9\n\n`,
    );
  });

  test("action without a loaded plan", () => {
    const s: LogSection = {
      header: { action: 9, level: 2, attempt: 3, score: 1, kind: "action" },
      toolCall: { id: 0 },
      frames: [],
      board: G2,
    };
    expect(writeSection(s, "ascii")).toBe(
      `${SEPARATOR}\nAction 9 | Level 2 | Attempt 3 | Score: 1\n\nTool Call: RESET({})\n[POST-ACTION BOARD STATE]\n$8\n"f\n\n`,
    );
  });

  test("appending sections one by one gives writeLog; sections are joined by one \\n", () => {
    const a: LogSection = { header: { action: 0, level: 1, attempt: 1, score: 0, kind: "initial" }, frames: [], board: G2 };
    const b: LogSection = {
      header: { action: 1, level: 1, attempt: 1, score: 0, kind: "action" },
      toolCall: { id: 1 },
      frames: [],
      board: G2,
    };
    const appended = sectionAppendText(a, "ascii", true) + sectionAppendText(b, "ascii", false);
    expect(appended).toBe(writeLog([a, b], "ascii"));
    expect(appended).toBe(`${writeSection(a, "ascii")}\n${writeSection(b, "ascii")}`);
    expect(appended.endsWith('"f\n\n')).toBe(true);
  });
});

describe("round trips of generated sections", () => {
  const plans: (string | undefined)[] = [
    undefined,
    "",
    "One line.",
    "Two\nlines\n",
    "Briefing:\n\n- a\n- b × → —",
    "ends with blank\n\n",
  ];
  const calls: (Action | undefined)[] = [undefined, { id: 0 }, { id: 5 }, { id: 6, x: 63, y: 0 }];
  for (const mode of ["ascii", "hex"] as GridMode[]) {
    for (const frameCount of [0, 1, 64]) {
      // Plan and tool-call shapes do not interact with the frame count: every shape with 0 and 1 frames, and
      // 64 frames (the most a step gives) with the richest plan and a click.
      const wide = frameCount > 1;
      test(`${mode}, ${frameCount} frames, ${wide ? "a multi-line plan and a click" : "every plan and tool-call shape"}`, () => {
        let seed = frameCount * 100;
        for (const plan of wide ? [plans[4]] : plans) {
          for (const toolCall of wide ? [calls[3]] : calls) {
            const s: LogSection = {
              header: { action: 3, level: 2, attempt: 1, score: 1, kind: "action", planStep: { step: 1, total: 3 } },
              frames: Array.from({ length: frameCount }, (_, i) => randomGrid(64, 64, seed + i)),
              board: randomGrid(64, 64, ++seed),
            };
            if (plan !== undefined) s.plan = plan;
            if (toolCall) s.toolCall = toolCall;
            const text = writeSection(s, mode);
            const back = parseSection(text)._unsafeUnwrap();
            sameSection(back, s);
            expect(writeSection(back, mode)).toBe(text);
            // The same section inside a log (followed by the join "\n") and with CRLF line ends parses the same.
            sameSection(parseSection(`${text}\n`)._unsafeUnwrap(), s);
            sameSection(parseSection(text.replaceAll("\n", "\r\n"))._unsafeUnwrap(), s);
          }
        }
      });
    }
  }

  test("initial section with a small non-square board", () => {
    const s: LogSection = {
      header: { action: 0, level: 1, attempt: 1, score: 0, kind: "initial" },
      frames: [],
      board: randomGrid(10, 4, 9),
    };
    const text = writeSection(s, "ascii");
    sameSection(parseSection(text)._unsafeUnwrap(), s);
  });
});

describe("escaping agent text in [PLAN]", () => {
  const structural = [
    SEPARATOR,
    "Tool Call: ACTION1({})",
    "Tool Call:",
    "[POST-ACTION BOARD STATE]",
    "[POST-ACTION",
    "[INITIAL BOARD STATE]",
    "[frame 1/2]",
    "[settled]",
    "[PLAN]",
    "Action 3 | Level 1 | Attempt 1 | Score: 0",
    "Action 7",
    ` ${SEPARATOR}`,
    "   [PLAN]",
  ];
  const plain = [
    "=".repeat(79),
    "=".repeat(81),
    `${SEPARATOR} `,
    "Action x",
    "Actions 3",
    "tool call: lower case",
    "[frames]",
    "[settledness",
    " [settle]",
    "text [PLAN] in the middle",
    "[plan]",
    "× — → multi-byte",
    "",
  ];

  test("each structural line gets exactly one leading space; round trip restores it", () => {
    for (const line of structural) {
      expect(escapePlan(line)).toBe(` ${line}`);
      expect(unescapePlan(escapePlan(line))).toBe(line);
    }
  });

  test("text without such lines is written byte for byte", () => {
    const text = plain.join("\n");
    expect(escapePlan(text)).toBe(text);
    expect(unescapePlan(text)).toBe(text);
  });

  test("structure after U+2028 and U+2029 is escaped too (some readers split lines there); \\r is a picture first", () => {
    expect(escapePlan("a\r[settled]")).toBe("a\u240d[settled]");
    expect(escapePlan("a\u2028Tool Call: x")).toBe("a\u2028 Tool Call: x");
    expect(escapePlan("a\u2029[PLAN]")).toBe("a\u2029 [PLAN]");
  });

  test("control characters other than tab and newline become pictures; literal pictures are quoted; round trip exact", () => {
    expect(escapePlan("a\u0000b\u0007c\u001bd\u007fe")).toBe("a\u2400b\u2407c\u241bd\u2421e");
    expect(escapePlan("tab\tand\nnewline")).toBe("tab\tand\nnewline");
    expect(escapePlan("\u2400 \u2426 \u2422")).toBe("\u2426\u2400 \u2426\u2426 \u2426\u2422");
    expect(unescapePlan("\u2426x stays")).toBe("\u2426x stays");
    // Every code unit below 0x80, every picture, and awkward neighbours, in one string and one by one.
    const all = [
      ...Array.from({ length: 0x80 }, (_, i) => String.fromCharCode(i)),
      ...Array.from({ length: 0x27 }, (_, i) => String.fromCharCode(0x2400 + i)),
    ];
    const hostile = [
      all.join(""),
      ...all,
      "\u2426\u0000",
      "\u2426\u2426\u2400",
      "\u0000\r\n[PLAN]",
      "a\r\nTool Call: x",
      `\u0000${SEPARATOR}`,
    ];
    for (const t of hostile) {
      const e = escapePlan(t);
      expect(/[\u0000-\u0008\u000b-\u001f\u007f]/.test(e)).toBe(false);
      expect(unescapePlan(e)).toBe(t);
    }
  });

  test("a NUL and other controls in a plan leave a log every reader takes as text", () => {
    const plan = "go\u0000left\r\n\u001b[31mred\u001b[0m\u0008\u007f";
    const s: LogSection = {
      header: { action: 1, level: 1, attempt: 1, score: 0, kind: "action", planStep: { step: 1, total: 1 } },
      plan,
      toolCall: { id: 1 },
      frames: [],
      board: G2,
    };
    const text = writeSection(s, "ascii");
    expect(text.includes("\u0000")).toBe(false);
    expect(parseSection(text)._unsafeUnwrap().plan).toBe(plan);
  });

  test("a hostile plan never produces a line a parser would take for structure", () => {
    const plan = [...structural, ...plain].join("\n");
    const s: LogSection = {
      header: { action: 2, level: 1, attempt: 1, score: 0, kind: "action", planStep: { step: 1, total: 2 } },
      plan,
      toolCall: { id: 6, x: 1, y: 2 },
      frames: [],
      board: G2,
    };
    const text = writeSection(s, "ascii");
    expect(separatorOffsets(text)).toEqual([0]);
    const lines = text.split("\n").map((l) => l.replace(/\r$/, ""));
    expect(lines.filter((l) => l.startsWith("Tool Call:"))).toEqual(['Tool Call: ACTION6({"x": 1, "y": 2})']);
    expect(lines.filter((l) => l === "[PLAN]").length).toBe(1);
    expect(lines.filter((l) => /^Action \d/.test(l)).length).toBe(1);
    expect(lines.filter((l) => l.startsWith("[POST-ACTION") || l.startsWith("[INITIAL")).length).toBe(1);
    expect(parseSection(text)._unsafeUnwrap().plan).toBe(plan);
    expect(parseLog(text).sections.length).toBe(1);
  });
});

describe("parseSection errors name what was expected", () => {
  const good = writeSection(
    {
      header: { action: 1, level: 1, attempt: 1, score: 0, kind: "action", planStep: { step: 1, total: 1 } },
      plan: "p",
      toolCall: { id: 2 },
      frames: [randomGrid(4, 4, 1)],
      board: randomGrid(4, 4, 2),
    },
    "ascii",
  );

  const cases: [string, string, string][] = [
    ["no separator", good.slice(1), "expected a separator line of 80 '='"],
    ["bad header", good.replace("Action 1 |", "Akshun 1 |"), 'expected a header "Action N | Level L'],
    ["no blank after header", good.replace("Score: 0\n\n", "Score: 0\nx\n"), "expected a blank line after the header"],
    ["plan never ends", good.slice(0, good.indexOf("Tool Call")), "the [PLAN] block never ends"],
    [
      "wrong marker",
      good.replace("[POST-ACTION BOARD STATE]", "[INITIAL BOARD STATE]"),
      "expected [POST-ACTION BOARD STATE] (action 1)",
    ],
    ["bad tool call", good.replace("ACTION2({})", "ACTION9({})"), "is not an action"],
    ["frame numbering", good.replace("[frame 1/1]", "[frame 2/1]"), 'expected "[frame 1/1]"'],
    ["no settled", good.replace("[settled]\n", ""), 'expected "[settled]" after 1 frames'],
    ["text after board", `${good}junk\n`, 'unexpected text after the board (action 1): "junk"'],
    ["ragged board", good.replace(/\n([^\n]{4})\n\n$/, "\n$1$$\n\n"), "board row 4 has 5 cells, expected 4"],
    ["cut at a row boundary", good.slice(0, good.length - 1 - 5 * 2), "stops inside its board (2 rows of 4 cells"],
  ];
  for (const [name, text, expected] of cases) {
    test(name, () => {
      const e = parseSection(text)._unsafeUnwrapErr();
      expect(e.message).toContain(expected);
    });
  }

  test("a square last board without the final newlines is whole", () => {
    expect(parseSection(good.replace(/\n+$/, ""))._unsafeUnwrap().board.height).toBe(4);
    expect(parseSection(good.replace(/\n+$/, "\n"))._unsafeUnwrap().board.height).toBe(4);
  });
});

describe("parseLog is tolerant", () => {
  const sections: LogSection[] = [
    { header: { action: 0, level: 1, attempt: 1, score: 0, kind: "initial" }, frames: [], board: randomGrid(64, 64, 1) },
    {
      header: { action: 1, level: 1, attempt: 1, score: 0, kind: "action", planStep: { step: 1, total: 2 } },
      plan: "ünïcödé × 🧩",
      toolCall: { id: 1 },
      frames: [],
      board: randomGrid(64, 64, 2),
    },
    {
      header: { action: 2, level: 1, attempt: 1, score: 0, kind: "action", planStep: { step: 2, total: 2 } },
      plan: "p",
      toolCall: { id: 6, x: 3, y: 4 },
      frames: [randomGrid(64, 64, 3)],
      board: randomGrid(64, 64, 4),
    },
  ];
  const log = writeLog(sections, "ascii");

  test("a whole log: every section, no cut", () => {
    const r = parseLog(log);
    expect(r.cut).toBeUndefined();
    expect(r.sections.length).toBe(3);
    r.sections.forEach((s, i) => sameSection(s, sections[i] as LogSection));
  });

  test("empty text is an empty log", () => {
    expect(parseLog("")).toEqual({ sections: [] });
  });

  test("text that is not a log gives no sections and a cut at 0", () => {
    for (const junk of ["hello\nworld\n", "\u0000\u0001\u00ff binary", `preamble\n${log}`]) {
      const r = parseLog(junk);
      expect(r.sections).toEqual([]);
      expect(r.cut?.index).toBe(0);
      expect(r.cut?.offset).toBe(0);
      expect(r.cut?.reason).toMatch(/not a prolong log|a prolong log starts with/);
    }
  });

  test("a log cut inside its last board: complete sections, and the cut one named by byte offset", () => {
    const thirdStart = log.lastIndexOf(SEPARATOR);
    const expectedOffset = Buffer.byteLength(log.slice(0, thirdStart));
    expect(expectedOffset).toBeGreaterThan(thirdStart); // the plan's multi-byte text makes bytes ≠ chars
    // Mid-row, at a row boundary, inside the frames, inside the header block.
    for (const cutAt of [log.length - 200, log.length - 2 - 65 * 3, log.length - 2 - 65 * 70, thirdStart + 100]) {
      const r = parseLog(log.slice(0, cutAt));
      expect(r.sections.length).toBe(2);
      expect(r.cut?.index).toBe(2);
      expect(r.cut?.offset).toBe(expectedOffset);
      expect(r.cut?.reason.length).toBeGreaterThan(10);
    }
  });

  test("a CRLF copy parses to the same sections", () => {
    const r = parseLog(log.replaceAll("\n", "\r\n"));
    expect(r.cut).toBeUndefined();
    r.sections.forEach((s, i) => sameSection(s, sections[i] as LogSection));
  });

  test("separators follow the native contract: 80 '=' at a line start, then \\n, \\r\\n or the end", () => {
    const pieces: [string, boolean][] = [
      [`${SEPARATOR}\n`, true],
      ["x\n", false],
      [`=${SEPARATOR}\n`, false],
      [`${SEPARATOR}=\n`, false],
      [` ${SEPARATOR}\n`, false],
      [`${SEPARATOR}\r\n`, true],
      ["y\n", false],
      [`${SEPARATOR}\rz\n`, false],
      [SEPARATOR, true],
    ];
    const expected: number[] = [];
    let t = "";
    for (const [piece, isSeparator] of pieces) {
      if (isSeparator) expected.push(t.length);
      t += piece;
    }
    expect(expected.length).toBe(3);
    expect(separatorOffsets(t)).toEqual(expected);
  });
});

describe("generateLog", () => {
  test("deterministic for a seed; different seeds differ", () => {
    expect(generateLog({ sections: 40, seed: 3 })).toBe(generateLog({ sections: 40, seed: 3 }));
    expect(generateLog({ sections: 40, seed: 3 })).not.toBe(generateLog({ sections: 40, seed: 4 }));
  });

  test("a plain log is exactly what writeLog makes of its own parse", () => {
    for (const mode of ["ascii", "hex"] as GridMode[]) {
      const log = generateLog({ sections: 400, seed: 11, mode });
      const r = parseLog(log);
      expect(r.cut).toBeUndefined();
      expect(r.sections.length).toBe(400);
      expect(writeLog(r.sections, mode)).toBe(log);
      expect(r.sections[0]?.header.kind).toBe("initial");
      expect(r.sections.map((s) => s.header.action)).toEqual(Array.from({ length: 400 }, (_, i) => i));
      expect(r.sections.some((s) => s.plan === undefined && s.header.kind === "action")).toBe(true);
      expect(r.sections.some((s) => s.header.planStep === undefined && s.header.kind === "action")).toBe(true);
    }
  });

  test("--lines: at least that many lines, overshooting by less than one section", () => {
    const log = generateLog({ lines: 20000, seed: 2 });
    const lines = log.split("\n").length - 1;
    expect(lines).toBeGreaterThanOrEqual(20000);
    expect(lines).toBeLessThan(20000 + 65 * 66);
  });

  test("random-walk boards change a few cells per action; some sections have 2..65 frames", () => {
    const { sections } = parseLog(generateLog({ lines: 100000, seed: 5 }));
    const frameCounts = sections.map((s) => s.frames.length).filter((n) => n > 0);
    expect(frameCounts.length).toBeGreaterThan(5);
    expect(Math.max(...frameCounts)).toBeLessThanOrEqual(64);
    expect(Math.max(...frameCounts)).toBeGreaterThan(8);
    let small = 0;
    for (let i = 1; i < sections.length; i++) {
      const a = (sections[i - 1] as LogSection).board.cells,
        b = (sections[i] as LogSection).board.cells;
      let changed = 0;
      for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) changed++;
      if (changed <= 8) small++;
    }
    expect(small / (sections.length - 1)).toBeGreaterThan(0.9);
    expect(generateLog({ lines: 100000, seed: 5, frames: false })).not.toContain("[frame ");
  });

  test("crlf and finalNewline options", () => {
    const crlf = generateLog({ sections: 30, crlf: true });
    expect(crlf.replaceAll("\r\n", "")).not.toContain("\n");
    const noFinal = generateLog({ sections: 30, finalNewline: false });
    expect(noFinal.endsWith("\n")).toBe(false);
    const r = parseLog(noFinal);
    expect([r.sections.length, r.cut]).toEqual([30, undefined]);
    expect(parseLog(crlf).sections.length).toBe(30);
  });

  test("adversarial logs hold the hostile text the scanners must survive", () => {
    const log = generateLog({ lines: 60000, seed: 9, adversarial: true });
    const lines = log.split("\n");
    expect(lines).toContain("=".repeat(79));
    expect(lines).toContain("=".repeat(81));
    expect(log).toContain("\r");
    expect(log).toMatch(/[\u{1F000}-\u{1FFFF}]/u);
    expect(lines).toContain(` ${SEPARATOR}`); // escaped by writeSection
    // Deliberately hostile: some raw 80-'=' lines sit inside [PLAN] text. Each one splits its section in two:
    // the half before it has a plan that never ends, the half after it has no header.
    const starts = separatorOffsets(log);
    const texts = starts.map((s, i) => log.slice(s, starts[i + 1] ?? log.length));
    const headerless = texts.filter((t) => !/^={80}\r?\nAction \d/.test(t)).length;
    expect(headerless).toBeGreaterThan(0);
    let ok = 0;
    texts.forEach((t, i) => {
      const p = parseSection(t);
      if (p.isOk()) {
        ok++;
        // A raw "\r" (as older writers left it) is written back as its picture.
        expect(writeSection(p.value, "ascii") + (i < texts.length - 1 ? "\n" : "")).toBe(t.replaceAll("\r", "\u240d"));
      }
    });
    expect(ok).toBeGreaterThan(texts.length / 2);
    expect(texts.length - ok).toBeLessThanOrEqual(2 * headerless);
    expect(parseLog(log).cut?.reason).toContain("[PLAN] block never ends");
  });
});

describe("episode marker (lifetime arm)", () => {
  test("an INITIAL STATE section carries [EPISODE i/K] before its board marker and round-trips", async () => {
    const { writeSection, parseSection } = await import("../../src/log/format.ts");
    const cells = new Uint8Array(4).fill(3);
    const s = {
      header: { action: 12, level: 1, attempt: 1, score: 0, kind: "initial" as const },
      frames: [],
      board: { width: 2, height: 2, cells },
      episode: { index: 2, total: 5 },
    };
    const text = writeSection(s, "ascii");
    expect(text).toBe(
      `${"=".repeat(80)}\nAction 12 | Level 1 | Attempt 1 | INITIAL STATE | Score: 0\n\n[EPISODE 2/5]\n[INITIAL BOARD STATE]\nhh\nhh\n\n`,
    );
    expect(parseSection(text)._unsafeUnwrap()).toEqual(s);
  });
});
