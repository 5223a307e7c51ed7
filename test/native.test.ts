// Differential tests: every native function against its plain-TS twin in test/oracle/, on the real
// published logs, on generated (adversarial) logs and on small hand-made edge cases.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { generateLog } from "../src/bench/gen-log.ts";
import {
  blake3,
  boardDiff,
  cellChanges,
  prefixCheck,
  sectionIndex,
  sectionRowsText,
  xxh3_128,
  type SectionTable,
} from "../src/native.ts";
import { blake3Oracle } from "./oracle/blake3.ts";
import { boardDiffOracle, cellChangesOracle } from "./oracle/diff.ts";
import { prefixCheckOracle } from "./oracle/prefix.ts";
import { sectionRowsTextOracle } from "./oracle/rows.ts";
import { sectionIndexOracle } from "./oracle/sections.ts";
import { xxh3_128Oracle } from "./oracle/xxh3.ts";

const FIXTURES = path.resolve(import.meta.dir, "../..", "shared", "fixtures", "prolong-release");
const SEP = "=".repeat(80);
const enc = (s: string) => new TextEncoder().encode(s);
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Plain object of plain arrays, so a mismatch prints which field and section differ. */
function plain(t: SectionTable): Record<string, number | number[]> {
  const out: Record<string, number | number[]> = { count: t.count, preambleEnd: t.preambleEnd, lines: t.lines };
  for (const k of [
    "start",
    "end",
    "kind",
    "action",
    "level",
    "attempt",
    "planStep",
    "planTotal",
    "score",
    "frames",
    "boardStart",
    "boardEnd",
    "complete",
  ] as const) {
    out[k] = Array.from(t[k]);
  }
  return out;
}

function expectSameIndex(buf: Uint8Array): SectionTable {
  const native = sectionIndex(buf);
  expect(plain(native)).toEqual(plain(sectionIndexOracle(buf)));
  expect(Array.from(cellChanges(buf, native))).toEqual(Array.from(cellChangesOracle(buf, native)));
  expect(utf8.decode(sectionRowsText(buf))).toBe(sectionRowsTextOracle(buf));
  return native;
}

const NO_FIXTURES = !existsSync(FIXTURES);
const fixturesNote = NO_FIXTURES
  ? ` (skipped: ${FIXTURES} is absent; it ships with the project's shared data, not the repo)`
  : "";

describe.skipIf(NO_FIXTURES)(`real logs (../shared/fixtures/prolong-release)${fixturesNote}`, () => {
  const games = { ft09: 83, lp85: 113, m0r0: 273, cn04: 250 } as const;
  for (const [game, sections] of Object.entries(games)) {
    test(`${game}: ${sections} sections, native = oracle, workspace copy is a prefix`, () => {
      const master = readFileSync(path.join(FIXTURES, game, "logs.txt"));
      const copy = readFileSync(path.join(FIXTURES, game, "workspace", "logs.txt"));
      const t = expectSameIndex(master);
      expect(t.count).toBe(sections);
      expect(t.kind[0]).toBe(0);
      expect(Array.from(t.kind.subarray(1)).every((k) => k === 1)).toBe(true);
      expect(Array.from(t.complete).every((c) => c === 1)).toBe(true);
      expect(t.action[t.count - 1]).toBe(sections - 1);
      expect(prefixCheck(master, copy)).toBe(-1);
      expect(prefixCheckOracle(master, copy)).toBe(-1);
      // A changed byte in the copy is found where it is.
      const tampered = Uint8Array.from(copy);
      const at = Math.floor(copy.length * 0.7);
      tampered[at] = tampered[at]! ^ 1;
      expect(prefixCheck(master, tampered)).toBe(at);
      expect(xxh3_128(master, 1000, 90_000)).toBe(xxh3_128(master.subarray(1000, 90_000)));
      expect(blake3(master, 0, 5000)).toBe(blake3Oracle(master, 0, 5000));
    });
  }
});

