// Nothing outlives a turn: a setsid'd child, one that keeps the stdout pipe open, one that forks again, under
// no sandbox and under bwrap. Each stray writes its pid first; after the turn that pid must be gone, and the
// turn must have returned although the pipe's other end was still held.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runInGroup } from "../../src/agent/cli-process.ts";
import { chooseSandbox, type Sandbox } from "../../src/agent/sandbox.ts";
import { ticksSinceBoot, tickOfUptime, turnStartTick } from "../../src/agent/turn-processes.ts";
import { HAVE_BWRAP } from "./backends/helpers.ts";

function alive(pid: number): boolean {
  if (!existsSync(`/proc/${pid}/stat`)) return false;
  // A zombie is dead already; its parent (init) has just not reaped it yet.
  return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
}

/**
 * Each script starts a stray and waits until the stray has written its mark (so it surely runs when the turn
 * ends), then exits. The strays are found afterwards by their cwd, the workspace.
 */
const WAIT = `while [ ! -s stray.mark ]; do :; done; echo started`;
const STRAYS: Record<string, string> = {
  "setsid child holding stdout": `setsid sh -c 'echo x > stray.mark; exec sleep 300' & ${WAIT}`,
  "setsid child with its output elsewhere": `setsid sh -c 'echo x > stray.mark; exec sleep 300' > /dev/null 2>&1 < /dev/null & ${WAIT}`,
  "background child that forks again": `(sleep 300 & echo x > stray.mark; exec sleep 300) & ${WAIT}`,
  "setsid child that daemonises twice": `setsid sh -c 'setsid sh -c "echo x > stray.mark; exec sleep 300" &' > /dev/null 2>&1 & ${WAIT}`,
  // Leaves the session, clears its environment (the turn's token) and closes the pipes, then its parent exits:
  // only its parent is left to tell, and the harness, as the subreaper, is that parent now.
  "double-forked daemon with a clean environment and no pipes": `setsid sh -c 'exec env -i /bin/sh -c "echo x > stray.mark; exec sleep 300" < /dev/null > /dev/null 2>&1 &' < /dev/null > /dev/null 2>&1 & ${WAIT}`,
};

async function turn(sandbox: Sandbox, script: string, timeoutSec = 60) {
  const ws = mkdtempSync(join(tmpdir(), "prolong-turn-"));
  // Every process of the turn appears in ps under its host pid; list the sleeps by the workspace in their cwd.
  const outcome = await runInGroup({
    argv: sandbox.wrap(["sh", "-c", script], { workspace: ws }),
    cwd: ws,
    env: { PATH: process.env["PATH"] },
    stdin: null,
    timeoutSec,
  });
  return { ws, outcome };
}

/** Live processes whose cwd is `ws`. */
function processesIn(ws: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    try {
      if (readlinkSync(`/proc/${pid}/cwd`) === ws && alive(pid)) out.push(pid);
    } catch {
      // gone, or a kernel thread
    }
  }
  return out;
}

const SANDBOXES: [string, boolean, () => Sandbox][] = [
  ["no sandbox", false, () => chooseSandbox("none")._unsafeUnwrap()],
  ["bwrap", !HAVE_BWRAP, () => chooseSandbox("bwrap")._unsafeUnwrap()],
];

for (const [label, skip, make] of SANDBOXES) {
  describe.skipIf(skip)(`strays of a turn under ${label}${skip ? " (skipped: bwrap cannot run here)" : ""}`, () => {
    for (const [name, script] of Object.entries(STRAYS)) {
      test(`${name}: the turn returns and no process of it is left`, async () => {
        const { ws, outcome } = await turn(make(), script);
        expect(outcome.exitCode).toBe(0);
        expect(outcome.stdoutTail).toContain("started");
        expect(processesIn(ws)).toEqual([]);
      });
    }

    test("at the timeout the whole turn goes, strays included", async () => {
      const { ws, outcome } = await turn(make(), `setsid sh -c "echo x > stray.mark; exec sleep 300" & sleep 300`, 1);
      expect(outcome.timedOut).toBe(true);
      expect(processesIn(ws)).toEqual([]);
    });
  });
}

// The orphan mark (a child of the harness started since the turn began) compares a process's start tick with
// the turn's: the turn's must never be a tick late, or a daemon started in the turn's first tick escapes.
describe("the turn's start tick", () => {
  test("read from /proc/uptime's digits: 0.07 s is tick 7, not 8 (7.000000000000001 ceiled)", () => {
    expect(tickOfUptime("0.07 1.00\n")).toBe(7);
    expect(tickOfUptime("1.09 2.00\n")).toBe(109);
    expect(tickOfUptime("23592.74 5046.94\n")).toBe(2359274);
    expect(tickOfUptime("")).toBeNull();
    expect(tickOfUptime("1e3 2\n")).toBeNull();
  });

  test("a process started after the turn's start tick was read has a start time no earlier, and none past the upper bound", () => {
    for (let i = 0; i < 100; i++) {
      const since = turnStartTick();
      const child = Bun.spawn(["sleep", "5"]);
      const started = Number(readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1]!.split(" ")[19]);
      const upper = ticksSinceBoot();
      child.kill();
      expect(started).toBeGreaterThanOrEqual(since);
      expect(started).toBeLessThanOrEqual(upper);
    }
  });
});
