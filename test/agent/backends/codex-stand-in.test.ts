// The Codex backend against a stand-in `codex` (a shell script): bad output, threads, usage deltas — no
// model server, no real CLI (the real CLI runs in codex.slow.test.ts).
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { codexAgent, usageDelta } from "../../../src/agent/codex.ts";
import { providerKeys } from "../../../src/agent/codex-provider.ts";
import { tempRoot } from "./helpers.ts";

function workspace(): string {
  const ws = join(tempRoot(), "t", "glide", "workspace");
  mkdirSync(ws, { recursive: true });
  return ws;
}

function fakeCodex(script: string): string {
  const bin = join(tempRoot(), "codex");
  writeFileSync(bin, `#!/bin/sh\n${script}\n`);
  chmodSync(bin, 0o755);
  return bin;
}

const INPUT = { prompt: "play", turn: 1, availableActions: [1, 2, 3, 4] as const, actionCap: 5, seed: 0 };

describe("the Codex backend on bad output (a stand-in CLI)", () => {
  test("no turn.completed line is a failed turn, naming the last error Codex printed", async () => {
    const agent = codexAgent({
      bin: fakeCodex(`echo '{"type":"thread.started","thread_id":"th-1"}'; echo '{"type":"error","message":"401 Unauthorized"}'`),
      timeoutSec: 10,
      userCodexHome: tempRoot(),
    });
    const r = await agent.turn({ ...INPUT, workspace: workspace() });
    expect(r._unsafeUnwrapErr().code).toBe("agent-output");
    expect(r._unsafeUnwrapErr().message).toContain("401 Unauthorized");
  });

  test("turn.failed and a non-zero exit are failed turns; the prompt arrives on stdin", async () => {
    const failed = codexAgent({
      bin: fakeCodex(`echo '{"type":"turn.failed","error":{"message":"model not found"}}'`),
      timeoutSec: 10,
      userCodexHome: tempRoot(),
    });
    expect((await failed.turn({ ...INPUT, workspace: workspace() }))._unsafeUnwrapErr().message).toBe(
      "codex reported a failed turn: model not found",
    );
    const ws = workspace();
    const exit = codexAgent({ bin: fakeCodex(`cat > '${ws}/stdin.txt'; exit 2`), timeoutSec: 10, userCodexHome: tempRoot() });
    expect((await exit.turn({ ...INPUT, workspace: ws }))._unsafeUnwrapErr().message).toBe("codex exited with status 2");
    expect(readFileSync(join(ws, "stdin.txt"), "utf8")).toBe("play");
  });

  test("a 200 KiB prompt goes on stdin, never in argv (128 KiB a string)", async () => {
    const ws = workspace();
    const prompt = "x".repeat(200 * 1024);
    const bin = fakeCodex(`printf '%s' "$*" > '${ws}/../argv.txt'; cat > '${ws}/../stdin.txt'; exit 2`);
    const agent = codexAgent({ bin, timeoutSec: 10, userCodexHome: tempRoot() });
    expect((await agent.turn({ ...INPUT, prompt, workspace: ws }))._unsafeUnwrapErr().message).toBe("codex exited with status 2");
    expect(readFileSync(join(ws, "..", "stdin.txt"), "utf8")).toBe(prompt);
    expect(readFileSync(join(ws, "..", "argv.txt"), "utf8")).toEndWith(" -");
  });

  test("the second turn resumes the thread by id; -m and the effort pass through", async () => {
    const ws = workspace();
    const args = join(ws, "..", "args.txt");
    const bin = fakeCodex(
      `echo "$@" >> '${args}'; echo '{"type":"thread.started","thread_id":"th-9"}'; echo '{"type":"item.completed","item":{"type":"command_execution"}}'; echo '{"type":"item.completed","item":{"type":"agent_message","text":"done"}}'; echo '{"type":"turn.completed","usage":{"input_tokens":50,"cached_input_tokens":10,"output_tokens":4}}'`,
    );
    const agent = codexAgent({ bin, timeoutSec: 10, model: "gpt-x", effort: "high", userCodexHome: tempRoot() });
    const one = (await agent.turn({ ...INPUT, workspace: ws }))._unsafeUnwrap();
    expect(one).toMatchObject({ text: "done", toolCalls: 1, tokens: { input: 50, cached: 10, output: 4 } });
    await agent.turn({ ...INPUT, turn: 2, workspace: ws });
    const lines = readFileSync(args, "utf8").trim().split("\n");
    expect(lines[0]).toContain('-m gpt-x -c model_reasoning_effort="high" -');
    expect(lines[0]).not.toContain("resume");
    expect(lines[1]).toContain("resume th-9 -");
    expect(existsSync(join(ws, "..", "agent-home", "codex"))).toBe(true);
  });

  test("usage deltas: subtract the totals after the previous turn; a total that fell means a fresh thread", () => {
    expect(usageDelta({ input: 600, cached: 240, output: 42 }, { input: 300, cached: 120, output: 21 })).toEqual({
      input: 300,
      cached: 120,
      output: 21,
    });
    expect(usageDelta({ input: 50, cached: 0, output: 5 }, { input: 300, cached: 120, output: 21 })).toEqual({
      input: 50,
      cached: 0,
      output: 5,
    });
    expect(usageDelta({ input: 50, cached: 0, output: 5 }, undefined)).toEqual({ input: 50, cached: 0, output: 5 });
  });
});

describe("a configured provider's key under a sandbox", () => {
  test("the env_key names of the user's config.toml pass with their values; unset names and other variables do not", () => {
    const home = mkdtempSync(join(tmpdir(), "prolong-codex-keys-"));
    writeFileSync(
      join(home, "config.toml"),
      `model_provider = "local"\n[model_providers.local]\nbase_url = "http://127.0.0.1:1/v1"\nenv_key = "LOCAL_KEY"\n` +
        `[model_providers.other]\n  env_key = "OTHER_KEY"\n# env_key = "COMMENTED_KEY"\n`,
    );
    const env = { LOCAL_KEY: "k1", OTHER_KEY: "k2", COMMENTED_KEY: "no", AWS_SECRET_ACCESS_KEY: "secret" };
    expect(providerKeys(home, env)).toEqual({ LOCAL_KEY: "k1", OTHER_KEY: "k2" });
    expect(providerKeys(join(home, "absent"), env)).toEqual({});
  });
});