describe("generated logs (src/bench/gen-log.ts)", () => {
  const cases = [
    { name: "plain", opts: { sections: 120, seed: 1 } },
    { name: "adversarial", opts: { sections: 200, seed: 2, adversarial: true } },
    { name: "adversarial CRLF", opts: { sections: 120, seed: 3, adversarial: true, crlf: true } },
    { name: "no final newline", opts: { sections: 60, seed: 4, adversarial: true, finalNewline: false } },
    { name: "hex grids", opts: { sections: 60, seed: 5, mode: "hex" as const } },
  ];
  for (const c of cases) {
    test(`${c.name}: native = oracle`, () => {
      const buf = enc(generateLog(c.opts));
      const t = expectSameIndex(buf);
      expect(t.count).toBeGreaterThanOrEqual(c.opts.sections);
      // Every cut of the log is a prefix of it; cutting mid-board keeps the index consistent.
      const cut = buf.subarray(0, Math.floor(buf.length / 2) + 7);
      expect(prefixCheck(buf, cut)).toBe(-1);
      expectSameIndex(cut);
    });
  }
});

describe("edge cases", () => {
  const header = "Action 1 | Level 1 | Attempt 1 | Plan Step 1/2 | Score: 0";
  const VITALS = "Action 2 | Level 1 | Attempt 1 | XL 1 | HP 16(16) | Turn 3 | Score: 0";
  const board = (rows: number, width: number, c = "a") => (c.repeat(width) + "\n").repeat(rows);
  const cases: Record<string, string> = {
    "empty buffer": "",
    "no separator": "just some text\nand more\n",
    "separator at end without newline": `pre\n${SEP}`,
    "separator with CR at the very end": `${SEP}\r`,
    "CRLF separator": `${SEP}\r\n${header}\r\n[POST-ACTION BOARD STATE]\r\n${board(2, 2).replaceAll("\n", "\r\n")}`,
    "80 '=' not at line start": ` ${SEP}\nx${SEP}\n`,
    "79 and 81 '='": `${"=".repeat(79)}\n${"=".repeat(81)}\n${SEP}\n${header}\n`,
    "'=' lines inside [PLAN]": `${SEP}\n${header}\n[PLAN]\n${"=".repeat(79)}\n${SEP}=\n${SEP}\nTool Call: ACTION1({})\n[POST-ACTION BOARD STATE]\n${board(3, 3)}`,
    "cut mid-board": `${SEP}\n${header}\n[POST-ACTION BOARD STATE]\n${board(64, 64)}\n${SEP}\n${header}\n[POST-ACTION BOARD STATE]\n${board(10, 64)}aaa`,
    "frames and settled": `${SEP}\n${header}\n[POST-ACTION BOARD STATE]\n[frame 1/2]\n${board(2, 2)}[frame 2/2]\n${board(2, 2, "b")}[settled]\n${board(2, 2, "c")}\n`,
    "multi-byte UTF-8 and brackets": `${SEP}\n${header}\n[PLAN]\nné ✓ 🧩 [x]\n[settled]\n[POST-ACTION BOARD STATE]\n${board(2, 2)}[a\n\n`,
    "tool calls in other scripts, with a BOM, bad bytes and CR": `${SEP}\n${header}\nTool Call: ACTION6({"x": "né 🧩"})\r\n[settled]\n${board(2, 2)}\n${SEP}\n${header}\nTool Call: \ufeffACTION1({})\n${SEP}\n${header}\nTool Call: ACTION2(\u{1F9E9}\u00e9)\n${SEP}\n${header}\n Tool Call: not at a line start\nTool Call:\n${SEP}\nAction 9 | Level 1 | Attempt 1 | INITIAL STATE | Score: 0\nTool Call: ACTION3({})\n`,
    "terminal-game vitals in headers": `${SEP}\nAction 0 | Level 1 | Attempt 2 | INITIAL STATE | XL 1 | HP 16(16) | Turn 1 | Score: 0\n${SEP}\nAction 3 | Level 2 | Attempt 1 | Plan Step 2/5 | XL 3 | HP 0(16) | Turn 812 | Score: 154\n${SEP}\nAction 4 | Level 2 | Attempt 1 | XL 3 | HP 7(16) | Turn 9 | Score: 1\n${SEP}\nAction 5 | Level 2 | Attempt 1 | XL 3 | HP -1(16) | Turn 9 | Score: 1\n${SEP}\nAction 6 | Level 2 | Attempt 1 | HP 7(16) | XL 3 | Turn 9 | Score: 1\n${SEP}\nAction 7 | Level 2 | Attempt 1 | XL 3 | HP 7(16) | Turn 99999999999 | Score: 1\n`,
    "terminal screens, whole and cut": `${SEP}\n${VITALS}\n[POST-ACTION BOARD STATE]\n${board(23, 80)}\n${SEP}\n${VITALS}\n[POST-ACTION BOARD STATE]\n${board(23, 80)}\n\n${SEP}\n${VITALS}\n[POST-ACTION BOARD STATE]\n${board(9, 80)}`,
    "bad headers": `${SEP}\nAction 1 | Level 1 | Attempt 1 | Score: 99999999999\n${SEP}\nAction 2 | Level 1 | Attempt 1 | Score: 3\n${SEP}\nAction x\n${SEP}\n${SEP}\n`,
  };
  for (const [name, text] of Object.entries(cases)) {
    test(`${name}: native = oracle`, () => {
      expectSameIndex(enc(text));
    });
  }

  test("a terminal game's screen is whole when the blank line after it is there, not when it is square", () => {
    const t = sectionIndex(enc(cases["terminal screens, whole and cut"]!));
    expect([...t.complete]).toEqual([1, 1, 0]);
    // A grid board of 23 rows of 80 followed by a blank line is still cut: only a terminal header says otherwise.
    const grid = sectionIndex(enc(`${SEP}\n${header}\n[POST-ACTION BOARD STATE]\n${board(23, 80)}\n`));
    expect([...grid.complete]).toEqual([0]);
  });

  test("what the edge cases index to", () => {
    expect(sectionIndex(enc("")).count).toBe(0);
    expect(sectionIndex(enc("abc\n")).preambleEnd).toBe(4);
    const atEnd = sectionIndex(enc(`pre\n${SEP}`));
    expect([atEnd.count, atEnd.start[0], atEnd.end[0], atEnd.kind[0]]).toEqual([1, 4, 84, 2]);
    expect(sectionIndex(enc(`${SEP}\r`)).count).toBe(0);
    expect(sectionIndex(enc(` ${SEP}\nx${SEP}\n`)).count).toBe(0);
    const crlf = sectionIndex(enc(cases["CRLF separator"]!));
    expect([crlf.count, crlf.kind[0], crlf.planTotal[0], crlf.complete[0]]).toEqual([1, 1, 2, 1]);
    const cut = sectionIndex(enc(cases["cut mid-board"]!));
    expect([cut.count, cut.complete[0], cut.complete[1]]).toEqual([2, 1, 0]);
    const frames = sectionIndex(enc(cases["frames and settled"]!));
    expect([frames.frames[0], frames.complete[0]]).toEqual([3, 1]);
    const bad = sectionIndex(enc(cases["bad headers"]!));
    expect(Array.from(bad.kind)).toEqual([2, 1, 2, 2, 2]);
    expect(bad.score[1]).toBe(3);
  });

  test("sectionRowsText: ill-formed UTF-8 in a tool call is replaced as TextDecoder does", () => {
    const pre = enc(`${SEP}\n${header}\nTool Call: A`);
    const post = enc(`B\n[settled]\n${board(2, 2)}`);
    for (const bad of [[0xff], [0xe2, 0x9c], [0xf0, 0x9f, 0xa7], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xef, 0xbb, 0xbf]]) {
      const buf = new Uint8Array([...pre, ...bad, ...post]);
      expectSameIndex(buf);
    }
  });

  test("sectionRowsText: a table of 5,000 rows (written by two threads) = oracle", () => {
    const one = (i: number) =>
      `${SEP}\nAction ${i} | Level 1 | Attempt 1 | Plan Step ${i % 9}/9 | Score: 0\nTool Call: ACTION${i % 7}(${"é".repeat(i % 5)})\n[settled]\n${board(3, 3, i % 4 === 0 ? "b" : "a")}\n`;
    expectSameIndex(enc(Array.from({ length: 5000 }, (_, i) => one(i)).join("")));
  });

  test("prefixCheck: equal, shorter, longer, different", () => {
    const m = enc("hello world");
    expect(prefixCheck(m, m)).toBe(-1);
    expect(prefixCheck(m, enc(""))).toBe(-1);
    expect(prefixCheck(m, enc("hello"))).toBe(-1);
    expect(prefixCheck(m, enc("hello world!"))).toBe(11);
    expect(prefixCheck(m, enc("help"))).toBe(3);
    expect(prefixCheck(enc(""), enc("x"))).toBe(0);
    expect(prefixCheck(Buffer.from("abc"), new Uint8Array([97, 98, 100]))).toBe(2);
  });

  test("hashes: known vectors, ranges, oracles on many lengths", () => {
    expect(blake3(enc(""))).toBe("af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262");
    expect(blake3(enc("abc"))).toBe("6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85");
    expect(xxh3_128(enc(""))).toBe("99aa06d3014798d86001c324468d497f");
    const buf = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 31 + (i >> 7)) % 251);
    expect(xxh3_128(buf, 10, 20)).toBe(xxh3_128(buf.subarray(10, 20)));
    expect(blake3(buf, 10, 20)).toBe(blake3(buf.subarray(10, 20)));
    for (const n of [0, 1, 3, 4, 8, 9, 16, 17, 128, 129, 240, 241, 1023, 1024, 1025, 2049, 5000, 65_537]) {
      // Ranges must agree with copies, and differ by length (the xxh3-128 oracle block below compares values).
      expect([n, xxh3_128(buf, 0, n)]).toEqual([n, xxh3_128(buf.slice(0, n))]);
      if (n > 0) expect(xxh3_128(buf, 0, n)).not.toBe(xxh3_128(buf, 0, n - 1));
      expect([n, blake3(buf, 0, n)]).toEqual([n, blake3Oracle(buf, 0, n)]);
    }
  });

  test("boardDiff: changed cells, CRLF, shape mismatch", () => {
    expect(Array.from(boardDiff(enc("ab\ncd\n"), enc("ab\ncd")))).toEqual([]);
    expect(Array.from(boardDiff(enc("ab\ncd\n"), enc("xb\ncx\n")))).toEqual([0, 3]);
    expect(Array.from(boardDiff(enc("abc\r\ndef\r\n"), enc("abc\ndxf\n")))).toEqual([4]);
    expect(Array.from(boardDiffOracle(enc("abc\r\ndef\r\n"), enc("abc\ndxf\n")))).toEqual([4]);
    expect(() => boardDiff(enc("ab\ncd\n"), enc("ab\ncd\nef\n"))).toThrow(RangeError);
    expect(() => boardDiff(enc("ab\ncd\n"), enc("ab\ncde\n"))).toThrow(RangeError);
    const a = enc(board(64, 64));
    const b = Uint8Array.from(a);
    b[65 * 10 + 5] = "z".charCodeAt(0);
    expect(Array.from(boardDiff(a, b))).toEqual([64 * 10 + 5]);
  });

  test("wrong argument types throw TypeError", () => {
    const bad = [undefined, null, "text", 42, {}, [1, 2], new Int32Array(4), new Float64Array(2)];
    for (const v of bad) {
      expect(() => sectionIndex(v as unknown as Uint8Array)).toThrow(TypeError);
      expect(() => prefixCheck(v as unknown as Uint8Array, enc("a"))).toThrow(TypeError);
      expect(() => prefixCheck(enc("a"), v as unknown as Uint8Array)).toThrow(TypeError);
      expect(() => xxh3_128(v as unknown as Uint8Array)).toThrow(TypeError);
      expect(() => blake3(v as unknown as Uint8Array)).toThrow(TypeError);
      expect(() => boardDiff(v as unknown as Uint8Array, enc("a"))).toThrow(TypeError);
      expect(() => cellChanges(v as unknown as Uint8Array, sectionIndex(enc("")))).toThrow(TypeError);
      expect(() => sectionRowsText(v as unknown as Uint8Array)).toThrow(TypeError);
    }
    expect(() => xxh3_128(enc("abc"), "1" as unknown as number)).toThrow(TypeError);
    expect(() => cellChanges(enc(""), null as unknown as SectionTable)).toThrow(TypeError);
    expect(() => cellChanges(enc(""), { boardStart: [1], boardEnd: [2] } as unknown as SectionTable)).toThrow(TypeError);
  });

  test("out-of-range bounds throw RangeError", () => {
    const b = enc("abcdef");
    for (const [s, e] of [
      [-1, 3],
      [0, 7],
      [4, 2],
      [1.5, 3],
      [Number.NaN, 2],
      [0, Number.POSITIVE_INFINITY],
    ] as const) {
      expect(() => xxh3_128(b, s, e)).toThrow(RangeError);
      expect(() => blake3(b, s, e)).toThrow(RangeError);
    }
    expect(xxh3_128(b, 6, 6)).toBe(xxh3_128(enc("")));
    // A table from a longer buffer does not fit a shorter one.
    const log = enc(`${SEP}\n${"Action 1 | Level 1 | Attempt 1 | Score: 0"}\n[settled]\n${board(2, 2)}`);
    expect(() => cellChanges(log.subarray(0, 20), sectionIndex(log))).toThrow(RangeError);
  });
});

