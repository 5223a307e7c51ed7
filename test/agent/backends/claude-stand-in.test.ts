// The Claude Code backend against a stand-in `claude` (a shell script): bad output, sessions, usage — no
// model server, no real CLI (the real CLI runs in claude.slow.test.ts).
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { claudeAgent, claudeTokens } from "../../../src/agent/claude.ts";
import { readSessionRecord, sessionRecordPath, writeSessionRecord } from "../../../src/agent/cli-process.ts";
import { playGame } from "../../run/helpers.ts";
import { tempRoot, withEnv } from "./helpers.ts";

/** A stand-in `claude` that prints what the test says, for the bad-output paths (no model server needed). */
function fakeClaude(script: string): string {
  const dir = tempRoot();
  const bin = join(dir, "claude");
  writeFileSync(bin, `#!/bin/sh\n${script}\n`);
  chmodSync(bin, 0o755);
  return bin;
}

function workspace(): string {
  const ws = join(tempRoot(), "t", "glide", "workspace");
  mkdirSync(ws, { recursive: true });
  return ws;
}

const INPUT = { prompt: "play", turn: 1, availableActions: [1, 2, 3, 4] as const, actionCap: 5, seed: 0 };

describe("the Claude Code backend on bad output (a stand-in CLI)", () => {
  test("non-JSON output on exit 0 is a failed turn naming the output", async () => {
    const agent = claudeAgent({ bin: fakeClaude("echo 'Welcome to Claude!'"), timeoutSec: 10 });
    const r = await agent.turn({ ...INPUT, workspace: workspace() });
    expect(r._unsafeUnwrapErr().code).toBe("agent-output");
    expect(r._unsafeUnwrapErr().message).toContain("Welcome to Claude!");
  });

  test("a non-zero exit is a failed turn with its status and stderr", async () => {
    const other = claudeAgent({ bin: fakeClaude("echo 'segfault in module' >&2; exit 1"), timeoutSec: 10 });
    const e = (await other.turn({ ...INPUT, workspace: workspace() }))._unsafeUnwrapErr();
    expect([e.code, e.message]).toEqual(["agent-exit", "claude exited with status 1: segfault in module"]);
    const agent = claudeAgent({ bin: fakeClaude("echo 'Invalid API key' >&2; exit 1"), timeoutSec: 10 });
    const r = await agent.turn({ ...INPUT, workspace: workspace() });
    expect(r._unsafeUnwrapErr().code).toBe("api-key");
    expect(r._unsafeUnwrapErr().message).toBe("claude: the model API refused the credentials (Invalid API key)");
  });

  test("a 200 KiB prompt goes on stdin after -p, never in argv (128 KiB a string)", async () => {
    const ws = workspace();
    const prompt = "x".repeat(200 * 1024);
    const bin = fakeClaude(`printf '%s' "$*" > '${ws}/../argv.txt'; cat > '${ws}/../stdin.txt'; exit 3`);
    const agent = claudeAgent({ bin, timeoutSec: 10 });
    expect((await agent.turn({ ...INPUT, prompt, workspace: ws }))._unsafeUnwrapErr().message).toBe(
      "claude exited with status 3",
    );
    expect(readFileSync(join(ws, "..", "stdin.txt"), "utf8")).toBe(prompt);
    const argv = readFileSync(join(ws, "..", "argv.txt"), "utf8");
    expect(argv).toStartWith("-p --output-format stream-json");
    expect(argv.length).toBeLessThan(10_000);
  });

  test("the first turn creates the session by id, the next resumes it; --model and --effort pass through", async () => {
    const ws = workspace();
    const args = join(ws, "..", "args.txt");
    const result = (id: string) =>
      JSON.stringify({
        type: "result",
        subtype: "success",
        is_error: false,
        result: "ok",
        session_id: id,
        usage: { input_tokens: 3, cache_read_input_tokens: 20, cache_creation_input_tokens: 5, output_tokens: 2 },
        permission_denials: [],
      });
    const bin = fakeClaude(
      `echo "$@" >> '${args}'; for a in "$@"; do if [ "$prev" = --session-id ] || [ "$prev" = --resume ]; then id=$a; fi; prev=$a; done; echo '{"type":"system"}'; echo "$(printf '%s' '${result("ID")}' | sed "s/ID/$id/")"`,
    );
    const agent = claudeAgent({ bin, timeoutSec: 10, model: "m-1", effort: "high" });
    const one = (await agent.turn({ ...INPUT, workspace: ws }))._unsafeUnwrap();
    expect(one.tokens).toEqual({ input: 28, cached: 20, output: 2 });
    const two = (await agent.turn({ ...INPUT, turn: 2, workspace: ws }))._unsafeUnwrap();
    expect(two.text).toBe("ok");
    const lines = readFileSync(args, "utf8").trim().split("\n");
    const id = readSessionRecord(ws)._unsafeUnwrap()!.sessionId;
    expect(lines[0]).toContain(`--model m-1 --effort high --session-id ${id}`);
    expect(lines[1]).toContain(`--resume ${id}`);
    expect(existsSync(sessionRecordPath(ws))).toBe(true);
  });

  test("a session Claude no longer knows is not resumed forever: the retry starts a fresh one", async () => {
    const ws = workspace();
    const args = join(ws, "..", "args.txt");
    const bin = fakeClaude(
      `echo "$@" >> '${args}'; case "$*" in *--resume*) echo 'No conversation found with session ID: x' >&2; exit 1;; esac; echo '{"type":"result","subtype":"success","result":"ok","session_id":"s-2"}'`,
    );
    writeSessionRecord(ws, { backend: "claude", sessionId: "s-1", confirmed: true });
    const agent = claudeAgent({ bin, timeoutSec: 10 });
    const failed = await agent.turn({ ...INPUT, workspace: ws });
    expect(failed._unsafeUnwrapErr().message).toBe("claude exited with status 1: No conversation found with session ID: x");
    expect(readSessionRecord(ws)._unsafeUnwrap()).toEqual({ backend: "claude", sessionId: "s-1", confirmed: false });
    expect((await agent.turn({ ...INPUT, workspace: ws }))._unsafeUnwrap().text).toBe("ok");
    const lines = readFileSync(args, "utf8").trim().split("\n");
    expect(lines[0]).toContain("--resume s-1");
    expect(lines[1]).toContain("--session-id");
    expect(readSessionRecord(ws)._unsafeUnwrap()).toEqual({ backend: "claude", sessionId: "s-2", confirmed: true });
  });

  test("usage maps to input = uncached + cache reads + cache creation, cached = cache reads", () => {
    expect(
      claudeTokens({
        usage: { input_tokens: 7, cache_read_input_tokens: 900, cache_creation_input_tokens: 40, output_tokens: 12 },
      }),
    ).toEqual({ input: 947, cached: 900, output: 12 });
    expect(claudeTokens({})).toEqual({ input: 0, cached: 0, output: 0 });
  });
});

