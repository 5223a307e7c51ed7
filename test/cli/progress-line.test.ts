// The live progress line of a run in a terminal: its elapsed time is the run's own (never negative: it once
// subtracted performance.now() from a wall-clock start and showed -1796153446.2s).
import { expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { prolongInPty } from "../support/pty.ts";

test("play in a terminal: the progress line's elapsed time is a small non-negative number", async () => {
  const runs = mkdtempSync(path.join(tmpdir(), "prolong-progress-"));
  const p = prolongInPty(["play", "glide", "--max-actions", "40", "--runs-dir", runs]);
  expect(await p.exited).toBe(0);
  const times = [...p.output().matchAll(/glide {2}action \d+\/40 .* call \d+ {2}(-?[\d.]+)s/g)].map((m) => Number(m[1]));
  expect(times.length).toBeGreaterThan(0);
  for (const t of times) {
    expect(t).toBeGreaterThanOrEqual(0);
    expect(t).toBeLessThan(600);
  }
});
