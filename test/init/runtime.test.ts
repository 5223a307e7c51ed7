// The runtime the hooks call (.prolong/hook.mjs), run the way the clients run it: under Node, as a file.
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { RUNTIME_SOURCE } from "../../src/init/runtime-source.ts";

const node = Bun.which("node");
if (!node) console.log("skipping runtime tests: node is not on PATH (the hooks run the runtime with node)");

function project(): { root: string; runtime: string; log: string } {
  const root = mkdtempSync(path.join(tmpdir(), "prolong-runtime-"));
  mkdirSync(path.join(root, ".prolong"));
  const runtime = path.join(root, ".prolong/hook.mjs");
  writeFileSync(runtime, RUNTIME_SOURCE);
  return { root, runtime, log: path.join(root, ".prolong/log.jsonl") };
}

function hook(runtime: string, client: string, payload: unknown): { exitCode: number; stderr: string } {
  const r = Bun.spawnSync([node!, runtime, client], {
    stdin: new TextEncoder().encode(JSON.stringify(payload)),
    stderr: "pipe",
    stdout: "pipe",
  });
  return { exitCode: r.exitCode ?? -1, stderr: r.stderr.toString() };
}

function entries(log: string): Record<string, unknown>[] {
  return readFileSync(log, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));
}

describe.skipIf(!node)("hook runtime", () => {
  test("maps Claude Code / Codex hook payloads to time, client, session, type, content", () => {
    const { runtime, log } = project();
    hook(runtime, "claude", { hook_event_name: "SessionStart", session_id: "s1", source: "startup", cwd: "/w" });
    hook(runtime, "claude", { hook_event_name: "UserPromptSubmit", session_id: "s1", prompt: "fix the parser" });
    hook(runtime, "codex", {
      hook_event_name: "PostToolUse",
      session_id: "s2",
      tool_name: "Bash",
      tool_input: { command: "ls" },
      tool_response: "a\nb\n",
    });
    hook(runtime, "codex", { hook_event_name: "Stop", session_id: "s2", last_assistant_message: "done" });
    const rows = entries(log);
    expect(rows.map((r) => [r["client"], r["session"], r["type"]])).toEqual([
      ["claude", "s1", "session_start"],
      ["claude", "s1", "prompt"],
      ["codex", "s2", "tool_call"],
      ["codex", "s2", "stop"],
    ]);
    expect(rows[1]!["content"]).toBe("fix the parser");
    expect(rows[2]!["content"]).toEqual({ tool: "Bash", input: { command: "ls" }, output: "a\nb\n" });
    expect(typeof rows[0]!["time"]).toBe("string");
    expect(Number.isNaN(Date.parse(rows[0]!["time"] as string))).toBe(false);
  });

  test("reads of the log itself are not recorded", () => {
    const { runtime, log } = project();
    hook(runtime, "claude", {
      hook_event_name: "PostToolUse",
      session_id: "s",
      tool_name: "Bash",
      tool_input: { command: "rg -n parser .prolong/log.jsonl" },
      tool_response: { stdout: "3:{...}" },
    });
    hook(runtime, "claude", {
      hook_event_name: "PostToolUse",
      session_id: "s",
      tool_name: "Read",
      tool_input: { file_path: "/w/.prolong/log.jsonl" },
      tool_response: "...",
    });
    hook(runtime, "claude", {
      hook_event_name: "PostToolUse",
      session_id: "s",
      tool_name: "Bash",
      tool_input: { command: "grep -rn parser ." },
      tool_response: './.prolong/log.jsonl:3:{"type":"prompt"}',
    });
    hook(runtime, "claude", {
      hook_event_name: "PostToolUse",
      session_id: "s",
      tool_name: "Bash",
      tool_input: { command: "cat AGENTS.md" },
      tool_response: "see .prolong/log.jsonl for history",
    });
    const rows = entries(log);
    expect(rows.length).toBe(1);
    expect((rows[0]!["content"] as { input: { command: string } }).input.command).toBe("cat AGENTS.md");
  });

  test("a long event is cut to one line under 4096 bytes, still valid JSON", () => {
    const { runtime, log } = project();
    const big = "x".repeat(50_000) + "é".repeat(3000);
    hook(runtime, "claude", {
      hook_event_name: "PostToolUse",
      session_id: "s",
      tool_name: "Read",
      tool_input: { file_path: "big.txt" },
      tool_response: { content: big, lines: [big, big] },
    });
    const text = readFileSync(log, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    expect(text.split("\n").length).toBe(2);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
    const row = JSON.parse(text) as { content: { input: { file_path: string }; output: { content: string } } };
    expect(row.content.input.file_path).toBe("big.txt");
    expect(row.content.output.content).toContain("[...cut ");
  });

  test("a malformed payload is reported on stderr and never fails the client's session", () => {
    const { runtime } = project();
    const r = Bun.spawnSync([node!, runtime, "claude"], { stdin: new TextEncoder().encode("{not json"), stderr: "pipe" });
    expect(r.exitCode).toBe(0);
    expect(r.stderr.toString()).toContain("prolong hook:");
  });

  test("two processes appending at once never tear a line", async () => {
    const { root, runtime, log } = project();
    const perWriter = 1500;
    // Each writer appends lines of varying length up to the 4 KB cap, tagged with its id and sequence.
    const writer = path.join(root, "writer.mjs");
    writeFileSync(
      writer,
      [
        `import { record } from ${JSON.stringify(runtime)};`,
        "const id = process.argv[2];",
        `for (let i = 0; i < ${perWriter}; i++) record("test", "tool_call", id, { seq: i, pad: id.repeat(1 + (i * 37) % 3900) });`,
      ].join("\n"),
    );
    const procs = ["A", "B"].map((id) => Bun.spawn([node!, writer, id], { stdout: "ignore", stderr: "pipe" }));
    const codes = await Promise.all(procs.map((p) => p.exited));
    expect(codes).toEqual([0, 0]);
    const lines = readFileSync(log, "utf8").split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.length).toBe(2 * perWriter);
    const seen: Record<string, number[]> = { A: [], B: [] };
    for (const line of lines) {
      expect(Buffer.byteLength(line) + 1).toBeLessThanOrEqual(4096);
      const row = JSON.parse(line) as { session: string; content: { seq: number; pad: string } };
      expect(row.content.pad.startsWith(row.session)).toBe(true);
      seen[row.session]!.push(row.content.seq);
    }
    // Each writer's lines are all there, in its own order.
    for (const id of ["A", "B"]) expect(seen[id]).toEqual(Array.from({ length: perWriter }, (_, i) => i));
  }, 60_000);
});
