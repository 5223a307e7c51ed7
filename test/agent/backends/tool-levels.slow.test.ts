// The tool ladder and --context-limit with the REAL CLIs against the scripted model server: Claude Code at
// --tools read is offered only Read and Write, and a write to any file but actions.json is denied (recorded by
// Claude, not fatal in a restricted arm); Codex accepts its auto-compaction setting and plays a turn. (The key
// variable is named CODEX_*: under bwrap only the backends' own variables reach the CLI.)
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseLog } from "../../../src/log/format.ts";
import { startModelServer } from "../../support/model-server.ts";
import { claudeEnv, codexEnv, HAVE_BWRAP, play, realCli, scripted, withEnv } from "./helpers.ts";

const claude = realCli("claude", "@anthropic-ai/claude-code");
const codex = realCli("codex", "@openai/codex");

describe.skipIf(!claude)("Claude Code at --tools read, real CLI", () => {
  test("offered only Read and Write; reads the log, writes actions.json; a write elsewhere is denied and the turn goes on", async () => {
    const server = startModelServer([
      { tools: [{ name: "Read", input: { file_path: "logs.txt", limit: 5 } }] },
      { tools: [{ name: "Write", input: { file_path: "notes.txt", content: "a note" } }] },
      { tools: [{ name: "Write", input: { file_path: "actions.json", content: JSON.stringify({ actions: ["ACTION4"] }) } }] },
      { text: "Read the log.\n[PLAN]\nMove right." },
    ]);
    try {
      const run = await withEnv(claudeEnv(server), () =>
        play({
          game: "glide",
          agent: "claude",
          tools: "read",
          maxActions: 1,
          agentRetries: 0,
          agentTimeoutSec: 60,
          sandbox: HAVE_BWRAP ? "bwrap" : "none",
        }),
      );
      expect(run.end.reason).toBe("max-actions");
      expect(parseLog(run.master).sections[1]!.plan).toBe("Read the log.\n[PLAN]\nMove right.");
      const reqs = scripted(server.requests);
      const offered = (reqs[0]!.body["tools"] as { name: string }[]).map((t) => t.name).sort();
      expect(offered).toEqual(["Read", "Write"]);
      expect(existsSync(join(run.session.paths.workspace, "notes.txt"))).toBe(false);
      // The model heard the denial as the Write's result.
      expect(JSON.stringify(reqs[2]!.body["messages"])).toMatch(/permission|denied|not allowed|haven't granted/i);
    } finally {
      server.stop();
    }
  }, 120_000);
});

describe.skipIf(!codex)("Codex with --context-limit, real CLI", () => {
  test("the CLI accepts model_auto_compact_token_limit and plays a turn; the request reaches the scripted server", async () => {
    const server = startModelServer([
      { tools: [{ name: "exec_command", input: { cmd: `printf '%s' '{"actions": ["ACTION4"]}' > actions.json` } }] },
      { text: "[PLAN]\nright" },
    ]);
    try {
      const run = await withEnv(codexEnv(server), () =>
        play({
          game: "glide",
          agent: "codex",
          contextLimit: 64_000,
          maxActions: 1,
          agentRetries: 0,
          agentTimeoutSec: 60,
          sandbox: HAVE_BWRAP ? "bwrap" : "none",
        }),
      );
      expect(run.end.reason).toBe("max-actions");
      expect(scripted(server.requests).length).toBe(2);
    } finally {
      server.stop();
    }
  }, 120_000);
});
