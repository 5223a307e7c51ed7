import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { closeSync, constants, mkdtempSync, openSync, readFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Grid } from "../../src/game-model.ts";
import { writeLog, writeSection, type LogSection } from "../../src/log/format.ts";
import { appendSection, INDEX_SCHEMA_VERSION, RunIndex } from "../../src/log/run-index.ts";
import { MasterLog } from "../../src/log/master.ts";
import { xxh3_128 } from "../../src/native.ts";

function grid(seed: number): Grid {
  return { width: 8, height: 8, cells: Uint8Array.from({ length: 64 }, (_, i) => (i * 5 + seed) % 16) };
}

function section(action: number, frames = 0): LogSection {
  if (action === 0) return { header: { action: 0, level: 1, attempt: 1, score: 0, kind: "initial" }, frames: [], board: grid(0) };
  return {
    header: { action, level: 1 + (action >> 2), attempt: 1, score: action >> 2, kind: "action", planStep: { step: 1, total: 2 } },
    plan: `try action ${action}`,
    toolCall: { id: 6, x: action, y: 2 },
    frames: Array.from({ length: frames }, (_, i) => grid(100 + i)),
    board: grid(action),
  };
}

function setup() {
  const dir = mkdtempSync(join(tmpdir(), "prolong-index-"));
  const master = MasterLog.open(join(dir, "logs.txt"))._unsafeUnwrap();
  const index = RunIndex.open(join(dir, "index.sqlite"))._unsafeUnwrap();
  return { dir, master, index };
}

