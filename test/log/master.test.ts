import { describe, expect, test } from "bun:test";
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  openSync,
  closeSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
  writeSync,
  constants,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Grid } from "../../src/game-model.ts";
import { writeLog, writeSection, type LogSection } from "../../src/log/format.ts";
import { MasterLog, tornTail } from "../../src/log/master.ts";

const FIXTURES = resolve(import.meta.dir, "../..", "..", "shared", "fixtures", "prolong-release");

function grid(seed: number): Grid {
  return { width: 8, height: 8, cells: Uint8Array.from({ length: 64 }, (_, i) => (i * 7 + seed) % 16) };
}

function section(action: number): LogSection {
  return action === 0
    ? { header: { action: 0, level: 1, attempt: 1, score: 0, kind: "initial" }, frames: [], board: grid(0) }
    : {
        header: { action, level: 1, attempt: 1, score: 0, kind: "action" },
        toolCall: { id: 1 },
        frames: [],
        board: grid(action),
      };
}

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "prolong-master-"));
}

describe("MasterLog", () => {
  test("append returns contiguous ranges and the file holds exactly the appended bytes", () => {
    const path = join(tempDir(), "logs.txt");
    const m = MasterLog.open(path)._unsafeUnwrap();
    expect(m.size).toBe(0);
    expect(m.tail).toBeNull();
    const a = writeSection(section(0), "ascii");
    const b = `\n${writeSection(section(1), "ascii")}`;
    const r1 = m.append(a)._unsafeUnwrap();
    const r2 = m.append(new TextEncoder().encode(b))._unsafeUnwrap();
    expect(r1).toEqual({ start: 0, end: a.length });
    expect(r2).toEqual({ start: a.length, end: a.length + b.length });
    expect(m.size).toBe(a.length + b.length);
    expect(readFileSync(path, "utf8")).toBe(writeLog([section(0), section(1)], "ascii"));
    expect(new TextDecoder().decode(m.read(r2.start, r2.end)._unsafeUnwrap())).toBe(b);
    m.close();
  });

  test("reopening keeps every byte and appends after them", () => {
    const path = join(tempDir(), "logs.txt");
    const m1 = MasterLog.open(path)._unsafeUnwrap();
    m1.append(writeSection(section(0), "ascii"));
    m1.close();
    const before = readFileSync(path);
    const m2 = MasterLog.open(path)._unsafeUnwrap();
    expect(m2.size).toBe(before.length);
    expect(m2.tail).toBeNull();
    const r = m2.append(`\n${writeSection(section(1), "ascii")}`)._unsafeUnwrap();
    expect(r.start).toBe(before.length);
    const after = readFileSync(path);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    m2.close();
  });

  test("a torn last section (crash mid-append) is reported with where the complete part ends; the file is not touched", () => {
    const whole = writeLog([section(0), section(1), section(2)], "ascii");
    const lastStart = whole.lastIndexOf("=".repeat(80));
    for (const cut of [lastStart + 10, lastStart + 100, whole.length - 20]) {
      const path = join(tempDir(), "logs.txt");
      writeFileSync(path, whole.slice(0, cut));
      const m = MasterLog.open(path, { create: false })._unsafeUnwrap();
      expect(m.tail).not.toBeNull();
      // The complete part ends where the previous section's own bytes end: before the join "\n".
      expect(m.tail?.completeEnd).toBe(lastStart - 1);
      expect(m.tail?.tornBytes).toBe(cut - lastStart + 1);
      expect(readFileSync(path, "utf8")).toBe(whole.slice(0, cut));
      m.close();
    }
  });

  test("tailAfter uses the index's offset: extra bytes and a truncated master are both reported", () => {
    const path = join(tempDir(), "logs.txt");
    const m = MasterLog.open(path)._unsafeUnwrap();
    const r = m.append(writeSection(section(0), "ascii"))._unsafeUnwrap();
    expect(m.tailAfter(r.end)).toBeNull();
    m.append("\n=====");
    expect(m.tailAfter(r.end)).toEqual({
      size: r.end + 6,
      completeEnd: r.end,
      tornBytes: 6,
      reason: "6 byte(s) after the last indexed section (a crash during or right after an append)",
    });
    const short = m.tailAfter(r.end + 100);
    expect(short?.tornBytes).toBe(-94);
    expect(short?.reason).toContain("truncated");
    m.close();
  });

  test("a file that is not even one separator long is one torn section", () => {
    expect(tornTail(new TextEncoder().encode("=".repeat(40)))).toEqual({
      size: 40,
      completeEnd: 0,
      tornBytes: 40,
      reason: "no complete section separator: the first append was cut",
    });
    expect(tornTail(new Uint8Array(0))).toBeNull();
  });

  test("an append from another process is detected instead of being silently mis-indexed", () => {
    const path = join(tempDir(), "logs.txt");
    const m = MasterLog.open(path)._unsafeUnwrap();
    m.append(writeSection(section(0), "ascii"));
    appendFileSync(path, "intruder\n");
    const r = m.append(`\n${writeSection(section(1), "ascii")}`);
    expect(r.isErr() && r.error.code).toBe("master-concurrent");
    m.close();
  });

  test("read outside the file is a bug and throws RangeError", () => {
    const m = MasterLog.open(join(tempDir(), "logs.txt"))._unsafeUnwrap();
    m.append("abc");
    expect(() => m.read(0, 4)).toThrow(RangeError);
    expect(() => m.read(2, 1)).toThrow(RangeError);
    m.close();
  });

  test("a symlink in the master's place is refused, not written through", () => {
    const dir = tempDir();
    const target = join(dir, "elsewhere.txt");
    writeFileSync(target, "keep");
    symlinkSync(target, join(dir, "logs.txt"));
    const r = MasterLog.open(join(dir, "logs.txt"));
    expect(r.isErr() && r.error.code).toBe("master-open");
    expect(r.isErr() && r.error.fix).toContain("symlink");
    expect(readFileSync(target, "utf8")).toBe("keep");
  });

  test("resume's open (create: false) of a missing master is an error naming the file", () => {
    const path = join(tempDir(), "logs.txt");
    const r = MasterLog.open(path, { create: false });
    expect(r.isErr() && r.error.path).toBe(path);
    expect(existsSync(path)).toBe(false);
  });

  test("the open descriptor is append-only: a positional write lands at the end, never over old bytes", () => {
    // What O_APPEND guarantees and the class relies on: even a pwrite at offset 0 appends on Linux.
    const path = join(tempDir(), "logs.txt");
    const m = MasterLog.open(path)._unsafeUnwrap();
    m.append("first\n");
    m.close();
    const fd = openSync(path, constants.O_WRONLY | constants.O_APPEND);
    writeSync(fd, "second\n", 0);
    closeSync(fd);
    expect(readFileSync(path, "utf8")).toBe("first\nsecond\n");
  });
});