describe("borrows never outlive JavaScript", () => {
  // The proof of concept from issue 18: cellChanges used to borrow `buf`, then read the table's properties;
  // a getter on the table can run any JavaScript, here one that detaches (transfers away) the very buffer
  // being borrowed, so the native code went on reading freed memory. Properties are now read first.
  function logWithBoards(n: number): Uint8Array {
    const rows = ("a".repeat(64) + "\n").repeat(64);
    const sections = Array.from(
      { length: n },
      (_, i) => `${SEP}\nAction ${i} | Level 1 | Attempt 1 | Score: 0\n[settled]\n${rows}`,
    );
    return enc(sections.join("\n"));
  }

  test("a getter that detaches buf: the call sees the detached (empty) buffer and refuses the table's ranges", () => {
    const log = logWithBoards(4);
    const real = sectionIndex(log);
    const before = Array.from(cellChanges(log, real));
    const hostile = {
      ...real,
      get boardStart() {
        (log.buffer as ArrayBuffer).transfer();
        return real.boardStart;
      },
    };
    expect(() => cellChanges(log, hostile as SectionTable)).toThrow(RangeError);
    expect(log.length).toBe(0); // the getter did run and detach it
    expect(before.length).toBe(4);
  });

  test("a getter that detaches the table's own boardStart array: refused, not read after free", () => {
    const log = logWithBoards(3);
    const real = sectionIndex(log);
    const starts = real.boardStart;
    const hostile = {
      ...real,
      boardStart: starts,
      get boardEnd() {
        (starts.buffer as ArrayBuffer).transfer();
        return real.boardEnd;
      },
    };
    expect(() => cellChanges(log, hostile as SectionTable)).toThrow(RangeError);
    expect(starts.length).toBe(0);
  });
});

