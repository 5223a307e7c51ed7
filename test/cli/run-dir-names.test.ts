// Run directory names never collide: runs started together each get their own runs/<stamp>/, and the one way
// to point at a used directory (--run-dir) is refused without suggesting to resume a run that may be another's.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { claimStamp, runStamp } from "../../src/run-files/layout.ts";
import { prolong, prolongAsync } from "../support/prolong-process.ts";

const fresh = () => mkdtempSync(path.join(tmpdir(), "prolong-names-"));

/** A generator that replays the given values (each in [0, 1)), then the last one forever. */
function scripted(values: number[]): () => number {
  let i = 0;
  return () => values[Math.min(i++, values.length - 1)]!;
}

describe("run stamps", () => {
  test("milliseconds and a four-character suffix; sorted by time", () => {
    const a = runStamp(new Date("2026-11-29T20:01:05.123Z"), scripted([0]));
    expect(a).toBe("2026-11-29T20-01-05-123-aaaa");
    expect(runStamp(new Date("2026-11-29T20:01:05.124Z"), scripted([0])) > a).toBe(true);
  });

  test("a stamp another process took is never shared: the next suffix is drawn", () => {
    const root = fresh();
    const now = new Date("2026-11-29T20:01:05.123Z");
    const first = claimStamp(root, now, scripted([0]))._unsafeUnwrap();
    // Same millisecond, same first draw: the claim sees the directory exists and draws again.
    const second = claimStamp(root, now, scripted([0, 0, 0, 0, 0.5]))._unsafeUnwrap();
    expect(second).not.toBe(first);
    expect(readdirSync(root).sort()).toEqual([first, second].sort());
    // A generator stuck on one value cannot find a free name: an error, not a shared directory.
    expect(claimStamp(root, now, scripted([0])).isErr()).toBe(true);
  });
});

describe("through the real CLI", () => {
  test("six short runs started at once in one --runs-dir all finish, each in its own directory", async () => {
    const root = fresh();
    // Each process is started as prolongAsync is called, so all six are running before the first is awaited.
    const ended = await Promise.all(
      Array.from({ length: 6 }, () =>
        prolongAsync(["play", "glide", "--max-actions", "2", "--runs-dir", root, "--quiet", "--json"]),
      ),
    );
    expect(ended.map((r) => r.err)).toEqual(Array(6).fill(""));
    expect(ended.map((r) => r.code)).toEqual(Array(6).fill(0));
    const stamps = readdirSync(root);
    expect(new Set(stamps).size).toBe(6);
    for (const s of stamps) expect(existsSync(path.join(root, s, "glide", "scorecard.json"))).toBe(true);
  });

  test("--run-dir at a directory that holds a log: refused, and no hint to resume it", () => {
    const root = fresh();
    const first = prolong(["play", "glide", "--max-actions", "2", "--runs-dir", root, "--quiet"]);
    expect(first.code).toBe(0);
    const dir = path.join(root, readdirSync(root)[0]!, "glide");
    const again = prolong(["play", "--run-dir", dir]);
    const err = again.err;
    expect(again.code).toBe(2);
    expect(err).toContain("already holds a log");
    expect(err).toContain(dir);
    expect(err).not.toContain("resume");
  });

  test("a run that cannot start leaves no empty stamp directory behind", () => {
    const root = fresh();
    const r = prolong(["play", "--games", "glide,nosuchgame", "--runs-dir", root]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("nosuchgame");
    expect(readdirSync(root)).toEqual([]);
  });
});
