// One writer per run, tried for real (the refusal with a holder the test controls is in double-resume.test.ts):
// two `prolong resume` of one interrupted run started together, twenty times: one plays it, the other refuses
// or (when it came second) finds the run ended, and every master is byte-identical to a run that was never
// interrupted (the defect this guards: duplicated sections in 6 of 15 trials without a lock). How often the
// two actually overlap depends on the machine's load, so the trials assert only what must hold every time.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { play } from "../agent/backends/helpers.ts";
import { resumeProcess as resume } from "../support/prolong-process.ts";

describe("two resumes of one run at once", () => {
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
  }, 600_000);
});
