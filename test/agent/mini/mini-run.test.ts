// The mini agent playing a local game through the scripted Chat Completions server, under bubblewrap where
// it can run: grep the log, write actions.json, one conversation continued across turns and across
// `prolong resume`, tokens per turn, --tool-format text, --step-limit, --context-limit, and the bad-input
// paths (a missing key, an unreachable server, a hang, a 429, unusable tool-call arguments).
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { conversationPath, readConversation } from "../../../src/agent/mini/conversation.ts";
import { newConfig } from "../../../src/config/run-config.ts";
import { startRun } from "../../../src/run/start.ts";
import { parseLog } from "../../../src/log/format.ts";
import { startChatServer, type ChatRequest, type ChatStep } from "../../support/chat-server.ts";
import { HAVE_BWRAP, play, readEventsFile, resumeToEnd, tempRoot, withEnv } from "../backends/helpers.ts";

const SANDBOX = HAVE_BWRAP ? "bwrap" : "none";
const KEY = { OPENAI_API_KEY: "scripted-key" };
const MOVES = ["ACTION4", "ACTION2", "ACTION3", "ACTION1"];
const USAGE = { input: 2000, cached: 1500, output: 40 };

/** One turn: count the log's sections with grep, then write one move with a briefing and a plan. */
function turnScript(k: number): ChatStep[] {
  const move = MOVES[(k - 1) % MOVES.length]!;
  return [
    { commands: ["grep -c '^Action ' logs.txt"], usage: USAGE },
    {
      commands: [`echo '{"actions": ["${move}"]}' > actions.json`],
      text: `Briefing ${k}: the log has grown.\n[PLAN]\nMove ${move}.`,
      usage: USAGE,
    },
  ];
}

/**
 * The run's settings. Unsandboxed unless a test asks: what these tests check does not depend on the sandbox
 * (the mini agent strips the credentials from its commands' environment itself), and under bwrap each command
 * starts a sandbox. The first test plays under the sandbox play would choose, and checks it is recorded.
 */
function mini(baseUrl: string, extra: Record<string, unknown> = {}) {
  return {
    game: "glide",
    agent: "mini" as const,
    baseUrl,
    model: "scripted-model",
    sandbox: "none" as "bwrap" | "none",
    agentRetries: 0,
    agentTimeoutSec: 60,
    ...extra,
  };
}

/** The messages a request carried. */
function messages(r: ChatRequest): { role: string; content: string | null; tool_calls?: unknown[] }[] {
  return r.body["messages"] as { role: string; content: string | null }[];
}

function warnings(dir: string, code: string) {
  return readEventsFile(join(dir, "events.jsonl")).filter(
    (e) => e.kind === "warning" && (e as { code?: string }).code === code,
  ) as unknown as { message: string }[];
}

