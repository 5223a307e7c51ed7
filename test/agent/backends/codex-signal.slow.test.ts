// SIGTERM to `prolong play` during a REAL Codex turn (the scripted model server has it run a long command
// through its exec_command tool): every process of the turn — the CLI, its shell, the command — is gone once
// play has exited, and `prolong resume` finishes the run. Under --sandbox none, where no pid namespace helps.
import { describe, test } from "bun:test";
import { randomUUID } from "node:crypto";
import { codexEnv, realCli, tempRoot } from "./helpers.ts";
import { signalThenResume } from "./signal-trial.ts";

const codex = realCli("codex", "@openai/codex");

describe.skipIf(!codex)("SIGTERM during a real Codex turn", () => {
  test("no process of the turn is left, and the run resumes to its end", async () => {
    // The processes are found by a variable only this test sets (Codex passes the environment to its commands,
    // but drops names holding KEY, SECRET or TOKEN).
    const id = randomUUID();
    await signalThenResume(tempRoot(), {
      agent: "codex",
      script: (marker) => [
        { tools: [{ name: "exec_command", input: { cmd: `echo started > '${marker}'; sleep 300`, yield_time_ms: 300_000 } }] },
        { tools: [{ name: "exec_command", input: { cmd: `printf '%s' '{"actions": ["ACTION4"]}' > actions.json` } }] },
        { text: "[PLAN]\nright" },
      ],
      env: (server) => ({ ...codexEnv(server), PROLONG_SIGNAL_TEST: id }),
      // play, the CLI and its command at least.
      mark: () => `PROLONG_SIGNAL_TEST=${id}`,
      atLeast: 3,
    });
  }, 300_000);
});
