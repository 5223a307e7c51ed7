import { describe, expect, test } from "bun:test";
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EVENT_KINDS, EventLog, readEvents } from "../../src/run-files/events.ts";

const fixedNow = () => new Date("2026-11-29T20:01:05.000Z");

function tempFile(): string {
  return join(mkdtempSync(join(tmpdir(), "prolong-events-")), "events.jsonl");
}

describe("EventLog", () => {
  test("appends one JSON line per event with time, run, kind and the fields, and echoes the same line", () => {
    const path = tempFile();
    const echoed: string[] = [];
    const log = EventLog.open(path, { run: "stamp/ft01", echo: (l) => echoed.push(l), now: fixedNow })._unsafeUnwrap();
    log.emit("run-start", { game: "ft01", agent: "explorer", logWindow: "full", maxActions: 500, seed: 7 })._unsafeUnwrap();
    log
      .emit("tamper", {
        file: "logs.txt",
        tamper: "appended",
        detail: "32 byte(s) were added",
        expectedBytes: 100,
        foundBytes: 132,
        firstDiff: 100,
      })
      ._unsafeUnwrap();
    log.close();
    const text = readFileSync(path, "utf8");
    const lines = text.split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe("");
    expect(JSON.parse(lines[0] as string)).toEqual({
      time: "2026-11-29T20:01:05.000Z",
      run: "stamp/ft01",
      kind: "run-start",
      game: "ft01",
      agent: "explorer",
      logWindow: "full",
      maxActions: 500,
      seed: 7,
    });
    expect(echoed.join("")).toBe(text);
  });

  test("reopening appends after what is there", () => {
    const path = tempFile();
    for (const turn of [1, 2]) {
      const log = EventLog.open(path, { run: "r", now: fixedNow })._unsafeUnwrap();
      log.emit("agent-call", { turn, action: turn * 10 });
      log.close();
    }
    const events = readEvents(path)._unsafeUnwrap();
    expect(events.map((e) => [e.kind, (e as { turn?: number }).turn])).toEqual([
      ["agent-call", 1],
      ["agent-call", 2],
    ]);
  });

  test("emit after close is an error value, not a throw", () => {
    const log = EventLog.open(tempFile(), { run: "r" })._unsafeUnwrap();
    log.close();
    const r = log.emit("warning", { message: "late" });
    expect(r.isErr() && r.error.code).toBe("events-closed");
  });

  test("open in a missing directory names the path", () => {
    const r = EventLog.open("/nonexistent-dir-prolong/events.jsonl", { run: "r" });
    expect(r.isErr() && r.error.path).toBe("/nonexistent-dir-prolong/events.jsonl");
  });

  test("the kinds the runner needs exist", () => {
    for (const k of [
      "run-start",
      "agent-call",
      "agent-reply",
      "action",
      "level-up",
      "game-over",
      "reset",
      "warning",
      "tamper",
      "run-end",
    ]) {
      expect(EVENT_KINDS).toContain(k as never);
    }
  });
});

describe("readEvents", () => {
  test("a line cut by a crash at the end is dropped; complete lines are kept", () => {
    const path = tempFile();
    const log = EventLog.open(path, { run: "r", now: fixedNow })._unsafeUnwrap();
    log.emit("warning", { message: "one" });
    log.close();
    appendFileSync(path, '{"time":"2026-11-29T20:01:05.000Z","run":"r","ki');
    const events = readEvents(path)._unsafeUnwrap();
    expect(events).toHaveLength(1);
    expect((events[0] as { message?: string }).message).toBe("one");
  });

  test("a bad complete line is an error naming its line number", () => {
    const path = tempFile();
    writeFileSync(path, `{"time":"2026-11-29T20:01:05.000Z","run":"r","kind":"warning","message":"ok"}\nnot json\n`);
    const r = readEvents(path);
    expect(r.isErr() && r.error.message).toBe("line 2 is not JSON");
  });

  test("an unknown kind is an error naming the field", () => {
    const path = tempFile();
    writeFileSync(path, `{"time":"2026-11-29T20:01:05.000Z","run":"r","kind":"party"}\n`);
    const r = readEvents(path);
    expect(r.isErr()).toBe(true);
    expect(r.isErr() && r.error.message).toStartWith("line 1: field kind:");
  });
});
