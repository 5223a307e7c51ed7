// The ablation settings as Claude Code and Codex receive them: for each --tools level (and --no-write,
// --context-limit) the arguments and environment a stand-in CLI is started with, wired from the run's settings
// through createAgent; what Codex cannot enforce is refused before the run. Then one level end to end with
// the REAL claude CLI against the scripted model server: it is offered only Read and Write, and a write to any
// file but actions.json is denied (recorded by Claude, not fatal in a restricted arm).
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createAgent } from "../../../src/agent/create.ts";
import { newConfig, type RunConfig } from "../../../src/config/run-config.ts";
import { parseLog } from "../../../src/log/format.ts";
import { startModelServer } from "../../support/model-server.ts";
import { HAVE_BWRAP, play, realCli, scripted, tempRoot, withEnv } from "./helpers.ts";

const claude = realCli("claude", "@anthropic-ai/claude-code");
const codex = realCli("codex", "@openai/codex");
const INPUT = { prompt: "play", turn: 1, availableActions: [1, 2, 3, 4] as const, actionCap: 5, seed: 0 };

/** A stand-in CLI that records its argv (one per line) and the compaction settings it was given, then answers. */
function recordingCli(answer: string): { bin: string; argv: () => string[]; env: () => string } {
  const dir = tempRoot();
  const bin = join(dir, "cli");
  writeFileSync(bin, `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > '${dir}/argv.txt'\nprintf '%s' "$CLAUDE_CODE_AUTO_COMPACT_WINDOW" > '${dir}/env.txt'\n${answer}\n`);
  chmodSync(bin, 0o755);
  return { bin, argv: () => readFileSync(join(dir, "argv.txt"), "utf8").trim().split("\n"), env: () => readFileSync(join(dir, "env.txt"), "utf8") };
}

function workspace(): string {
  const ws = join(tempRoot(), "t", "glide", "workspace");
  mkdirSync(ws, { recursive: true });
  return ws;
}

const CLAUDE_OK = `echo '{"type":"result","subtype":"success","result":"ok","session_id":"s1","permission_denials":[{"tool_name":"Write"}]}'`;
const CODEX_OK = `echo '{"type":"thread.started","thread_id":"t1"}'; echo '{"type":"turn.completed","usage":{}}'`;

async function claudeArgs(fields: Partial<RunConfig>): Promise<{ argv: string[]; env: string; ok: boolean }> {
  const cli = recordingCli(CLAUDE_OK);
  const config = newConfig({ game: "glide", agent: "claude", sandbox: "none", ...fields })._unsafeUnwrap();
  const agent = createAgent(config, () => cli.bin)._unsafeUnwrap();
  const r = await agent.turn({ ...INPUT, workspace: workspace() });
  return { argv: cli.argv(), env: cli.env(), ok: r.isOk() };
}

/** The value after a flag in an argv. */
function after(argv: string[], flag: string): string | undefined {
  const i = argv.indexOf(flag);
  return i === -1 ? undefined : argv[i + 1];
}