describe("the mini agent plays glide through a Chat Completions server", () => {
  test("three turns: grep the log, write actions.json; one conversation; tokens per turn from usage", async () => {
    const server = startChatServer([1, 2, 3].flatMap(turnScript));
    try {
      const run = await withEnv(KEY, () => play(mini(server.baseUrl, { maxActions: 3, sandbox: SANDBOX })));
      expect(run.end.reason).toBe("max-actions");
      expect(server.remaining()).toBe(0);
      const log = parseLog(run.master);
      expect(log.sections.map((s) => s.toolCall?.id ?? null)).toEqual([null, 4, 2, 3]);
      expect(log.sections[1]!.plan).toBe("Briefing 1: the log has grown.\n[PLAN]\nMove ACTION4.");

      const events = readEventsFile(run.session.paths.events);
      expect((events.find((e) => e.kind === "run-start") as { sandbox?: string }).sandbox).toBe(SANDBOX);
      const replies = events.filter((e) => e.kind === "agent-reply") as unknown as {
        toolCalls: number;
        tokens: { input: number; cached: number; output: number };
      }[];
      expect(replies.map((r) => r.toolCalls)).toEqual([2, 2, 2]);
      for (const r of replies) expect(r.tokens).toEqual({ input: 4000, cached: 3000, output: 80 });
      const card = JSON.parse(readFileSync(run.session.paths.scorecard, "utf8")) as { billed_tokens: number };
      expect(card.billed_tokens).toBeCloseTo(12000 - 9000 + 6 * 240 + 0.1 * 9000, 6);

      // What the model saw: the instructions in the system message, grep's count as the tool's answer (the
      // sections synced before the call), and from turn 2 on the earlier turns in the same conversation.
      const reqs = server.requests;
      expect(reqs.length).toBe(6);
      const first = messages(reqs[0]!);
      expect(first[0]!.role).toBe("system");
      expect(first[0]!.content).toContain("# Playing glide");
      expect(first[1]!.content).toContain("A new game has started");
      expect(reqs[0]!.body["tools"]).toBeDefined();
      const toolAnswer = messages(reqs[1]!).at(-1)!;
      expect(toolAnswer.role).toBe("tool");
      expect(toolAnswer.content).toBe("exit status 0\n1");
      expect(messages(reqs[3]!).at(-1)!.content).toBe("exit status 0\n2");
      expect(JSON.stringify(messages(reqs[4]!))).toContain("Briefing 2: the log has grown.");
      expect(messages(reqs[4]!).filter((m) => m.role === "system").length).toBe(1);

      // The conversation beside the workspace, hidden from the agent; nothing of it inside the workspace.
      const saved = readConversation(run.session.paths.workspace)._unsafeUnwrap()!;
      expect(saved.messages.length).toBe(messages(reqs[5]!).length + 2); // + the last reply and its tool answer
      expect(conversationPath(run.session.paths.workspace)).toBe(join(run.session.paths.dir, "agent-conversation.json"));
      expect(existsSync(join(run.session.paths.workspace, "agent-conversation.json"))).toBe(false);
    } finally {
      server.stop();
    }
  }, 60_000);

  test("prolong resume continues the same conversation: the resumed call carries the turn before it", async () => {
    const server = startChatServer([1, 2].flatMap(turnScript));
    try {
      const first = await withEnv(KEY, () => play(mini(server.baseUrl, { maxActions: 2 }), { stopAfter: 1 }));
      expect(first.end.reason).toBe("interrupted");
      const resumed = await withEnv(KEY, () => resumeToEnd(first.session.paths.dir));
      expect(resumed.end.reason).toBe("max-actions");
      expect(server.requests.length).toBe(4);
      const after = JSON.stringify(messages(server.requests[2]!));
      expect(after).toContain("Briefing 1: the log has grown.");
      expect(after).toContain("This run was interrupted and has been resumed");
      expect(parseLog(resumed.master).sections.map((s) => s.toolCall?.id ?? null)).toEqual([null, 4, 2]);
    } finally {
      server.stop();
    }
  }, 60_000);

  test("--tool-format text: no tools offered; commands from ```bash blocks, outputs as user messages", async () => {
    const server = startChatServer(turnScript(1));
    try {
      const run = await withEnv(KEY, () => play(mini(server.baseUrl, { maxActions: 1, toolFormat: "text" })));
      expect(run.end.reason).toBe("max-actions");
      expect(server.requests[0]!.body["tools"]).toBeUndefined();
      expect(messages(server.requests[0]!)[0]!.content).toContain("```bash");
      const out = messages(server.requests[1]!).at(-1)!;
      expect(out).toEqual({ role: "user", content: "exit status 0\n1" });
      expect(parseLog(run.master).sections[1]!.plan).toContain("Briefing 1");
    } finally {
      server.stop();
    }
  }, 60_000);

  test("--step-limit: the turn ends after N replies (said in the conversation); no actions.json fails the call", async () => {
    const server = startChatServer([{ commands: ["ls"] }, { commands: ["ls"] }, { commands: ["ls"] }]);
    try {
      const run = await withEnv(KEY, () => play(mini(server.baseUrl, { maxActions: 1, stepLimit: 2 })));
      expect(run.end.reason).toBe("agent-failed");
      expect(server.requests.length).toBe(2);
      const saved = readConversation(run.session.paths.workspace)._unsafeUnwrap()!;
      expect(saved.messages.at(-1)!.content).toBe("[the turn ended: --step-limit 2 replies reached]");
    } finally {
      server.stop();
    }
  }, 60_000);

  test("--context-limit: the oldest outputs are dropped past the limit, and the drop is said in the conversation", async () => {
    const big = "head -c 6000 logs.txt";
    const server = startChatServer([
      { commands: [big], usage: { input: 500 } },
      { commands: [big], usage: { input: 2000 } },
      { commands: [big], usage: { input: 3500 } },
      ...turnScript(1).slice(1),
    ]);
    try {
      const run = await withEnv(KEY, () => play(mini(server.baseUrl, { maxActions: 1, contextLimit: 3000 })));
      expect(run.end.reason).toBe("max-actions");
      const saved = readConversation(run.session.paths.workspace)._unsafeUnwrap()!;
      const tools = saved.messages.filter((m) => m.role === "tool").map((m) => m.content);
      expect(tools[0]).toStartWith("[output dropped by the harness to keep this conversation under --context-limit 3000 tokens");
      expect(tools[2]).toStartWith("exit status 0\n");
      expect(saved.dropped).toBeGreaterThanOrEqual(1);
      // The request that followed the drop carried the note, not the output.
      const last = messages(server.requests.at(-1)!).filter((m) => m.role === "tool");
      expect(last[0]!.content).toContain("[output dropped");
      // Without the limit nothing is dropped.
      expect(JSON.stringify(messages(server.requests[2]!))).toContain("INITIAL STATE");
    } finally {
      server.stop();
    }
  }, 60_000);

  test("long output is cut in the middle and the cut is said", async () => {
    const server = startChatServer([
      { commands: ["cat logs.txt logs.txt logs.txt logs.txt logs.txt logs.txt"] },
      ...turnScript(1).slice(1),
    ]);
    try {
      await withEnv(KEY, () => play(mini(server.baseUrl, { maxActions: 1 })));
      const out = messages(server.requests[1]!).at(-1)!.content!;
      expect(out).toMatch(/\[… output truncated by the harness: \d+ of \d+ characters omitted …\]/);
      expect(out.length).toBeLessThan(10_300);
      expect(out).toStartWith("exit status 0\n" + "=".repeat(80));
    } finally {
      server.stop();
    }
  }, 60_000);

  test("the API key (and any other credential) is not in the commands' environment", async () => {
    const server = startChatServer([
      { commands: ["env | grep -c -e scripted-key -e other-secret; echo end"] },
      ...turnScript(1).slice(1),
    ]);
    try {
      await withEnv({ ...KEY, ANTHROPIC_API_KEY: "other-secret", MY_TOKEN: "other-secret" }, () =>
        play(mini(server.baseUrl, { maxActions: 1 })),
      );
      expect(messages(server.requests[1]!).at(-1)!.content).toBe("exit status 0\n0\nend");
    } finally {
      server.stop();
    }
  }, 60_000);
});

