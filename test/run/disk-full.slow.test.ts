// A disk that fills at any moment of a run: the run stops cleanly (the reason and the fix, never a stack
// trace), and once space is free `prolong resume` finishes it with a master byte-identical to a run that
// never stopped. Twenty stops, spread over the whole run's bytes, on a small tmpfs (mounting one needs root).
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempRoot } from "./helpers.ts";

const ROOT = join(import.meta.dir, "../..");
const BUN = process.execPath;
const cli = (args: string[]) => spawnSync(BUN, [join(ROOT, "src/main.ts"), ...args], { encoding: "utf8" });
const GAME = ["play", "glide", "--max-actions", "40", "--quiet"];

function canMountTmpfs(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = tempRoot();
  const ok = spawnSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe]).status === 0;
  if (ok) spawnSync("umount", [probe]);
  return ok;
}
const CAN_MOUNT = canMountTmpfs();

/** Bytes under a directory, as the file system counts them (whole 4 KB pages). */
function usedBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    n += e.isDirectory() ? 4096 + usedBytes(p) : Math.ceil(statSync(p).size / 4096) * 4096;
  }
  return n;
}

/** The one run directory under a runs root (runs/<stamp>/<game>), or null when none was made. */
function runDirIn(root: string): string | null {
  if (!existsSync(root)) return null;
  const stamp = readdirSync(root)[0];
  return stamp === undefined ? null : join(root, stamp, "glide");
}

function noCrash(out: { stdout: string; stderr: string }): void {
  const all = out.stdout + out.stderr;
  expect(all).not.toMatch(/^\s+at .*\(.*:\d+:\d+\)$/m); // a stack frame
  expect(all).not.toContain("Bun v1."); // Bun's crash banner
}

describe.skipIf(!CAN_MOUNT)(`disk full${CAN_MOUNT ? "" : " (skipped: mounting a tmpfs needs root)"}`, () => {
  test("20 stops at points spread over the run: each a clean stop naming the fix, each resumed to a byte-identical master", () => {
    const refRoot = tempRoot();
    const ref = cli([...GAME, "--runs-dir", refRoot]);
    expect(ref.status).toBe(0);
    const refDir = runDirIn(refRoot)!;
    const reference = readFileSync(join(refDir, "logs.txt"), "utf8");
    const total = usedBytes(refDir) + 64 * 1024;
    const size = 8 * 1024 * 1024;
    let stopped = 0;
    for (let i = 0; i < 20; i++) {
      const mnt = tempRoot();
      expect(spawnSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", mnt]).status).toBe(0);
      try {
        // Leave room for a growing share of what a whole run writes.
        const room = Math.floor((total * (i + 1)) / 21);
        writeFileSync(join(mnt, "filler"), "");
        spawnSync("fallocate", ["-l", String(size - room), join(mnt, "filler")]);
        const runs = join(mnt, "runs");
        mkdirSync(runs);
        const first = cli([...GAME, "--runs-dir", runs]);
        noCrash(first);
        const dir = runDirIn(runs);
        if (first.status !== 0) {
          stopped++;
          expect(first.stdout + first.stderr).toMatch(/disk is full|no space left|full disk/i);
          expect(first.stdout + first.stderr).toContain("fix:");
        }
        rmSync(join(mnt, "filler"));
        if (dir === null || !existsSync(join(dir, "index.sqlite")) || !existsSync(join(dir, "logs.txt"))) continue; // stopped before the run existed
        if (first.status !== 0) {
          const again = cli(["resume", dir, "--quiet"]);
          noCrash(again);
          // A stop so early that index.sqlite was made but holds no schema yet leaves nothing to resume from:
          // resume refuses that index by name (it never re-creates it over a master it cannot check), as it
          // does a run stopped before its directory existed.
          if (again.stderr.includes("is not a prolong run index")) {
            expect(again.status).toBe(2);
            expect(again.stderr).toContain("fix:");
            continue;
          }
          if (again.status !== 0) expect(again.stderr).toContain("this run already ended");
        }
        expect(readFileSync(join(dir, "logs.txt"), "utf8")).toBe(reference);
        expect(existsSync(join(dir, "scorecard.json"))).toBe(true);
      } finally {
        spawnSync("umount", [mnt]);
      }
    }
    expect(stopped).toBeGreaterThanOrEqual(15);
  }, 600_000);
});