describe("xxh3-128: native = TS oracle (test/oracle/xxh3.ts)", () => {
  const MASK64 = (1n << 64n) - 1n;
  /** xxHash's sanity-check buffer (cli/xsum_sanity_check.c): byte i = top byte of PRIME32 * PRIME64^i mod 2^64. */
  function sanityBuffer(length: number): Uint8Array {
    const out = new Uint8Array(length);
    let byteGen = 2654435761n;
    for (let i = 0; i < length; i++) {
      out[i] = Number(byteGen >> 56n);
      byteGen = (byteGen * 11400714785074694797n) & MASK64;
    }
    return out;
  }
  // Pseudo-random bytes for every test below; the pinned vectors hash its prefixes.
  const random = sanityBuffer((1 << 20) + 4096);

  /** Native on buf[start, end) = the oracle on it = native on a copy of it; returns the digest. */
  function expectSame(buf: Uint8Array, start = 0, end = buf.length): string {
    const native = xxh3_128(buf, start, end);
    // The length rides along so a failure names the input-length path that broke.
    expect([end - start, native]).toEqual([end - start, xxh3_128Oracle(buf, start, end)]);
    expect(xxh3_128(buf.slice(start, end))).toBe(native);
    return native;
  }

  // Published XXH128 vectors, seed 0 (xxHash cli/xsum_sanity_check.c; shown here high 64 bits first).
  // Lengths chosen there to hit each path: 1-3, 4-8, 9-16, 17-32, 33-64, 65-96, 129-240, one block with an
  // overlapping last stripe, one block ending on a stripe, 2 blocks, 3 blocks (aligned and overlapping).
  const SANITY_VECTORS: ReadonlyArray<readonly [number, string]> = [
    [0, "99aa06d3014798d86001c324468d497f"],
    [1, "a6cd5e9392000f6ac44bdff4074eecdb"],
    [6, "082afe0b8162d12a3e7039bdda43cfc6"],
    [12, "6e3efd8fc7802b18061a192713f69ad9"],
    [24, "0ce966e4678d37611e7044d28b1b901d"],
    [48, "a002ac4e5478227ef942219aed80f67b"],
    [81, "4952f58181ab00425e8bafb9f95fb803"],
    [222, "337e09641b948717f1aebd597cec6b3a"],
    [403, "1b6de21e332dd73dcdeb804d65c6dea4"],
    [512, "18d2d110dcc9bca1617e49599013cb6b"],
    [2048, "f736557fd47073a5dd59e2c3a5f038e0"],
    [2240, "ccb134fbfa7ce49d6e73a90539cf2948"],
    [2367, "e89c0f6ff369b427cb37aeb9e5d361ed"],
  ];

  test("published vectors: the xxHash sanity buffer and short strings", () => {
    for (const [length, digest] of SANITY_VECTORS) {
      expect([length, xxh3_128Oracle(random, 0, length)]).toEqual([length, digest]);
      expect([length, xxh3_128(random, 0, length)]).toEqual([length, digest]);
    }
    // XXH128("abc") and XXH128("a"), as published by other XXH3 ports' test suites.
    expect(xxh3_128Oracle(enc("abc"))).toBe("06b05ab6733a618578af5f94892f3950");
    expect(xxh3_128(enc("abc"))).toBe("06b05ab6733a618578af5f94892f3950");
    expect(xxh3_128Oracle(enc("a"))).toBe("a96faf705af16834e6c632b61e964e1f");
  });

  test("every length 0..300 (all short and medium paths, first large ones)", () => {
    const digests = new Set<string>();
    for (let n = 0; n <= 300; n++) digests.add(expectSame(random, 0, n));
    expect(digests.size).toBe(301);
  });

  test("stripe and block edges, 1 KB .. 1 MB", () => {
    const lengths = [
      255,
      256,
      257,
      319,
      320,
      321,
      1023,
      1024,
      1025,
      1087,
      1088,
      1089,
      2047,
      2048,
      2049,
      3071,
      3072,
      3073,
      4096 + 63,
      10_000,
      65_535,
      65_536,
      65_537,
      (1 << 20) - 1,
      1 << 20,
      (1 << 20) + 4096,
    ];
    for (const n of lengths) expectSame(random, 0, n);
  });

  test("structured inputs on every path: constant bytes, ascending bytes, one set bit, log text", () => {
    const lengths = [
      1, 2, 3, 4, 5, 8, 9, 15, 16, 17, 31, 32, 33, 64, 65, 96, 97, 127, 128, 129, 160, 239, 240, 241, 1024, 1025, 4000,
    ];
    const makers: Record<string, (n: number) => Uint8Array> = {
      zeros: (n) => new Uint8Array(n),
      ones: (n) => new Uint8Array(n).fill(0xff),
      high: (n) => new Uint8Array(n).fill(0x80),
      ascending: (n) => Uint8Array.from({ length: n }, (_, i) => i & 0xff),
      "one bit at the end": (n) => {
        const b = new Uint8Array(n);
        b[n - 1] = 1;
        return b;
      },
      "separator lines": (n) => enc(`${SEP}\n`.repeat(Math.ceil(n / 81))).subarray(0, n),
    };
    for (const [name, make] of Object.entries(makers)) {
      const digests = new Set<string>();
      for (const n of lengths) {
        const buf = make(n);
        expect([name, n, xxh3_128(buf)]).toEqual([name, n, xxh3_128Oracle(buf)]);
        digests.add(xxh3_128(buf));
      }
      expect([name, digests.size]).toEqual([name, lengths.length]);
    }
  });

  test("byte ranges: unaligned starts, every length class, start = end", () => {
    const buf = random.subarray(0, 70_000);
    const lengths = [0, 1, 3, 4, 8, 9, 16, 17, 128, 129, 240, 241, 1024, 1025, 5000, 60_000];
    for (const start of [0, 1, 3, 7, 8, 13, 64, 1000, 9_999]) {
      for (const n of lengths) expectSame(buf, start, start + n);
    }
    expect(xxh3_128Oracle(buf.slice(1000, 6000))).toBe(xxh3_128Oracle(buf, 1000, 6000));
    expectSame(buf, buf.length, buf.length);
    expectSame(buf, 12_345, buf.length);
    // A range is hashed as its own bytes: not as the prefix it sits in.
    expect(xxh3_128Oracle(buf, 1, 300)).not.toBe(xxh3_128Oracle(buf, 0, 299));
  });

  test.skipIf(NO_FIXTURES)(`real logs: whole file and every section${fixturesNote}`, () => {
    for (const game of ["ft09", "lp85", "m0r0", "cn04"]) {
      const master = readFileSync(path.join(FIXTURES, game, "logs.txt"));
      expect([game, xxh3_128(master)]).toEqual([game, xxh3_128Oracle(master)]);
      const t = sectionIndex(master);
      expect(t.count).toBeGreaterThan(80);
      for (let i = 0; i < t.count; i++) {
        const start = t.start[i]!;
        const end = t.end[i]!;
        expect([game, i, xxh3_128(master, start, end)]).toEqual([game, i, xxh3_128Oracle(master, start, end)]);
      }
    }
  });
});
