// `prolong report --png` on a machine without Chromium: the page (and the SVGs) are written all the same, and
// the error says that only the PNGs are missing and why (it once wrote nothing at all).
import { expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { playGame } from "../run/helpers.ts";

const MAIN = path.resolve(import.meta.dir, "../../src/main.ts");

test("report --png without Chromium: report.html and the SVGs written, exit 1, the reason and the fix", async () => {
  const work = mkdtempSync(path.join(tmpdir(), "prolong-report-nochrome-"));
  const runs = path.join(work, "runs");
  for (const seed of [0, 1]) await playGame({ game: "glide", seed, maxActions: 20 }, path.join(runs, `glide-${seed}`));
  const page = path.join(work, "report.html");
  const p = Bun.spawnSync(
    [process.execPath, MAIN, "report", runs, "-o", page, "--svg", path.join(work, "svg"), "--png", path.join(work, "png")],
    { stdout: "pipe", stderr: "pipe", env: { ...process.env, PROLONG_CHROMIUM: path.join(work, "no-such-chromium") } },
  );
  expect(p.exitCode).toBe(1);
  const err = p.stderr.toString();
  expect(err).toContain(`wrote ${page} and the SVGs in ${path.join(work, "svg")}, but no PNG: --png needs Chromium`);
  expect(err).toContain("fix: apt-get install chromium");
  expect(existsSync(page)).toBe(true);
  expect(readdirSync(path.join(work, "svg")).length).toBeGreaterThan(0);
  expect(existsSync(path.join(work, "png"))).toBe(false);
}, 60_000);