/** A local stand-in for the model API's GET /v1/models: answers `status`. */
function modelsServer(status: number) {
  return Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () =>
      Response.json(
        status === 200 ? { data: [] } : { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } },
        { status },
      ),
  });
}

describe("a model API that cannot be used ends the run agent-unavailable, in seconds, with one line", () => {
  const refused = JSON.stringify({
    type: "result",
    subtype: "success",
    is_error: true,
    result:
      'API Error: 401 {"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"},"request_id":"req_1"}',
    session_id: "00000000-0000-4000-8000-000000000000",
  });

  test("claude's is_error result naming a 401: one call, agent-unavailable, the server's message without its JSON; not scored", async () => {
    const server = modelsServer(200);
    try {
      const started = performance.now();
      const run = await withEnv({ ANTHROPIC_API_KEY: "sk-wrong", ANTHROPIC_BASE_URL: `http://127.0.0.1:${server.port}` }, () =>
        playGame({ game: "glide", agent: "claude", sandbox: "none", agentRetries: 3 }, tempRoot(), {
          agent: claudeAgent({ bin: fakeClaude(`echo '${refused}'; exit 1`), timeoutSec: 10 }),
        }),
      );
      expect(performance.now() - started).toBeLessThan(20_000);
      expect(run.end.reason).toBe("agent-unavailable");
      expect(run.summary.agentCalls).toBe(1);
      expect(run.end.detail).toContain(
        "claude: the model API refused the credentials (401 authentication_error: invalid x-api-key)",
      );
      expect(run.end.detail).not.toContain("{");
      expect(run.end.detail.split("\n")).toHaveLength(1);
    } finally {
      server.stop(true);
    }
  });

  test("a key the API refuses is found before the first call: no call made", async () => {
    const server = modelsServer(401);
    try {
      const run = await withEnv({ ANTHROPIC_API_KEY: "sk-wrong", ANTHROPIC_BASE_URL: `http://127.0.0.1:${server.port}` }, () =>
        playGame({ game: "glide", agent: "claude", sandbox: "none" }, tempRoot(), {
          agent: claudeAgent({ bin: fakeClaude("echo never >&2; exit 1"), timeoutSec: 10 }),
        }),
      );
      expect([run.end.reason, run.summary.agentCalls]).toEqual(["agent-unavailable", 0]);
      expect(run.end.detail).toContain("refused the credentials (401 authentication_error: invalid x-api-key)");
    } finally {
      server.stop(true);
    }
  });

  test("no credentials at all: said before the first call", async () => {
    const run = await withEnv(
      {
        ANTHROPIC_API_KEY: "",
        ANTHROPIC_AUTH_TOKEN: "",
        CLAUDE_CODE_OAUTH_TOKEN: "",
        CLAUDE_CODE_USE_BEDROCK: "",
        CLAUDE_CODE_USE_VERTEX: "",
      },
      () =>
        playGame({ game: "glide", agent: "claude", sandbox: "none" }, tempRoot(), {
          agent: claudeAgent({ bin: fakeClaude("exit 1"), timeoutSec: 10 }),
        }),
    );
    expect([run.end.reason, run.summary.agentCalls]).toEqual(["agent-unavailable", 0]);
    expect(run.end.detail).toContain("ANTHROPIC_API_KEY");
  });

  test("a failed call's next prompt says nothing was executed", async () => {
    const server = modelsServer(200);
    try {
      const run = await withEnv({ ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: `http://127.0.0.1:${server.port}` }, () =>
        playGame({ game: "glide", agent: "claude", sandbox: "none", agentRetries: 1 }, tempRoot(), {
          agent: claudeAgent({ bin: fakeClaude("echo 'segfault' >&2; exit 1"), timeoutSec: 10 }),
        }),
      );
      expect(run.end.reason).toBe("agent-failed");
      const prompts = run.events.filter((e) => e.kind === "agent-call").map((e) => String((e as { prompt?: unknown }).prompt));
      expect(prompts).toHaveLength(2);
      expect(prompts[1]).toContain("nothing was executed");
      expect(prompts[1]).not.toContain("Your actions were executed");
    } finally {
      server.stop(true);
    }
  });
});
