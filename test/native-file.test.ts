// The native file and line functions against their plain-TS twins (test/oracle/file.ts) on the same inputs:
// mapped bytes equal read bytes; what is not a regular file is refused the same way, never waited on.
import { afterAll, describe, expect, test } from "bun:test";
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { generateLog } from "../src/bench/gen-log.ts";
import { lineCount, mapFile, prefixCheck, sectionIndex } from "../src/native.ts";
import { lineCountOracle, mapFileOracle } from "./oracle/file.ts";
import { prefixCheckOracle } from "./oracle/prefix.ts";

const dir = mkdtempSync(path.join(tmpdir(), "prolong-native-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const enc = (s: string) => new TextEncoder().encode(s);
/** Byte equality through views: Buffer.from(a Uint8Array) would copy it first (tens of MiB a call here). */
const sameBytes = (a: Uint8Array, b: Uint8Array) =>
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

function file(name: string, bytes: Uint8Array | string): string {
  const p = path.join(dir, name);
  writeFileSync(p, bytes);
  return p;
}

const log = enc(generateLog({ sections: 60, seed: 5, adversarial: true }));

describe("lineCount", () => {
  test("= the twin on whole buffers and ranges", () => {
    for (const s of ["", "a", "\n", "a\nb", "a\nb\n", "\r\n\r\n", "x".repeat(300) + "\n".repeat(300)]) {
      expect(lineCount(enc(s))).toBe(lineCountOracle(enc(s)));
    }
    expect(lineCount(log)).toBe(lineCountOracle(log));
    for (const [a, b] of [
      [0, 0],
      [10, 5000],
      [777, log.length],
      [log.length, log.length],
    ] as const) {
      expect(lineCount(log, a, b)).toBe(lineCountOracle(log, a, b));
    }
    expect(() => lineCount(log, 5, 2)).toThrow(RangeError);
    expect(() => lineCount(log, 0, log.length + 1)).toThrow(RangeError);
  });

  test("sectionIndex's line count = the lines of the text (a final line without '\\n' counts)", () => {
    for (const s of [
      "",
      "a",
      "a\n",
      "a\nb",
      generateLog({ sections: 30, seed: 2, finalNewline: false }),
      generateLog({ sections: 30, seed: 2, crlf: true }),
    ]) {
      const b = enc(s);
      expect(sectionIndex(b).lines).toBe(lineCountOracle(b) + (b.length > 0 && b[b.length - 1] !== 10 ? 1 : 0));
    }
  });
});

describe("mapFile", () => {
  test("a regular file: the same bytes as reading it, whole and up to a limit", () => {
    const p = file("log.txt", log);
    const mapped = mapFile(p);
    expect(mapped).toBeInstanceOf(Uint8Array);
    expect(sameBytes(mapped as Uint8Array, mapFileOracle(p) as Uint8Array)).toBe(true);
    for (const limit of [0, 1, 4096, log.length, log.length + 10]) {
      const a = mapFile(p, limit) as Uint8Array;
      const b = mapFileOracle(p, limit) as Uint8Array;
      expect(a.length).toBe(b.length);
      expect(sameBytes(a, b)).toBe(true);
    }
    expect(mapFile(file("empty.txt", ""))).toEqual(new Uint8Array(0));
  });

  test("a file that grows after it is mapped is seen at its size at open", () => {
    const p = file("growing.txt", "abc\n");
    const mapped = mapFile(p) as Uint8Array;
    appendFileSync(p, "more bytes\n");
    expect(mapped.length).toBe(4);
    expect(new TextDecoder().decode(mapped)).toBe("abc\n");
  });

  test("missing, directory, /dev/zero, FIFO: refused like the twin, at once", () => {
    const fifo = path.join(dir, "fifo");
    expect(Bun.spawnSync(["mkfifo", fifo]).exitCode).toBe(0);
    const cases = [path.join(dir, "nope"), dir, "/dev/zero", fifo];
    const kinds = cases.map((p) => {
      const native = mapFile(p);
      expect(native).not.toBeInstanceOf(Uint8Array);
      expect(native).toEqual(mapFileOracle(p));
      return (native as { kind: string }).kind;
    });
    expect(kinds).toEqual(["missing-file", "is-directory", "not-a-file", "not-a-file"]);
    expect((mapFile("/dev/zero") as { message: string }).message).toContain("character device");
    expect((mapFile(fifo) as { message: string }).message).toContain("FIFO");
  });

  test("prefixCheck over two mapped files = the twin over read bytes, and the mapped bytes read the same after", () => {
    // 20 MiB: past the size where the compare runs on two threads (16 MiB) and releases each 8 MiB block it has
    // compared, so each half releases a whole block and then a tail (the pages leave this process's page tables;
    // reading them again must give the same bytes). The flips sit in the left half's first block, on its last
    // byte, in the right half, and on the copy's last byte; the cuts give two halves, an unaligned middle, one
    // thread, and nothing.
    const big = new Uint8Array(20 << 20);
    for (let i = 0; i < big.length; i += 4099) big[i] = (i >> 12) & 255;
    const masterPath = file("big-master.txt", big);
    // The master file never changes: the twin reads it once.
    const masterRead = mapFileOracle(masterPath) as Uint8Array;
    const cuts = [big.length, big.length - 1, (17 << 20) + 17, 9 << 20, 0];
    for (const cut of cuts) {
      const copyBytes = big.slice(0, cut);
      for (const flip of [null, 5, (8 << 20) - 1, (13 << 20) + 3, cut - 1]) {
        if (flip !== null && (flip < 0 || flip >= cut)) continue;
        if (flip !== null) copyBytes[flip] = (copyBytes[flip] as number) ^ 1;
        const master = mapFile(masterPath) as Uint8Array;
        const copy = mapFile(file("big-copy.txt", copyBytes)) as Uint8Array;
        const want = prefixCheckOracle(masterRead, copyBytes);
        expect(prefixCheck(master, copy)).toBe(want);
        expect(prefixCheck(master, copy)).toBe(want);
        expect(sameBytes(master, big)).toBe(true);
        expect(sameBytes(copy, copyBytes)).toBe(true);
        if (flip !== null) copyBytes[flip] = (copyBytes[flip] as number) ^ 1;
      }
    }
    // A buffer of the caller's is never released (released anonymous memory would read back as zeros).
    const own = big.slice();
    expect(prefixCheck(own, own)).toBe(-1);
    expect(sameBytes(own, big)).toBe(true);
  });

  test("bad arguments throw TypeError / RangeError", () => {
    expect(() => mapFile(3 as unknown as string)).toThrow(TypeError);
    expect(() => mapFile("x", -1)).toThrow(RangeError);
  });
});
