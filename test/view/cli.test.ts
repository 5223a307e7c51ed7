// `prolong view` as a user runs it: where the page goes, --png, and bad input.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { inflateSync } from "node:zlib";
import { ARC_RGB } from "../../src/game/render.ts";
import { parseLog } from "../../src/log/format.ts";
import { generateLog } from "../../src/bench/gen-log.ts";

const MAIN = path.resolve(import.meta.dir, "../../src/main.ts");
const work = mkdtempSync(path.join(tmpdir(), "prolong-view-cli-"));

function prolong(cwd: string, ...args: string[]) {
  const p = Bun.spawnSync([process.execPath, MAIN, ...args], { cwd, stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

describe("prolong view", () => {
  const text = generateLog({ sections: 15, seed: 5 });

  test("a prolong run directory gets view.html inside it; --json reports it", () => {
    const run = mkdtempSync(path.join(work, "run-"));
    writeFileSync(path.join(run, "logs.txt"), text);
    writeFileSync(path.join(run, "run.json"), "{}");
    const r = prolong(work, "view", run, "--json");
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out);
    expect(report.out).toBe(path.join(run, "view.html"));
    expect(report.steps).toBe(15);
    expect(readFileSync(report.out, "utf8")).toStartWith("<!doctype html>");
  });

  test("a bare log (or a directory that is not a prolong run) writes to the current directory, not beside it", () => {
    const dir = mkdtempSync(path.join(work, "published-"));
    writeFileSync(path.join(dir, "logs.txt"), text);
    const cwd = mkdtempSync(path.join(work, "cwd-"));
    expect(prolong(cwd, "view", dir).code).toBe(0);
    expect(existsSync(path.join(cwd, `${path.basename(dir)}.view.html`))).toBe(true);
    expect(existsSync(path.join(dir, "view.html"))).toBe(false);
  });

  test("--png: the settled board of an action, each cell in the ARC palette", () => {
    const file = path.join(work, "png-log.txt");
    writeFileSync(file, text);
    const out = path.join(work, "a7.png");
    const r = prolong(work, "view", "--png", file, "7", "--scale", "2", "-o", out);
    expect(r.code).toBe(0);
    const png = readFileSync(out);
    // IHDR then one IDAT (what encodePng writes): inflate it and read a few cells.
    const idatLen = png.readUInt32BE(33);
    const raw = inflateSync(png.subarray(41, 41 + idatLen));
    const board = parseLog(text).sections[7]!.board;
    const stride = 64 * 2 * 3 + 1;
    for (const [x, y] of [
      [0, 0],
      [10, 20],
      [63, 63],
      [31, 5],
    ] as const) {
      const o = y * 2 * stride + 1 + x * 2 * 3;
      expect([raw[o], raw[o + 1], raw[o + 2]]).toEqual([...ARC_RGB[board.cells[y * 64 + x]!]!]);
    }
  });

  test("bad input: a foreign file, a missing path, an action not in the log, a bad frame", () => {
    const foreign = path.join(work, "notes.txt");
    writeFileSync(foreign, "hello\n");
    const f = prolong(work, "view", foreign);
    expect(f.code).toBe(2);
    expect(f.err).toContain("no section separator found");
    expect(prolong(work, "view", path.join(work, "nope")).err).toContain("no such file");
    const file = path.join(work, "png-log.txt");
    expect(prolong(work, "view", "--png", file, "99").err).toContain("not in this log");
    expect(prolong(work, "view", "--png", file, "3", "--frame", "4").err).toContain("animation frame(s)");
  });

  test("a truncated log: the page is written with the readable sections and a warning", () => {
    const cut = path.join(work, "cut.txt");
    writeFileSync(cut, text.slice(0, text.length - 2500));
    const r = prolong(work, "view", cut, "-o", path.join(work, "cut.html"));
    expect(r.code).toBe(0);
    expect(r.out).toContain("15 steps");
    expect(r.err).toContain("the log ends inside section #14");
  });
});
