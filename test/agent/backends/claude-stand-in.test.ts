// The Claude Code backend against a stand-in `claude` (a shell script): bad output, sessions, usage — no
// model server, no real CLI (the real CLI runs in claude.slow.test.ts).
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { claudeAgent, claudeTokens } from "../../../src/agent/claude.ts";
import { readSessionRecord, sessionRecordPath, writeSessionRecord } from "../../../src/agent/cli-process.ts";
import { conversation, play, tempRoot } from "./helpers.ts";

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
    const agent = claudeAgent({ bin: fakeClaude("echo 'Invalid API key' >&2; exit 1"), timeoutSec: 10 });
    const r = await agent.turn({ ...INPUT, workspace: workspace() });
    expect(r._unsafeUnwrapErr().code).toBe("agent-exit");
    expect(r._unsafeUnwrapErr().message).toBe("claude exited with status 1: Invalid API key");
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
