// SIGTERM to `prolong play` during a REAL Claude Code turn (the scripted model server has it run a long
// command through its Bash tool): every process of the turn — the CLI, its shell, the command — is gone once
// play has exited, and `prolong resume` finishes the run. Under --sandbox none, where no pid namespace helps.
import { describe, test } from "bun:test";
import { claudeEnv, realCli, tempRoot } from "./helpers.ts";
import { signalThenResume } from "./signal-trial.ts";

const claude = realCli("claude", "@anthropic-ai/claude-code");

describe.skipIf(!claude)("SIGTERM during a real Claude Code turn", () => {
  test("no process of the turn is left, and the run resumes to its end", async () => {
    await signalThenResume(tempRoot(), {
      agent: "claude",
      script: (marker) => [
        { tools: [{ name: "Bash", input: { command: `echo started > '${marker}'; sleep 300`, description: "wait" } }] },
        { tools: [{ name: "Write", input: { file_path: "actions.json", content: '{"actions": ["ACTION4"]}' } }] },
        { text: "[PLAN]\nright" },
      ],
      env: claudeEnv,
      // The CLI and its shell at least carry the server's address.
      mark: (server) => `ANTHROPIC_BASE_URL=${server.url}`,
      atLeast: 2,
    });
  }, 300_000);
});
