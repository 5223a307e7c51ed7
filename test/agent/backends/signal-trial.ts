// The signal trial both real CLIs go through: SIGTERM to `prolong play` while the CLI's turn runs a long
// command, then `prolong resume` to the run's end. Under --sandbox none, where no pid namespace helps, so
// what is checked is the harness's own cleanup: no process of the turn outlives play.
import { expect } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { startModelServer, type ScriptedTurn } from "../../support/model-server.ts";
import { MAIN } from "../../support/prolong-process.ts";
import { processesWith, until } from "./helpers.ts";

export interface SignalTrial {
  readonly agent: "claude" | "codex";
  /** The turns the model server plays: a long command that writes `marker` first, then a move, then a plan. */
  readonly script: (marker: string) => ScriptedTurn[];
  /** The variables that point the CLI at the model server. */
  readonly env: (server: { url: string }) => Record<string, string>;
  /** An environment entry every process of the turn carries (how they are found in /proc). */
  readonly mark: (server: { url: string }) => string;
  /** How many such processes the turn has at least while its command runs. */
  readonly atLeast: number;
}

export async function signalThenResume(root: string, t: SignalTrial): Promise<void> {
  const marker = join(root, "started");
  const server = startModelServer(t.script(marker));
  const env = { ...process.env, ...t.env(server) };
  const mark = t.mark(server);
  try {
    const runs = join(root, "runs");
    const play = Bun.spawn(
      [process.execPath, MAIN, "play", "glide", "--agent", t.agent, "--sandbox", "none", "--max-actions", "1"].concat([
        "--agent-timeout",
        "600",
        "--agent-retries",
        "0",
        "--runs-dir",
        runs,
        "--quiet",
      ]),
      { env, stdout: "pipe", stderr: "pipe" },
    );
    expect(await until(() => processesWith(mark).length > 0 && Bun.file(marker).size > 0, 90_000)).toBe(true);
    expect(processesWith(mark).length).toBeGreaterThanOrEqual(t.atLeast);
    play.kill("SIGTERM");
    expect(await play.exited).toBe(143);
    expect(await until(() => processesWith(mark).length === 0, 5000)).toBe(true);

    // Resumed: the model now answers with a move; the run ends at its budget.
    const dir = join(runs, readdirSync(runs)[0]!, "glide");
    // Spawned, not spawnSync: the model server lives in this process and must go on answering.
    const resumed = Bun.spawn([process.execPath, MAIN, "resume", dir, "--json"], { env, stdout: "pipe", stderr: "pipe" });
    const out = await new Response(resumed.stdout).text();
    expect(await resumed.exited).toBe(0);
    expect((JSON.parse(out.trim().split("\n").at(-1)!) as { end: string }).end).toBe("max-actions");
    expect(processesWith(mark)).toEqual([]);
  } finally {
    server.stop();
  }
}
