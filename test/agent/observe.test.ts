// The --observe arm: refused with the reason for agents without a tool channel; in the fingerprint; the MCP
// server `prolong mcp-observe` over real stdio (handshake, the one tool, its read of only the harness's file);
// and a mini-agent run with --log-window none --observe mcp against the scripted chat server, whose agent
// sees the board only through its observe calls — never in a prompt — each call in the trajectory.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { armFingerprint, armSettingsOf } from "../../src/config/arm.ts";
import { newConfig } from "../../src/config/run-config.ts";
import { readTrajectory } from "../../src/run-files/trajectory.ts";
import { classifyCall } from "../../src/score/tool-classes.ts";
import { withEnv } from "./backends/helpers.ts";
import { startChatServer, type ChatStep } from "../support/chat-server.ts";
import { playGame } from "../run/helpers.ts";

const MAIN = resolve(import.meta.dir, "../../src/main.ts");

/** Talks to `prolong mcp-observe` through its stdin and stdout, one JSON-RPC message per line. */
async function mcp(file: string, messages: unknown[]): Promise<Record<string, unknown>[]> {
  const child = Bun.spawn([process.execPath, MAIN, "mcp-observe", "--file", file], { stdin: "pipe", stdout: "pipe" });
  child.stdin.write(messages.map((m) => `${JSON.stringify(m)}\n`).join(""));
  child.stdin.end();
  const out = await new Response(child.stdout).text();
  await child.exited;
  return out
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
}

describe("--observe mcp", () => {
  test("refused for a command agent (and the built-in player), naming why; part of the arm's fingerprint", () => {
    const refused = newConfig({ game: "glide", agent: "command", cmd: "true", observe: "mcp" })._unsafeUnwrapErr();
    expect(refused.message).toBe("--observe does not apply to --agent command (it is for mini, claude, codex)");
    expect(refused.fix).toContain("drop --observe");
    expect(newConfig({ game: "glide", observe: "mcp" }).isErr()).toBe(true);
    const plain = newConfig({ game: "glide", agent: "claude", logWindow: "none" })._unsafeUnwrap();
    const observed = newConfig({ game: "glide", agent: "claude", logWindow: "none", observe: "mcp" })._unsafeUnwrap();
    expect(armSettingsOf(observed)["observe"]).toBe("mcp");
    expect(armFingerprint(armSettingsOf(observed))).not.toBe(armFingerprint(armSettingsOf(plain)));
  });

  test("the MCP server: handshake, one tool, its call returns the file; a missing file or a link is an error result", async () => {
    const dir = mkdtempSync(join(tmpdir(), "prolong-mcp-"));
    const file = join(dir, "observation.txt");
    writeFileSync(file, "[CURRENT BOARD STATE]\nOO\n");
    const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {} } };
    const replies = await mcp(file, [
      init,
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "observe", arguments: {} } },
      { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "bash", arguments: { command: "id" } } },
      { jsonrpc: "2.0", id: 5, method: "resources/list" },
    ]);
    expect(replies.map((r) => r["id"])).toEqual([1, 2, 3, 4, 5]);
    expect(replies[0]).toMatchObject({ result: { protocolVersion: "2025-06-18", capabilities: { tools: {} } } });
    expect((replies[1]!["result"] as { tools: { name: string }[] }).tools.map((t) => t.name)).toEqual(["observe"]);
    expect(replies[2]).toMatchObject({ result: { content: [{ type: "text", text: "[CURRENT BOARD STATE]\nOO\n" }] } });
    expect(replies[3]).toMatchObject({ error: { code: -32602 } });
    expect(replies[4]).toMatchObject({ error: { code: -32601 } });

    const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "observe", arguments: {} } };
    const missing = await mcp(join(dir, "none.txt"), [call]);
    expect(missing[0]).toMatchObject({
      result: { isError: true, content: [{ text: "no observation yet (the harness writes one before each turn)" }] },
    });
    const link = join(dir, "link.txt");
    symlinkSync("/etc/passwd", link);
    const linked = await mcp(link, [call]);
    expect(linked[0]).toMatchObject({ result: { isError: true } });
    expect(JSON.stringify(linked[0])).not.toContain("root:");
  });

  test("a no-log mini agent with --observe mcp: the board only through observe, never in a prompt; the calls classified", async () => {
    const move = `echo '{"actions": ["ACTION4"]}' > actions.json`;
    const turn: ChatStep[] = [{ toolCall: { name: "observe", arguments: "{}" } }, { commands: [move], text: "[PLAN]\nright" }];
    const server = startChatServer([...turn, ...turn]);
    try {
      const run = await withEnv({ OPENAI_API_KEY: "scripted" }, () =>
        playGame({
          game: "glide",
          agent: "mini",
          model: "scripted",
          baseUrl: server.baseUrl,
          logWindow: "none",
          observe: "mcp",
          maxActions: 2,
          sandbox: "none",
          agentRetries: 0,
        }),
      );
      expect(run.end.reason).toBe("max-actions");
      // What the model was sent: the tools, and no board in any prompt (the system prompt, the turn prompts).
      const first = server.requests[0]!.body;
      expect((first["tools"] as { function: { name: string } }[]).map((t) => t.function.name)).toEqual(["bash", "observe"]);
      const messages = server.requests.at(-1)!.body["messages"] as { role: string; content: string | null }[];
      const prompts = messages.filter((m) => m.role === "system" || m.role === "user").map((m) => m.content ?? "");
      expect(prompts.length).toBe(3);
      for (const p of prompts) {
        expect(p).not.toContain("[CURRENT BOARD STATE]\n");
        expect(p).not.toMatch(/^[$8#hqOCznf(G\->I"]{64}$/m);
      }
      expect(prompts[1]).toContain("Call the observe tool for the board");
      // The tool's answers carried it: the settled board after each batch, with the batch's section from turn 2.
      const observed = messages.filter((m) => m.role === "tool" && m.content?.startsWith("Score:")).map((m) => m.content!);
      expect(observed.length).toBe(2);
      expect(observed[0]).toContain("[CURRENT BOARD STATE]");
      expect(observed[1]).toContain("[LAST BATCH: 1 section(s)]");
      expect(observed[1]).toContain("Action 1 |");
      // No log file, and the trajectory lists each observe call, classified observe.
      const records = readTrajectory(run.session.paths.trajectory)._unsafeUnwrap();
      const calls = records.filter((r) => r.kind === "tool");
      expect(calls.map((c) => [c.turn, c.tool, classifyCall(c).class])).toEqual([
        [1, "observe", "observe"],
        [1, "bash", "action-file"],
        [2, "observe", "observe"],
        [2, "bash", "action-file"],
      ]);
      expect(records.filter((r) => r.kind === "turn").map((r) => r.logBytes)).toEqual([0, 0]);
      expect(readFileSync(join(run.session.paths.dir, "observe", "observation.txt"), "utf8")).toContain("[LAST BATCH");
    } finally {
      server.stop();
    }
  });
});