describe("Claude Code's effective arguments per tool level", () => {
  const cases: [string, Partial<RunConfig>, string | undefined, string][] = [
    ["all (the default)", {}, undefined, "Bash,Read,Write,Edit,Glob,Grep"],
    ["read", { tools: "read" }, "Read,Write", "Read,Edit(./actions.json)"],
    ["read,grep", { tools: "read,grep" }, "Read,Write,Grep,Glob", "Read,Edit(./actions.json),Grep,Glob"],
    ["read,grep,python", { tools: "read,grep,python" }, "Read,Write,Grep,Glob,Bash,Edit", "Read,Write,Edit,Grep,Glob,Bash(python3:*),Bash(python:*)"],
    ["read,grep,python --no-write", { tools: "read,grep,python", noWrite: true }, "Read,Write,Grep,Glob,Bash", "Read,Edit(./actions.json),Grep,Glob,Bash(python3:*),Bash(python:*)"],
    ["all --no-write", { noWrite: true }, "Read,Write,Grep,Glob,Bash,Edit", "Read,Edit(./actions.json),Grep,Glob,Bash"],
  ];
  for (const [name, fields, offered, allowed] of cases) {
    test(`${name}: --tools ${offered ?? "(not passed)"}, --allowedTools ${allowed}`, async () => {
      const r = await claudeArgs(fields);
      expect(after(r.argv, "--tools")).toBe(offered);
      expect(after(r.argv, "--allowedTools")).toBe(allowed);
      // A denial is the arm working in a restricted level; at the default level it still fails the turn.
      expect(r.ok).toBe(name !== "all (the default)");
    });
  }

  test("--context-limit is Claude Code's auto-compact window; below its floor of 100,000 the run is refused", async () => {
    expect((await claudeArgs({ contextLimit: 150_000 })).env).toBe("150000");
    expect((await claudeArgs({})).env).toBe("");
    const e = createAgent(newConfig({ game: "glide", agent: "claude", contextLimit: 64_000 })._unsafeUnwrap(), () => "/bin/true")._unsafeUnwrapErr();
    expect(e.message).toContain("below Claude Code's smallest auto-compact window (100000 tokens");
  });
});

describe("Codex's effective arguments", () => {
  test("--context-limit passes model_auto_compact_token_limit", async () => {
    const cli = recordingCli(CODEX_OK);
    const agent = createAgent(newConfig({ game: "glide", agent: "codex", sandbox: "none", contextLimit: 64_000 })._unsafeUnwrap(), () => cli.bin)._unsafeUnwrap();
    expect((await agent.turn({ ...INPUT, workspace: workspace() })).isOk()).toBe(true);
    const argv = cli.argv();
    expect(argv[argv.indexOf("model_auto_compact_token_limit=64000") - 1]).toBe("-c");
  });

  test("levels below all and --no-write cannot be enforced for Codex: refused before the run, naming the alternatives", () => {
    for (const fields of [{ tools: "read" }, { tools: "read,grep" }, { tools: "read,grep,python" }, { noWrite: true }] as Partial<RunConfig>[]) {
      const e = createAgent(newConfig({ game: "glide", agent: "codex", ...fields })._unsafeUnwrap(), () => "/bin/true")._unsafeUnwrapErr();
      expect(e.message).toContain("cannot be enforced for Codex");
      expect(e.fix).toContain("--agent mini or --agent claude");
    }
  });
});

describe.skipIf(!claude)("Claude Code at --tools read, real CLI", () => {
  test("offered only Read and Write; reads the log, writes actions.json; a write elsewhere is denied and the turn goes on", async () => {
    const server = startModelServer([
      { tools: [{ name: "Read", input: { file_path: "logs.txt", limit: 5 } }] },
      { tools: [{ name: "Write", input: { file_path: "notes.txt", content: "a note" } }] },
      { tools: [{ name: "Write", input: { file_path: "actions.json", content: JSON.stringify({ actions: ["ACTION4"] }) } }] },
      { text: "Read the log.\n[PLAN]\nMove right." },
    ]);
    try {
      const run = await withEnv({ ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: "scripted", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" }, () =>
        play({ game: "glide", agent: "claude", tools: "read", maxActions: 1, agentRetries: 0, agentTimeoutSec: 60, sandbox: HAVE_BWRAP ? "bwrap" : "none" }),
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
    const home = tempRoot();
    writeFileSync(join(home, "config.toml"), `model = "scripted"\nmodel_provider = "local"\n\n[model_providers.local]\nname = "local"\nbase_url = "${server.url}/v1"\nwire_api = "responses"\nenv_key = "LOCAL_KEY"\n`);
    try {
      const run = await withEnv({ CODEX_HOME: home, LOCAL_KEY: "scripted" }, () =>
        play({ game: "glide", agent: "codex", contextLimit: 64_000, maxActions: 1, agentRetries: 0, agentTimeoutSec: 60, sandbox: HAVE_BWRAP ? "bwrap" : "none" }),
      );
      expect(run.end.reason).toBe("max-actions");
      expect(scripted(server.requests).length).toBe(2);
    } finally {
      server.stop();
    }
  }, 120_000);
});
