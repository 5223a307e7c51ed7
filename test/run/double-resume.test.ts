// One writer per run. The refusal itself is shown with a holder this test controls: while the test holds the
// run's lock, `prolong resume` refuses naming the test's pid; released, the same command plays the run. Then
// two `prolong resume` of one interrupted run started together, twenty times: one plays it, the other refuses
// or (when it came second) finds the run ended, and every master is byte-identical to a run that was never
// interrupted (the defect this guards: duplicated sections in 6 of 15 trials without a lock). How often the
// two actually overlap depends on the machine's load, so the trials assert only what must hold every time.
import { describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { lockRun } from "../../src/run/lock.ts";
import { play } from "../agent/backends/helpers.ts";

const ROOT = join(import.meta.dir, "../..");

function resume(dir: string): Promise<{ status: number | null; stderr: string }> {
  return new Promise((res) => {
    const child = spawn(process.execPath, [join(ROOT, "src/main.ts"), "resume", dir, "--quiet"], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
    });
    child.on("close", (status) => res({ status, stderr }));
  });
}

describe("two resumes of one run at once", () => {
  test("a run whose lock another process holds: resume refuses naming that pid and writes nothing; released, it plays", async () => {
    const fields = { game: "glide", maxActions: 50 };
    const reference = (await play(fields)).master;
    const stopped = await play(fields, { stopAfter: 7 });
    const dir = stopped.session.paths.dir;
    const before = readFileSync(join(dir, "logs.txt"), "utf8");
    const held = lockRun(dir)._unsafeUnwrap(); // this test process plays the first resume
    try {
      const refused = await resume(dir);
      expect(refused.status).not.toBe(0);
      expect(refused.stderr).toContain(`another prolong (pid ${process.pid}) is running this run`);
      expect(readFileSync(join(dir, "logs.txt"), "utf8")).toBe(before);
    } finally {
      held.release();
    }
    expect((await resume(dir)).status).toBe(0);
    expect(readFileSync(join(dir, "logs.txt"), "utf8")).toBe(reference);
  }, 60_000);

  test("20 trials of two at once: one plays, the other refuses or finds the run ended; the master is intact every time", async () => {
    const fields = { game: "glide", maxActions: 50 };
    const reference = (await play(fields)).master;
    for (let trial = 0; trial < 20; trial++) {
      const stopped = await play(fields, { stopAfter: 2 + trial * 2 });
      const dir = stopped.session.paths.dir;
      const [a, b] = await Promise.all([resume(dir), resume(dir)]);
      const outcomes = [a, b].sort((x, y) => (x.status ?? 9) - (y.status ?? 9));
      expect(outcomes[0]!.status).toBe(0);
      const second = outcomes[1]!;
      if (second.status !== 0) {
        expect(second.stderr).toMatch(/another prolong \(pid \d+\) is running this run|this run already ended/);
      }
      expect(readFileSync(join(dir, "logs.txt"), "utf8")).toBe(reference);
    }
  }, 180_000);
});