describe("the mini agent on bad input", () => {
  test("a missing key stops the run before it starts, naming --api-key-env and the fix", async () => {
    const config = newConfig({ ...mini("http://127.0.0.1:9/v1"), apiKeyEnv: "PROLONG_TEST_NO_SUCH_KEY" })._unsafeUnwrap();
    const e = (await startRun(config, { runsRoot: tempRoot(), stamp: "t" }))._unsafeUnwrapErr();
    expect(e.message).toContain("$PROLONG_TEST_NO_SUCH_KEY (--api-key-env), which is not set");
    expect(e.fix).toContain("export PROLONG_TEST_NO_SUCH_KEY=");
    expect(newConfig({ ...mini("localhost:8080") }).isErr()).toBe(true);
    const noModel = newConfig({ game: "glide", agent: "mini" })._unsafeUnwrap();
    expect(
      (await withEnv(KEY, () => startRun(noModel, { runsRoot: tempRoot(), stamp: "t" })))._unsafeUnwrapErr().message,
    ).toContain("--agent mini needs --model");
  });

  test("an unreachable server: the run ends with the reason naming --base-url, and stays resumable", async () => {
    // The least deadline: the refused connection is not retried past it (a 1 s backoff would not fit).
    const run = await withEnv(KEY, () => play(mini("http://127.0.0.1:9/v1", { maxActions: 1, agentTimeoutSec: 1 })));
    expect(run.end.reason).toBe("agent-unavailable");
    expect(run.end.detail).toContain("cannot reach the model API at http://127.0.0.1:9/v1/chat/completions");
    expect(run.end.detail).toContain("fix: start the server, or pass the API root");
    expect(run.end.detail).toContain("prolong resume");
    const server = startChatServer(turnScript(1));
    try {
      // The same run, resumed against a server that is up (the settings say where: repoint by editing run.json).
      const cfgPath = join(run.session.paths.dir, "run.json");
      const cfg = JSON.parse(readFileSync(cfgPath, "utf8")) as Record<string, unknown>;
      await Bun.write(cfgPath, JSON.stringify({ ...cfg, baseUrl: server.baseUrl }));
      const resumed = await withEnv(KEY, () => resumeToEnd(run.session.paths.dir));
      expect(resumed.end.reason).toBe("max-actions");
    } finally {
      server.stop();
    }
  }, 60_000);

  test("a 429 is retried within the call (the server's Retry-After: 0), a hang fails the call at --agent-timeout", async () => {
    const server = startChatServer([{ status: 429, retryAfter: 0 }, ...turnScript(1), { hang: true }]);
    try {
      // The hang costs the whole deadline, so it is the least (1 s); the first turn's two calls and two commands
      // take a fraction of it.
      const run = await withEnv(KEY, () => play(mini(server.baseUrl, { maxActions: 2, agentTimeoutSec: 1 })));
      expect(parseLog(run.master).sections.length).toBe(2);
      expect(run.end.reason).toBe("agent-unavailable");
      expect(run.end.detail).toContain("did not answer within the turn's time");
      expect(server.requests.length).toBe(4);
    } finally {
      server.stop();
    }
  }, 60_000);

  test("tool calls with invalid JSON arguments: the model is told; three in a row fail the call naming --tool-format text, its tokens still counted", async () => {
    const server = startChatServer([
      { badArguments: "{not json" },
      ...turnScript(1),
      { badArguments: "{" },
      { badArguments: "[" },
      { badArguments: '{"cmd": 1}' },
    ]);
    try {
      const run = await withEnv(KEY, () => play(mini(server.baseUrl, { maxActions: 2 })));
      const told = messages(server.requests[1]!).at(-1)!;
      expect(told.role).toBe("tool");
      expect(told.content).toContain("the arguments were not valid JSON");
      expect(parseLog(run.master).sections.length).toBe(2);
      expect(run.end.reason).toBe("agent-unavailable");
      expect(run.end.detail).toContain("unusable arguments 3 times in a row");
      expect(run.end.detail).toContain("--tool-format text");
      expect(warnings(run.session.paths.dir, "api-tool-args")[0]!.message).toContain("unusable arguments");
      // The failed call's three replies still count: 1 bad + 2 good replies in turn 1, 3 bad in turn 2.
      expect(run.session.tally.tokens).toEqual({
        input: 100 + 2 * 2000 + 3 * 100,
        cached: 2 * 1500,
        output: 10 + 2 * 40 + 3 * 10,
      });
    } finally {
      server.stop();
    }
  }, 60_000);
});
