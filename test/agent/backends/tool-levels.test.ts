// The ablation settings as Claude Code and Codex receive them: for each --tools level (and --no-write,
// --context-limit) the arguments and environment a stand-in CLI is started with, wired from the run's settings;
// what Codex cannot enforce, and a restricted Claude Code level without bubblewrap, are refused before the run.
// The real CLIs at a level: tool-levels.slow.test.ts and claude-tree.slow.test.ts.
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { claudeAgent } from "../../../src/agent/claude.ts";
import { createAgent } from "../../../src/agent/create.ts";
import { policyOf } from "../../../src/agent/tool-ladder.ts";
import { newConfig, type RunConfig } from "../../../src/config/run-config.ts";
import { tempRoot } from "./helpers.ts";

const INPUT = { prompt: "play", turn: 1, availableActions: [1, 2, 3, 4] as const, actionCap: 5, seed: 0 };

/** A stand-in CLI that records its argv (one per line) and the compaction settings it was given, then answers. */
function recordingCli(answer: string): { bin: string; argv: () => string[]; env: () => string } {
  const dir = tempRoot();
  const bin = join(dir, "cli");
  writeFileSync(
    bin,
    `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > '${dir}/argv.txt'\nprintf '%s' "$CLAUDE_CODE_AUTO_COMPACT_WINDOW" > '${dir}/env.txt'\n${answer}\n`,
  );
  chmodSync(bin, 0o755);
  return {
    bin,
    argv: () => readFileSync(join(dir, "argv.txt"), "utf8").trim().split("\n"),
    env: () => readFileSync(join(dir, "env.txt"), "utf8"),
  };
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
  // Unconfined, a stand-in shows the arguments (createAgent refuses a restricted level without bubblewrap:
  // under it the level's tree holds the real CLI only, see the last test here).
  const agent = claudeAgent({
    bin: cli.bin,
    timeoutSec: config.agentTimeoutSec,
    policy: policyOf(config),
    ...(config.contextLimit !== undefined ? { contextLimit: config.contextLimit } : {}),
  });
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
    [
      "read,grep,python",
      { tools: "read,grep,python" },
      "Read,Write,Grep,Glob,Bash,Edit",
      "Read,Write,Edit,Grep,Glob,Bash(python3:*),Bash(python:*)",
    ],
    [
      "read,grep,python --no-write",
      { tools: "read,grep,python", noWrite: true },
      "Read,Write,Grep,Glob,Bash",
      "Read,Edit(./actions.json),Grep,Glob,Bash(python3:*),Bash(python:*)",
    ],
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
    const e = createAgent(
      newConfig({ game: "glide", agent: "claude", contextLimit: 64_000 })._unsafeUnwrap(),
      () => "/bin/true",
    )._unsafeUnwrapErr();
    expect(e.message).toContain("below Claude Code's smallest auto-compact window (100000 tokens");
  });

  test("a level below all, or --no-write, without bubblewrap is refused before the run, naming it", () => {
    for (const fields of [{ tools: "read" }, { tools: "read,grep,python" }, { noWrite: true }] as Partial<RunConfig>[]) {
      const e = createAgent(
        newConfig({ game: "glide", agent: "claude", sandbox: "none", ...fields })._unsafeUnwrap(),
        () => "/bin/true",
      )._unsafeUnwrapErr();
      expect(e.message).toContain("needs bubblewrap");
      expect(e.fix).toContain("apt-get install bubblewrap");
    }
    expect(
      createAgent(newConfig({ game: "glide", agent: "claude", sandbox: "none" })._unsafeUnwrap(), () => "/bin/true").isOk(),
    ).toBe(true);
  });
});

describe("Codex's effective arguments", () => {
  test("--context-limit passes model_auto_compact_token_limit", async () => {
    const cli = recordingCli(CODEX_OK);
    const agent = createAgent(
      newConfig({ game: "glide", agent: "codex", sandbox: "none", contextLimit: 64_000 })._unsafeUnwrap(),
      () => cli.bin,
    )._unsafeUnwrap();
    expect((await agent.turn({ ...INPUT, workspace: workspace() })).isOk()).toBe(true);
    const argv = cli.argv();
    expect(argv[argv.indexOf("model_auto_compact_token_limit=64000") - 1]).toBe("-c");
  });

  test("levels below all and --no-write cannot be enforced for Codex: refused before the run, naming the alternatives", () => {
    for (const fields of [
      { tools: "read" },
      { tools: "read,grep" },
      { tools: "read,grep,python" },
      { noWrite: true },
    ] as Partial<RunConfig>[]) {
      const e = createAgent(
        newConfig({ game: "glide", agent: "codex", ...fields })._unsafeUnwrap(),
        () => "/bin/true",
      )._unsafeUnwrapErr();
      expect(e.message).toContain("cannot be enforced for Codex");
      expect(e.fix).toContain("--agent mini or --agent claude");
    }
  });
});
