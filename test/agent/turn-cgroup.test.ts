// A pids cgroup per agent process run (src/agent/turn-cgroup.ts): RLIMIT_NPROC does not bind root, so an
// agent left as root (--sandbox none run by root) forked without bound until the turn's deadline. In its own
// cgroup the turn's tasks are capped whoever it runs as, and at its end every member is killed and the cgroup
// removed. The fork bomb runs only where a cgroup can be made (it is bounded then); the counted forks run
// everywhere, and on main (no cgroup, as root) all 200 of them start.
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runInGroup } from "../../src/agent/cli-process.ts";
import { makeTurnCgroup } from "../../src/agent/turn-cgroup.ts";
import { tempRoot } from "./backends/helpers.ts";

const ROOT = process.getuid?.() === 0;
const probe = makeTurnCgroup(8);
const CGROUP = typeof probe !== "string";
if (typeof probe !== "string") probe.remove();
const PYTHON = spawnSync("python3", ["-c", "1"]).status === 0;

/** Processes whose command line names `mark` (the test's own directory), other than this one. */
function processesNaming(mark: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "latin1");
      if (/^\d+ \(.*\) [ZX] /s.test(stat)) continue;
      if (readFileSync(`/proc/${name}/cmdline`, "latin1").includes(mark)) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

describe.skipIf(!ROOT || !PYTHON)(
  `an agent's processes as root, unsandboxed${!ROOT || !PYTHON ? " (skipped: needs root and python3)" : ""}`,
  () => {
    test("a run of 200 forks as root stops at the turn's process limit, and nothing of it is left", async () => {
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
        argv: ["python3", script],
        cwd: dir,
        env: process.env,
        stdin: null,
        timeoutSec: 30,
        limits: { uid: 0, processes: 50 },
      });
      const started = Number(/started (\d+)/.exec(outcome.stdoutTail)?.[1]);
      expect(started).toBeGreaterThan(10);
      expect(started).toBeLessThan(50);
      expect(processesNaming(dir)).toEqual([]);
      expect(readdirSync(dir)).toEqual(before);
    }, 60_000);

    test.skipIf(!CGROUP)(
      "a fork bomb under --sandbox none as root ends the turn, not the harness, within seconds, and leaves no process",
      () => {
        const dir = tempRoot();
        const bomb = join(dir, "bomb.sh");
        writeFileSync(bomb, "bomb() { bomb | bomb & }; bomb; sleep 60\n");
        const started = performance.now();
        const r = spawnSync(
          process.execPath,
          [
            join(import.meta.dir, "..", "..", "src", "main.ts"),
            "play",
            "glide",
            "--agent",
            "command",
            "--cmd",
            `bash ${bomb}`,
            "--sandbox",
            "none",
            "--agent-timeout",
            "5",
            "--agent-retries",
            "0",
            "--max-actions",
            "1",
            "--runs-dir",
            join(dir, "runs"),
          ],
          { encoding: "utf8", timeout: 60_000 },
        );
        const seconds = (performance.now() - started) / 1000;
        // The harness ended the run itself (no abort, no signal) with the turn failed on its deadline.
        expect(r.signal).toBeNull();
        expect(r.stdout + r.stderr).toContain("did not finish within 5s");
        expect(seconds).toBeLessThan(40);
        expect(processesNaming(bomb)).toEqual([]);
        expect(existsSync(join(dir, "runs"))).toBe(true);
      },
      90_000,
    );
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
