// SIGTERM, SIGHUP and SIGINT to `prolong play` during an agent's turn end the turn's whole process tree —
// the agent, its background child, and a daemon that left the session, cleared its environment and closed
// its pipes (found because the harness is the child subreaper) — and leave a run that `prolong resume`
// finishes. Under --sandbox none, where nothing else would hold them. The signal goes to the real process;
// the resume after it runs in this process (the run directory is all it reads). The signals are tried one
// after another, not at once: an agent's turn in this process makes it the child subreaper, and a turn ends by
// killing every child of the harness started during it, so another test's `prolong play` would be taken for
// a stray of the turn.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { resumeToEnd } from "./backends/helpers.ts";
import { tempRoot } from "../run/helpers.ts";

const MAIN = resolve(import.meta.dir, "../../src/main.ts");

/**
 * The agent: while ROOT/block exists it starts a background sleep, a double-forked daemon with a clean
 * environment and no pipes, records every pid in ROOT/pids, and sleeps; otherwise it moves right. ROOT is
 * written into the script, so the resume in this process needs nothing set in its environment.
 */
const agent = (root: string) => `#!/bin/sh
ROOT='${root}'
if [ -e "$ROOT/block" ]; then
  sleep 300 &
  echo $! >> "$ROOT/pids"
  setsid sh -c 'exec env -i /bin/sh -c "echo \\$\\$ >> $0/pids; exec sleep 300"' "$ROOT" < /dev/null > /dev/null 2>&1 &
  echo $$ >> "$ROOT/pids"
  sleep 300
fi
echo '{"actions": ["ACTION4"]}' > actions.json
echo '[PLAN]'; echo right
`;

function alive(pid: number): boolean {
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

async function until(what: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (what()) return true;
    await Bun.sleep(50);
  }
  return what();
}

function pidsOf(root: string): number[] {
  try {
    return readFileSync(join(root, "pids"), "utf8").trim().split("\n").filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Registers the trial for each signal named. */
export function defineSignalTrials(signals: readonly ("SIGTERM" | "SIGHUP" | "SIGINT")[]): void {
  describe("a signal to `prolong play` during an agent's turn (--sandbox none)", () => {
    for (const signal of signals) {
      test(`${signal}: the agent, its child and its clean-environment daemon are gone; the run resumes to its end`, async () => {
        const root = tempRoot();
        writeFileSync(join(root, "agent.sh"), agent(root));
        writeFileSync(join(root, "block"), "");
        const runs = join(root, "runs");
        const play = Bun.spawn(
          [process.execPath, MAIN, "play", "glide", "--agent", "command", "--cmd", `sh ${join(root, "agent.sh")}`].concat([
            "--sandbox",
            "none",
            "--max-actions",
            "2",
            "--agent-timeout",
            "600",
            // No retry: the stop itself must end the run interrupted, not a retry loop that happens to check it.
            "--agent-retries",
            "0",
            "--runs-dir",
            runs,
            "--quiet",
          ]),
          { stdout: "pipe", stderr: "pipe" },
        );
        expect(await until(() => pidsOf(root).length >= 3, 60_000)).toBe(true);
        const pids = pidsOf(root);
        expect(pids.every(alive)).toBe(true);
        play.kill(signal);
        const code = await play.exited;
        expect(code).toBe(signal === "SIGINT" ? 1 : signal === "SIGTERM" ? 143 : 129);
        expect(await until(() => !pids.some(alive), 5000)).toBe(true);

        // The run is resumable: without the block the agent answers, and the run ends at its budget.
        rmSync(join(root, "block"));
        const [stamp] = readdirSync(runs);
        const dir = join(runs, stamp!, "glide");
        expect(existsSync(join(dir, "logs.txt"))).toBe(true);
        const resumed = await resumeToEnd(dir);
        expect(resumed.end.reason).toBe("max-actions");
      }, 180_000);
    }
  });
}