describe("RunIndex", () => {
  test("appendSection records each section's own range, checksum and header fields; the master is the published layout", () => {
    const { dir, master, index } = setup();
    const sections = [section(0), section(1, 3), section(2), section(5)];
    const rows = sections.map((s) => appendSection(master, index, s, "ascii")._unsafeUnwrap());
    const log = readFileSync(join(dir, "logs.txt"));
    expect(log.toString()).toBe(writeLog(sections, "ascii"));
    expect(index.count()._unsafeUnwrap()).toBe(4);
    for (const [i, row] of rows.entries()) {
      const own = log.subarray(row.start, row.end).toString();
      expect(own).toBe(writeSection(sections[i] as LogSection, "ascii"));
      expect(row.ordinal).toBe(i);
      expect(row.xxh3).toBe(xxh3_128(new Uint8Array(log), row.start, row.end));
    }
    expect(index.section(1)._unsafeUnwrap()).toEqual({
      ordinal: 1,
      start: rows[1]?.start as number,
      end: rows[1]?.end as number,
      kind: "action",
      xxh3: rows[1]?.xxh3 as string,
      action: 1,
      level: 1,
      attempt: 1,
      score: 0,
      frames: 4,
    });
    expect(index.section(0)._unsafeUnwrap()?.kind).toBe("initial");
    expect(index.lastEnd()._unsafeUnwrap()).toBe(log.length);
    master.close();
    index.close();
  });

  test("window lookups: first, last, n-th newest action section, and the index as it was at an earlier offset", () => {
    const { master, index } = setup();
    const rows = [0, 1, 2, 3, 4].map((a) => appendSection(master, index, section(a), "ascii")._unsafeUnwrap());
    const now = index.lookup({ actions: 5 })._unsafeUnwrap();
    expect(now.first()?.ordinal).toBe(0);
    expect(now.last()?.ordinal).toBe(4);
    expect(now.nthLastAction(1)?.ordinal).toBe(4);
    expect(now.nthLastAction(4)?.ordinal).toBe(1);
    expect(now.nthLastAction(5)).toBeUndefined();
    // Asking for an older action section than the lookup read is a bug in the caller, not a silent miss.
    expect(() => index.lookup({ actions: 2 })._unsafeUnwrap().nthLastAction(3)).toThrow(RangeError);
    const then = index.lookup({ upTo: rows[2]?.end as number, actions: 2 })._unsafeUnwrap();
    expect(then.count()).toBe(3);
    expect(then.last()?.ordinal).toBe(2);
    expect(then.nthLastAction(2)?.ordinal).toBe(1);
  });

  test("verifySections finds the first section whose bytes changed in the master", () => {
    const { dir, master, index } = setup();
    const rows = [0, 1, 2, 3].map((a) => appendSection(master, index, section(a), "ascii")._unsafeUnwrap());
    expect(index.verifySections(master)._unsafeUnwrap()).toBeNull();
    // Flip one byte inside section 2 behind the harness's back (a plain, non-append descriptor).
    const fd = openSync(join(dir, "logs.txt"), constants.O_WRONLY);
    writeSync(fd, "#", (rows[2]?.start as number) + 90);
    closeSync(fd);
    const bad = index.verifySections(master)._unsafeUnwrap();
    expect(bad?.ordinal).toBe(2);
    expect(bad?.expected).toBe(rows[2]?.xxh3 as string);
    expect(bad?.found).not.toBe(rows[2]?.xxh3 as string);
  });

  test("a crash between the master append and the index insert shows as bytes past lastEnd()", () => {
    const { master, index } = setup();
    appendSection(master, index, section(0), "ascii")._unsafeUnwrap();
    master.append(`\n${writeSection(section(1), "ascii")}`);
    const tail = master.tailAfter(index.lastEnd()._unsafeUnwrap());
    expect(tail?.completeEnd).toBe(index.lastEnd()._unsafeUnwrap());
    expect(tail?.tornBytes).toBe(writeSection(section(1), "ascii").length + 1);
  });

  test("copy state, run state and events survive a reopen", () => {
    const { dir, index } = setup();
    index.setCopyState({
      window: { kind: "full" },
      owned: 120,
      size: 120,
      chunks: [
        { start: 0, end: 100, xxh3: "a".repeat(32) },
        { start: 100, end: 120, xxh3: "b".repeat(32) },
      ],
    });
    index.setCopyState({
      window: { kind: "last", sections: 25 },
      owned: 300,
      size: 80,
      chunks: [{ start: 0, end: 80, xxh3: "c".repeat(32) }],
    });
    index.setState("pending", { turn: 3, entries: ["ACTION1"] });
    const id = index
      .recordEvent("tamper", { kind: "appended", expectedBytes: 10, foundBytes: 42 }, new Date("2026-01-01T00:00:00Z"))
      ._unsafeUnwrap();
    index.close();
    const again = RunIndex.open(join(dir, "index.sqlite"))._unsafeUnwrap();
    expect(again.copyState()._unsafeUnwrap()).toEqual({
      window: { kind: "last", sections: 25 },
      owned: 300,
      size: 80,
      chunks: [{ start: 0, end: 80, xxh3: "c".repeat(32) }],
    });
    expect(again.getState("pending")._unsafeUnwrap()).toEqual({ turn: 3, entries: ["ACTION1"] });
    expect(again.getState("missing")._unsafeUnwrap()).toBeUndefined();
    expect(again.events("tamper")._unsafeUnwrap()).toEqual([
      { id, time: "2026-01-01T00:00:00.000Z", kind: "tamper", fields: { kind: "appended", expectedBytes: 10, foundBytes: 42 } },
    ]);
    expect(again.events("warning")._unsafeUnwrap()).toEqual([]);
    again.close();
  });

  test("the file is a WAL database at the current schema version; a newer schema is refused with a fix", () => {
    const { dir, index } = setup();
    index.close();
    const path = join(dir, "index.sqlite");
    const db = new Database(path);
    expect((db.query("PRAGMA journal_mode").get() as { journal_mode: string }).journal_mode).toBe("wal");
    expect((db.query("PRAGMA user_version").get() as { user_version: number }).user_version).toBe(INDEX_SCHEMA_VERSION);
    db.run(`PRAGMA user_version = ${INDEX_SCHEMA_VERSION + 1}`);
    db.close();
    const r = RunIndex.open(path);
    expect(r.isErr() && r.error.code).toBe("index-version");
    expect(r.isErr() && r.error.fix).toContain("prolong version");
  });

  test("a file that is not a database is an error naming it", () => {
    const dir = mkdtempSync(join(tmpdir(), "prolong-index-"));
    const path = join(dir, "index.sqlite");
    const fd = openSync(path, "w");
    writeSync(fd, "this is not sqlite, just text that is long enough to have a header ".repeat(20));
    closeSync(fd);
    const r = RunIndex.open(path);
    expect(r.isErr()).toBe(true);
    expect(r.isErr() && r.error.path).toBe(path);
  });
});
