// One writer per run: two `prolong resume` of one interrupted run started together. One plays it; the
// other refuses at once naming the first one's pid (or, when it came second, finds the run ended). Twenty
// trials; every master is byte-identical to a run that was never interrupted (the defect this guards:
// duplicated sections in 6 of 15 trials without a lock).
import { describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { play, tempRoot } from "../agent/backends/helpers.ts";

const ROOT = join(import.meta.dir, "../..");

function resume(dir: string): Promise<{ status: number | null; stderr: string }> {
  return new Promise((res) => {
    const child = spawn(process.execPath, [join(ROOT, "src/main.ts"), "resume", dir, "--quiet"], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => { stderr += d; });
    child.on("close", (status) => res({ status, stderr }));
  });
}

describe("two resumes of one run at once", () => {
  test("20 trials: the second refuses with the first one's pid (or finds the run ended); the master is intact", async () => {
    const fields = { game: "glide", maxActions: 50 };
    const reference = (await play(fields)).master;
    let refused = 0;
    for (let trial = 0; trial < 20; trial++) {
      const stopped = await play(fields, { stopAfter: 2 + trial * 2 });
      const dir = stopped.session.paths.dir;
      const [a, b] = await Promise.all([resume(dir), resume(dir)]);
      const outcomes = [a, b].sort((x, y) => (x.status ?? 9) - (y.status ?? 9));
      expect(outcomes[0]!.status).toBe(0);
      const second = outcomes[1]!;
      if (second.status !== 0) {
        expect(second.stderr).toMatch(/another prolong \(pid \d+\) is running this run|this run already ended/);
        if (second.stderr.includes("another prolong")) refused++;
      }
      expect(readFileSync(join(dir, "logs.txt"), "utf8")).toBe(reference);
    }
    expect(refused).toBeGreaterThan(10);
  }, 180_000);
});
