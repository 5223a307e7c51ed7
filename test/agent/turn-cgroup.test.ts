// A pids cgroup per agent process run (src/agent/turn-cgroup.ts): RLIMIT_NPROC does not bind root, so an
// agent left as root (--sandbox none run by root) forked without bound until the turn's deadline. In its own
// cgroup the turn's tasks are capped whoever it runs as, and at its end every member is killed and the cgroup
// removed. The counted forks run everywhere, and on main (no cgroup, as root) all 200 of them start; the limit
// is small because each fork costs time, and the claim is the same at 16 as at 1,024. The fork bomb through
// the whole CLI is in turn-cgroup.slow.test.ts.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runInGroup } from "../../src/agent/cli-process.ts";
import { makeTurnCgroup } from "../../src/agent/turn-cgroup.ts";
import { tempRoot } from "./backends/helpers.ts";
import { CGROUP, processesNaming, PYTHON, ROOT } from "./turn-cgroup-probe.ts";

describe.skipIf(!ROOT || !PYTHON)(
  `an agent's processes as root, unsandboxed${!ROOT || !PYTHON ? " (skipped: needs root and python3)" : ""}`,
  () => {
    test("a run of 200 forks as root stops at the turn's process limit, and nothing of it is left", async () => {
      const LIMIT = 16;
      const dir = tempRoot();
      const script = join(dir, "forks.py");
      writeFileSync(
        script,
        [
          "import os",
          "n = 0",
          "for i in range(200):",
          "    try:",
          "        pid = os.fork()",
          "    except OSError:",
          "        break",
          "    if pid == 0:",
          `        os.execvp("sleep", ["sleep", "60", "${dir}"])`,
          "    n += 1",
          "print('started', n, flush=True)",
        ].join("\n"),
      );
      const before = readdirSync(join(dir));
      const outcome = await runInGroup({
        argv: [PYTHON!, script],
        cwd: dir,
        env: process.env,
        stdin: null,
        timeoutSec: 30,
        limits: { uid: 0, processes: LIMIT },
      });
      // python3 itself is one of the LIMIT tasks.
      const started = Number(/started (\d+)/.exec(outcome.stdoutTail)?.[1]);
      expect(started).toBeGreaterThan(LIMIT / 2);
      expect(started).toBeLessThan(LIMIT);
      expect(processesNaming(dir)).toEqual([]);
      expect(readdirSync(dir)).toEqual(before);
    }, 60_000);
  },
);

describe.skipIf(!CGROUP)("the cgroup itself", () => {
  test("holds at most its limit, is emptied by kill and gone after remove", () => {
    const cg = makeTurnCgroup(6);
    if (typeof cg === "string") throw new Error(cg);
    try {
      const child = cg.spawnInside(() =>
        Bun.spawn(["bash", "-c", "for i in $(seq 20); do sleep 60 & done 2>/dev/null; wait"], {
          stdio: ["ignore", "ignore", "ignore"],
        }),
      );
      // The harness stepped back out at once.
      expect(cg.members()).not.toContain(process.pid);
      for (let i = 0; i < 200 && cg.members().length < 6; i++) Bun.sleepSync(5);
      Bun.sleepSync(100);
      expect(cg.members().length).toBeLessThanOrEqual(6);
      expect(cg.members()).toContain(child.pid);
      cg.kill();
      expect(cg.members()).toEqual([]);
    } finally {
      cg.remove();
    }
    expect(existsSync(cg.dir)).toBe(false);
  });
});
