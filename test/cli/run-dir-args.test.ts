// Every command that takes a log also takes a run directory; replay reads the game from run.json and fails
// (exit 1) when some section could not be checked.
import { beforeAll, describe, expect, test } from "bun:test";
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { prolong as prolongProcess } from "../support/prolong-process.ts";

const prolong = (...args: string[]) => prolongProcess(args, { env: { NO_COLOR: "1" } });

let run = "";
beforeAll(() => {
  const root = mkdtempSync(path.join(tmpdir(), "prolong-rundir-"));
  const r = prolong("play", "lumen", "--max-actions", "12", "--seed", "3", "--runs-dir", root, "--quiet");
  expect(r.code).toBe(0);
  run = path.join(root, readdirSync(root)[0]!, "lumen");
});

describe("a run directory where a log is expected", () => {
  test("log stats, sections, show, diff, grep and view take it", () => {
    expect(prolong("log", "stats", run).out).toMatch(/sections\s+13/);
    expect(prolong("log", "sections", run).code).toBe(0);
    expect(prolong("log", "show", run, "last", "--color", "never").code).toBe(0);
    expect(prolong("log", "diff", run, "1", "2").code).toBe(0);
    expect(prolong("log", "grep", run, "Tool Call", "--count").out).toContain("12 matching line(s)");
  });

  test("replay <run-dir>: the game and seed come from run.json; every section matches", () => {
    const r = prolong("replay", run);
    expect(r.err).toBe("");
    expect(r.out).toContain("all 13 sections match lumen");
    expect(r.code).toBe(0);
  });

  test("replay <run-dir> --game another: the flag overrides run.json; differences, exit 1", () => {
    const config = JSON.parse(readFileSync(path.join(run, "run.json"), "utf8"));
    expect(config.seed).toBe(3);
    const r = prolong("replay", run, "--game", "glide");
    expect(r.code).toBe(1);
    expect(r.out).toContain("differ from glide");
  });

  test("replay of a log that stops parsing part-way: what was checked matches, but the exit status is 1", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "prolong-cut-"));
    const log = path.join(dir, "logs.txt");
    copyFileSync(path.join(run, "logs.txt"), log);
    appendFileSync(log, `${"=".repeat(80)}\nnot a section header at all\n`);
    const r = prolong("replay", log, "--game", "lumen", "--seed", "3");
    expect(r.out).toContain("could not be checked");
    expect(r.code).toBe(1);
  });

  test("replay of a bare log without --game says how to name it; a directory without a log is named", () => {
    const bare = prolong("replay", path.join(run, "logs.txt"));
    expect(bare.code).toBe(2);
    expect(bare.err).toContain("--game");
    const empty = mkdtempSync(path.join(tmpdir(), "prolong-empty-"));
    mkdirSync(path.join(empty, "sub"));
    const r = prolong("replay", empty, "--game", "lumen");
    expect(r.code).toBe(2);
    expect(r.err).toContain(empty);
    expect(r.err).not.toContain("EISDIR");
  });
});