describe("MasterLog on the published logs", () => {
  const present = existsSync(FIXTURES);
  if (!present) console.log(`skip: ${FIXTURES} is absent (the published logs live outside the project)`);
  test.skipIf(!present)(
    "every real log ends on a complete section; cutting it anywhere inside its last section is reported",
    () => {
      for (const game of ["ft09", "lp85", "m0r0", "cn04"]) {
        const bytes = new Uint8Array(readFileSync(join(FIXTURES, game, "logs.txt")));
        expect(tornTail(bytes)).toBeNull();
        const text = new TextDecoder().decode(bytes);
        const lastStart = Buffer.from(text.slice(0, text.lastIndexOf("=".repeat(80)))).length;
        for (const back of [1, 3, 65, 1000]) {
          const t = tornTail(bytes.subarray(0, bytes.length - back));
          expect(t?.completeEnd).toBe(lastStart - 1);
        }
        // A cut inside the separator leaves the previous section complete, followed by torn bytes.
        const t = tornTail(bytes.subarray(0, lastStart + 20));
        expect(t).toEqual({
          size: lastStart + 20,
          completeEnd: lastStart - 1,
          tornBytes: 21,
          reason: "bytes after the last complete section do not form a section (a cut separator)",
        });
      }
    },
  );
});

describe("MasterLog over a log past the mapping threshold (1 MiB)", () => {
  test("whole-log reads are mapped and equal the file; the tail check at open sees a cut", async () => {
    const { generateLog } = await import("../../src/bench/gen-log.ts");
    const text = generateLog({ sections: 400, seed: 4 });
    expect(text.length).toBeGreaterThan(1 << 20);
    const path = join(tempDir(), "logs.txt");
    writeFileSync(path, text);
    const m = MasterLog.open(path, { create: false })._unsafeUnwrap();
    expect(m.tail).toBeNull();
    const all = m.read(0, m.size)._unsafeUnwrap();
    expect(Buffer.from(all).equals(readFileSync(path))).toBe(true);
    const part = m.read(0, (1 << 20) + 17)._unsafeUnwrap();
    expect(part.length).toBe((1 << 20) + 17);
    m.close();
    writeFileSync(path, text.slice(0, text.length - 100));
    const cut = MasterLog.open(path, { create: false })._unsafeUnwrap();
    expect(cut.tail?.reason).toContain("cut short");
    cut.close();
  });
});
