// One writer per run. The refusal itself is shown with a holder this test controls: while the test holds the
// run's lock, `prolong resume` refuses naming the test's pid; released, the same command plays the run. Two
// resumes actually started together, twenty times, are a whole-process trial in double-resume.slow.test.ts.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { lockRun } from "../../src/run/lock.ts";
import { play } from "../agent/backends/helpers.ts";
import { resumeProcess as resume } from "../support/prolong-process.ts";

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
});
