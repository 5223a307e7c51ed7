// SIGTERM to `prolong play` during a REAL Codex turn (the scripted model server has it run a long command
// through its exec_command tool): every process of the turn — the CLI, its shell, the command — is gone once
// play has exited, and `prolong resume` finishes the run. Under --sandbox none, where no pid namespace helps.
// The processes are found by a variable only this test sets (Codex passes the environment to its commands,
// but drops names holding KEY, SECRET or TOKEN).
import { describe, expect, test } from "bun:test";
import { randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { startModelServer } from "../../support/model-server.ts";
import { processesWith, realCli, tempRoot, until } from "./helpers.ts";

const codex = realCli("codex", "@openai/codex");
const MAIN = resolve(import.meta.dir, "../../../src/main.ts");

describe.skipIf(!codex)("SIGTERM during a real Codex turn", () => {
  test("no process of the turn is left, and the run resumes to its end", async () => {
    const root = tempRoot();
    const marker = join(root, "started");
    // The first turn runs a long command (killed by the signal); the resumed turn answers with a move.
    const server = startModelServer([
      { tools: [{ name: "exec_command", input: { cmd: `echo started > '${marker}'; sleep 300`, yield_time_ms: 300_000 } }] },
      { tools: [{ name: "exec_command", input: { cmd: `printf '%s' '{"actions": ["ACTION4"]}' > actions.json` } }] },
      { text: "[PLAN]\nright" },
    ]);
    const home = join(root, "codex-home");
    mkdirSync(home, { recursive: true });
    writeFileSync(
      join(home, "config.toml"),
      `model = "scripted"\nmodel_provider = "local"\n\n[model_providers.local]\nname = "local"\nbase_url = "${server.url}/v1"\nwire_api = "responses"\nenv_key = "CODEX_LOCAL_KEY"\n`,
    );
    const entry = `PROLONG_SIGNAL_TEST=${randomUUID()}`;
    const env = { ...process.env, CODEX_HOME: home, CODEX_LOCAL_KEY: "scripted", PROLONG_SIGNAL_TEST: entry.split("=")[1]! };
    try {
      const runs = join(root, "runs");
      const play = Bun.spawn(
        [process.execPath, MAIN, "play", "glide", "--agent", "codex", "--sandbox", "none", "--max-actions", "1"].concat([
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
      expect(await until(() => processesWith(entry).length > 0 && Bun.file(marker).size > 0, 90_000)).toBe(true);
      const during = processesWith(entry);
      expect(during.length).toBeGreaterThan(2); // play, the CLI and its command at least
      play.kill("SIGTERM");
      expect(await play.exited).toBe(143);
      expect(await until(() => processesWith(entry).length === 0, 5000)).toBe(true);

      // Resumed: the model now answers with a move; the run ends at its budget.
      const dir = join(runs, readdirSync(runs)[0]!, "glide");
      // Spawned, not spawnSync: the model server lives in this process and must go on answering.
      const resumed = Bun.spawn([process.execPath, MAIN, "resume", dir, "--json"], { env, stdout: "pipe", stderr: "pipe" });
      const out = await new Response(resumed.stdout).text();
      expect(await resumed.exited).toBe(0);
      expect((JSON.parse(out.trim().split("\n").at(-1)!) as { end: string }).end).toBe("max-actions");
      expect(processesWith(entry)).toEqual([]);
    } finally {
      server.stop();
    }
  }, 300_000);
});
