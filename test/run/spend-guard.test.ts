// The spend guard: --max-billed-tokens N lets no agent call start once the run has billed N tokens; the run
// stops cleanly (the last batch played, interrupted, resumable) and `resume --max-billed-tokens M` goes on.
// The agent is a stand-in Claude Code CLI reporting 1,000 uncached input tokens per call.
import { describe, expect, test } from "bun:test";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { claudeAgent } from "../../src/agent/claude.ts";
import { armOf } from "../../src/config/arm.ts";
import { newConfig } from "../../src/config/run-config.ts";
import { finishRun } from "../../src/run/finish.ts";
import { resumeRun } from "../../src/run/resume.ts";
import { runLoop } from "../../src/run/runner.ts";
import { withEnv } from "../agent/backends/helpers.ts";
import { playGame, tempRoot } from "./helpers.ts";

function standIn(): string {
  const bin = join(tempRoot(), "claude");
  const result = JSON.stringify({
    type: "result",
    subtype: "success",
    is_error: false,
    result: "moving",
    session_id: "00000000-0000-4000-8000-000000000000",
    usage: { input_tokens: 1000, output_tokens: 0 },
  });
  writeFileSync(bin, `#!/bin/sh\necho '{"actions":["ACTION1"]}' > actions.json\necho '${result}'\n`);
  chmodSync(bin, 0o755);
  return bin;
}

// Credentials the access check accepts without a server (an unreachable API is left to the CLI).
const ENV = { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "http://127.0.0.1:9" };

describe("--max-billed-tokens", () => {
  test("3 calls of 1,000 billed tokens reach a budget of 2,500: no 4th call; resumed with 5,000, two more", async () => {
    const bin = standIn();
    const run = await withEnv(ENV, () =>
      playGame({ game: "glide", agent: "claude", sandbox: "none", maxActions: 50, maxBilledTokens: 2500 }, tempRoot(), {
        agent: claudeAgent({ bin, timeoutSec: 10 }),
      }),
    );
    expect([run.end.reason, run.summary.agentCalls, run.summary.actions]).toEqual(["interrupted", 3, 3]);
    expect(run.end.detail).toContain("spent its budget of 2500 billed tokens (3000 billed)");
    expect(run.end.detail).toContain("--max-billed-tokens N");

    const dir = run.session.paths.dir;
    const { resumed, end } = await withEnv(ENV, async () => {
      const resumed = (
        await resumeRun(dir, { maxBilledTokens: 5000 }, { agent: claudeAgent({ bin, timeoutSec: 10 }) })
      )._unsafeUnwrap();
      return { resumed, end: await runLoop(resumed, new AbortController().signal) };
    });
    const { summary } = await finishRun(resumed, end);
    expect([end.reason, summary.agentCalls, summary.actions]).toEqual(["interrupted", 5, 5]);
    expect(JSON.parse(readFileSync(join(dir, "run.json"), "utf8")).maxBilledTokens).toBe(5000);
  });

  test("the flag through the real CLI: range checked, and not part of the arm", () => {
    const MAIN = join(import.meta.dir, "../../src/main.ts");
    const bad = Bun.spawnSync([process.execPath, MAIN, "play", "glide", "--max-billed-tokens", "0"]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr.toString()).toContain("--max-billed-tokens");
    const runs = tempRoot();
    const ok = Bun.spawnSync([
      process.execPath,
      MAIN,
      "play",
      "glide",
      "--max-actions",
      "2",
      "--max-billed-tokens",
      "1000",
      "--runs-dir",
      runs,
      "--json",
    ]);
    expect(ok.exitCode).toBe(0);
    const summary = JSON.parse(ok.stdout.toString().trim().split("\n").at(-1)!) as { dir: string; end: string };
    expect(summary.end).toBe("max-actions");
    expect(JSON.parse(readFileSync(join(summary.dir, "run.json"), "utf8")).maxBilledTokens).toBe(1000);
    // A budget is bookkeeping, like a timeout: runs under different guards pool in one arm.
    const arm = (fields: object) => armOf(newConfig({ game: "glide", ...fields })._unsafeUnwrap()).fingerprint;
    expect(arm({ maxBilledTokens: 1000 })).toBe(arm({}));
  });
});
