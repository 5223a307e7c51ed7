// The fork bomb as root under --sandbox none through the whole CLI (slow tier: a whole-process trial that
// forks until its cgroup's limit and waits out a turn's deadline). The fast tier's counted forks
// (turn-cgroup.test.ts) check the same limit on a run of 200 forks.
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempRoot } from "./backends/helpers.ts";
import { CGROUP, processesNaming, PYTHON, ROOT } from "./turn-cgroup-probe.ts";

describe.skipIf(!ROOT || !PYTHON)(
  `an agent's processes as root, unsandboxed${!ROOT || !PYTHON ? " (skipped: needs root and python3)" : ""}`,
  () => {
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
