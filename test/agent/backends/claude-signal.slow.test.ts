// SIGTERM to `prolong play` during a REAL Claude Code turn (the scripted model server has it run a long
// command through its Bash tool): every process of the turn — the CLI, its shell, the command — is gone once
// play has exited, and `prolong resume` finishes the run. Under --sandbox none, where no pid namespace helps.
import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { startModelServer } from "../../support/model-server.ts";
import { processesWith, realCli, tempRoot, until } from "./helpers.ts";

const claude = realCli("claude", "@anthropic-ai/claude-code");
const MAIN = resolve(import.meta.dir, "../../../src/main.ts");

describe.skipIf(!claude)("SIGTERM during a real Claude Code turn", () => {
  test("no process of the turn is left, and the run resumes to its end", async () => {
    const root = tempRoot();
    const marker = join(root, "started");
    // The first turn runs a long command (killed by the signal); the resumed turn answers with a move.
    const server = startModelServer([
      { tools: [{ name: "Bash", input: { command: `echo started > '${marker}'; sleep 300`, description: "wait" } }] },
      { tools: [{ name: "Write", input: { file_path: "actions.json", content: '{"actions": ["ACTION4"]}' } }] },
      { text: "[PLAN]\nright" },
    ]);
    const base = `ANTHROPIC_BASE_URL=${server.url}`;
    const env = {
      ...process.env,
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: "scripted",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    };
    try {
      const runs = join(root, "runs");
      const play = Bun.spawn(
        [process.execPath, MAIN, "play", "glide", "--agent", "claude", "--sandbox", "none", "--max-actions", "1"].concat([
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
      expect(await until(() => processesWith(base).length > 0 && Bun.file(marker).size > 0, 90_000)).toBe(true);
      const during = processesWith(base);
      expect(during.length).toBeGreaterThan(1); // the CLI and its shell at least
      play.kill("SIGTERM");
      expect(await play.exited).toBe(143);
      expect(await until(() => processesWith(base).length === 0, 5000)).toBe(true);

      // Resumed: the model now answers with a move; the run ends at its budget.
      const dir = join(runs, readdirSync(runs)[0]!, "glide");
      // Spawned, not spawnSync: the model server lives in this process and must go on answering.
      const resumed = Bun.spawn([process.execPath, MAIN, "resume", dir, "--json"], { env, stdout: "pipe", stderr: "pipe" });
      const out = await new Response(resumed.stdout).text();
      expect(await resumed.exited).toBe(0);
      expect((JSON.parse(out.trim().split("\n").at(-1)!) as { end: string }).end).toBe("max-actions");
      expect(processesWith(base)).toEqual([]);
    } finally {
      server.stop();
    }
  }, 300_000);
});
