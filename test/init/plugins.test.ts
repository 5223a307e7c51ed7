// The opencode plugin and the pi extension, loaded from a freshly initialised project and driven with the
// event shapes each client documents (opencode: chat.message / tool.execute.after hooks; pi: pi.on events).
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { OPENCODE_PLUGIN_PATH } from "../../src/init/clients/opencode.ts";
import { PI_EXTENSION_PATH } from "../../src/init/clients/pi.ts";
import { initProject } from "../../src/init/project.ts";

function rows(root: string): { client: string; session: string; type: string; content: unknown }[] {
  return readFileSync(path.join(root, ".prolong/log.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));
}

describe("client plugins", () => {
  test("opencode: prompts and tool calls are appended, log searches are not", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "prolong-opencode-"));
    initProject(root, ["opencode"], false)._unsafeUnwrap();
    const mod = (await import(path.join(root, OPENCODE_PLUGIN_PATH))) as {
      ProlongMemory: () => Promise<Record<string, (...a: unknown[]) => Promise<void>>>;
    };
    const hooks = await mod.ProlongMemory();
    await hooks["event"]!({ event: { type: "session.created", properties: { info: { id: "ses_1" } } } });
    await hooks["chat.message"]!(
      { sessionID: "ses_1" },
      {
        message: {},
        parts: [
          { type: "text", text: "add a test" },
          { type: "text", text: "ctx", synthetic: true },
        ],
      },
    );
    await hooks["tool.execute.after"]!(
      { tool: "bash", sessionID: "ses_1", callID: "c1", args: { command: "bun test" } },
      { title: "", output: "1 pass", metadata: {} },
    );
    await hooks["tool.execute.after"]!(
      { tool: "grep", sessionID: "ses_1", callID: "c2", args: { pattern: "x", path: ".prolong/log.jsonl" } },
      { title: "", output: "", metadata: {} },
    );
    expect(rows(root).map((r) => [r.client, r.session, r.type, r.content])).toEqual([
      ["opencode", "ses_1", "session_start", null],
      ["opencode", "ses_1", "prompt", "add a test"],
      ["opencode", "ses_1", "tool_call", { tool: "bash", input: { command: "bun test" }, output: "1 pass" }],
    ]);
  });

  test("pi: input and tool_result events are appended with the session id", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "prolong-pi-"));
    initProject(root, ["pi"], false)._unsafeUnwrap();
    const mod = (await import(path.join(root, PI_EXTENSION_PATH))) as { default: (pi: unknown) => void };
    const handlers: Record<string, (event: unknown, ctx: unknown) => Promise<unknown>> = {};
    mod.default({ on: (name: string, fn: (event: unknown, ctx: unknown) => Promise<unknown>) => void (handlers[name] = fn) });
    const ctx = { cwd: root, sessionManager: { getSessionId: () => "pi-1" } };
    await handlers["session_start"]!({ reason: "startup" }, ctx);
    expect(await handlers["input"]!({ text: "rename the module", source: "interactive" }, ctx)).toEqual({ action: "continue" });
    await handlers["tool_result"]!(
      {
        toolName: "bash",
        toolCallId: "t",
        input: { command: "git mv a b" },
        content: [{ type: "text", text: "ok" }],
        isError: false,
      },
      ctx,
    );
    await handlers["tool_result"]!(
      { toolName: "read", toolCallId: "u", input: { path: ".prolong/log.jsonl" }, content: [], isError: false },
      ctx,
    );
    expect(rows(root).map((r) => [r.client, r.session, r.type, r.content])).toEqual([
      ["pi", "pi-1", "session_start", { source: "startup", cwd: root }],
      ["pi", "pi-1", "prompt", "rename the module"],
      ["pi", "pi-1", "tool_call", { tool: "bash", input: { command: "git mv a b" }, output: "ok" }],
    ]);
  });
});
