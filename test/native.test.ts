// Differential tests: every native function against its plain-TS twin in test/oracle/, on the real
// published logs, on generated (adversarial) logs and on small hand-made edge cases.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { generateLog } from "../scripts/gen-log.ts";
import { blake3, boardDiff, cellChanges, prefixCheck, sectionIndex, xxh3_128, type SectionTable } from "../src/native.ts";
import { blake3Oracle } from "./oracle/blake3.ts";
import { boardDiffOracle, cellChangesOracle } from "./oracle/diff.ts";
import { prefixCheckOracle } from "./oracle/prefix.ts";
import { sectionIndexOracle } from "./oracle/sections.ts";

const FIXTURES = path.resolve(import.meta.dir, "../..", "shared", "fixtures", "prolong-release");
const SEP = "=".repeat(80);
const enc = (s: string) => new TextEncoder().encode(s);

/** Plain object of plain arrays, so a mismatch prints which field and section differ. */
function plain(t: SectionTable): Record<string, number | number[]> {
  const out: Record<string, number | number[]> = { count: t.count, preambleEnd: t.preambleEnd };
  for (const k of ["start", "end", "kind", "action", "level", "attempt", "planStep", "planTotal", "score", "frames",
    "boardStart", "boardEnd", "complete"] as const) {
    out[k] = Array.from(t[k]);
  }
  return out;
}

function expectSameIndex(buf: Uint8Array): SectionTable {
  const native = sectionIndex(buf);
  expect(plain(native)).toEqual(plain(sectionIndexOracle(buf)));
  expect(Array.from(cellChanges(buf, native))).toEqual(Array.from(cellChangesOracle(buf, native)));
  return native;
}

describe("real logs (../shared/fixtures/prolong-release)", () => {
  const games = { ft09: 83, lp85: 113, m0r0: 273, cn04: 250 } as const;
  if (!existsSync(FIXTURES)) {
    console.log(`skipping real-log tests: ${FIXTURES} is absent (it ships with the project's shared data, not the repo)`);
    return;
  }
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

describe("generated logs (scripts/gen-log.ts)", () => {
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
    "bad headers": `${SEP}\nAction 1 | Level 1 | Attempt 1 | Score: 99999999999\n${SEP}\nAction 2 | Level 1 | Attempt 1 | Score: 3\n${SEP}\nAction x\n${SEP}\n${SEP}\n`,
  };
  for (const [name, text] of Object.entries(cases)) {
    test(`${name}: native = oracle`, () => {
      expectSameIndex(enc(text));
    });
  }

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
      // No TS twin of xxh3-128 yet (see native/README.md): ranges must agree with copies, and differ by length.
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
    }
    expect(() => xxh3_128(enc("abc"), "1" as unknown as number)).toThrow(TypeError);
    expect(() => cellChanges(enc(""), null as unknown as SectionTable)).toThrow(TypeError);
    expect(() => cellChanges(enc(""), { boardStart: [1], boardEnd: [2] } as unknown as SectionTable)).toThrow(TypeError);
  });

  test("out-of-range bounds throw RangeError", () => {
    const b = enc("abcdef");
    for (const [s, e] of [[-1, 3], [0, 7], [4, 2], [1.5, 3], [Number.NaN, 2], [0, Number.POSITIVE_INFINITY]] as const) {
      expect(() => xxh3_128(b, s, e)).toThrow(RangeError);
      expect(() => blake3(b, s, e)).toThrow(RangeError);
    }
    expect(xxh3_128(b, 6, 6)).toBe(xxh3_128(enc("")));
    // A table from a longer buffer does not fit a shorter one.
    const log = enc(`${SEP}\n${"Action 1 | Level 1 | Attempt 1 | Score: 0"}\n[settled]\n${board(2, 2)}`);
    expect(() => cellChanges(log.subarray(0, 20), sectionIndex(log))).toThrow(RangeError);
  });
});
