// The mini agent is bounded whatever the model or its commands do (the red-team cases of issue 28): an
// endless output line is read in linear time and the command killed at its output limit; a reply, a command
// and an answer are capped in size; the turn's deadline covers every command; a fork bomb or a memory bomb
// ends in the agent's own processes; a negative or absurd token count is a bad reply, retried, never written.
import { describe, expect, test } from "bun:test";
import { LineSplitter } from "../../../src/agent/cli-process.ts";
import { chatCompletion, MAX_REPLY_BYTES, type RetryPolicy } from "../../../src/agent/mini/chat-api.ts";
import { MINI_BOUNDS } from "../../../src/agent/mini/mini.ts";
import { AGENT_PROCESSES } from "../../../src/agent/rlimits.ts";
import { parseLog } from "../../../src/log/format.ts";
import { startChatServer } from "../../support/chat-server.ts";
import { HAVE_BWRAP } from "../backends/helpers.ts";
import { oneTurn, WRITE } from "./one-turn.ts";

const HAVE_PYTHON = Bun.which("python3") !== null;

describe("the mini agent's bounds", () => {
  test("cat /dev/zero: one endless line is read in linear time and the command killed at its output limit, the cut said", async () => {
    const { run, heard } = await oneTurn([{ commands: ["cat /dev/zero"] }, { commands: [WRITE], text: "[PLAN]\nright" }], {
      agentTimeoutSec: 50,
    });
    expect(run.end.reason).toBe("max-actions");
    expect(heard[0]).toStartWith(`killed: its output passed ${MINI_BOUNDS.commandOutputChars} characters`);
    expect(heard[0]).toContain("[… output truncated by the harness:");
    expect(heard[0]!.length).toBeLessThan(20_000);
  }, 90_000);

  test("a line splitter keeps at most its cap of a line and counts the rest, in pieces (no re-joining)", () => {
    const got: [number, number][] = [];
    const s = new LineSplitter(10, (line, dropped) => got.push([line.length, dropped]));
    for (let i = 0; i < 10_000; i++) s.push("x".repeat(1000));
    s.push("\nshort\n");
    s.end();
    expect(got).toEqual([
      [10, 10_000 * 1000 - 10],
      [5, 0],
    ]);
  });

  test("a command over the byte limit is not run, and is not kept in the conversation", async () => {
    const long = `echo ${"y".repeat(MINI_BOUNDS.commandBytes + 10)} > big.txt`;
    const { heard, requests } = await oneTurn([{ commands: [long] }, { commands: [WRITE], text: "[PLAN]\nright" }]);
    expect(heard[0]).toStartWith(`not run: the command is ${long.length} bytes, over the limit of ${MINI_BOUNDS.commandBytes}`);
    expect(JSON.stringify(requests[1]!.body).length).toBeLessThan(MINI_BOUNDS.commandBytes);
  }, 60_000);

  test("at most MINI_BOUNDS.commandsPerReply commands of one reply run", async () => {
    // Unsandboxed: the count does not depend on the sandbox, and each command under bwrap is a sandbox started.
    const many = Array.from({ length: 40 }, (_, i) => `echo ${i}`);
    const { requests } = await oneTurn([{ commands: many }, { commands: [WRITE], text: "[PLAN]\nright" }], { sandbox: "none" });
    const tools = (requests[1]!.body["messages"] as { role: string; content: string }[]).filter((m) => m.role === "tool");
    expect(tools.length).toBe(40);
    expect(tools.filter((m) => m.content.startsWith("exit status 0")).length).toBe(MINI_BOUNDS.commandsPerReply);
    expect(tools.at(-1)!.content).toBe(`not run: at most ${MINI_BOUNDS.commandsPerReply} commands are run per reply`);
  }, 60_000);

  test("the turn's deadline covers its commands: many `sleep 5` with --agent-timeout 1 end the turn as a timeout within it", async () => {
    // Were the commands outside the deadline, the turn would take 40 × 5 s; the limit is 1 s, its least.
    const sleeps = Array.from({ length: 40 }, () => "sleep 5");
    const { run, seconds } = await oneTurn([{ commands: sleeps }, { commands: sleeps }, { commands: [WRITE] }], {
      agentTimeoutSec: 1,
    });
    expect(run.end.reason).toBe("agent-failed");
    expect(run.end.detail).toContain("did not finish within 1s (its commands included)");
    expect(seconds).toBeLessThan(15);
  }, 60_000);

  test("a huge answer is cut before it becomes the plan of every action of the batch", async () => {
    const big = `${"b".repeat(MINI_BOUNDS.answerChars * 4)}\n[PLAN]\n${"p".repeat(MINI_BOUNDS.answerChars * 4)}`;
    const write = `echo '{"actions": ["ACTION4", "ACTION2", "ACTION3", "ACTION1", "ACTION4"]}' > actions.json`;
    const { run } = await oneTurn([{ commands: [write], text: big }], { maxActions: 5, actionCap: 5 });
    expect(run.master.length).toBeLessThan(6 * MINI_BOUNDS.answerChars + 200_000);
    const plans = parseLog(run.master).sections.map((s) => s.plan ?? "");
    expect(plans[1]).toContain("[… cut by the harness:");
  }, 60_000);

  // The fork bomb itself (bwrap) is in bounds.slow.test.ts: it starts a thousand processes. This is what
  // bounds it, seen from inside a command: a process limit, never "unlimited", of the agent's processes plus
  // what its uid ran already (rlimits.ts counts those at the start; under bwrap as root that uid is nobody's).
  test.skipIf(!HAVE_BWRAP)(
    "a command runs under the agent's process limit (bwrap): a fork bomb ends there",
    async () => {
      const { heard } = await oneTurn([
        { commands: ["grep 'Max processes' /proc/self/limits"] },
        { commands: [WRITE], text: "[PLAN]\nright" },
      ]);
      const [soft, hard] = (/Max processes\s+(\S+)\s+(\S+)/.exec(heard[0] ?? "") ?? []).slice(1).map(Number);
      expect(soft).toBe(hard!);
      expect(soft).toBeGreaterThanOrEqual(AGENT_PROCESSES);
      expect(soft).toBeLessThan(AGENT_PROCESSES + 4096);
    },
    60_000,
  );

  test.skipIf(!HAVE_PYTHON || !HAVE_BWRAP)(
    "a memory bomb fails in the command (its address space is limited), not in the harness",
    async () => {
      const { heard } = await oneTurn([
        { commands: ["python3 -c 'b = bytearray(6 * 1024**3); print(len(b))'"] },
        { commands: [WRITE], text: "[PLAN]\nright" },
      ]);
      expect(heard[0]).toContain("MemoryError");
    },
    60_000,
  );
});

describe("a model server's reply is bounded and checked", () => {
  const policy = (): RetryPolicy & { waits: number[] } => {
    const waits: number[] = [];
    return { retries: 2, baseDelayMs: 1, maxDelayMs: 1, sleep: async (ms) => void waits.push(ms), waits };
  };
  const endpoint = (baseUrl: string) => ({ baseUrl, model: "m", apiKey: "k", apiKeyEnv: "OPENAI_API_KEY" });
  const BODY = { messages: [{ role: "user", content: "hi" }] };

  test("negative, fractional or absurd token counts are a bad reply: retried, never returned", async () => {
    for (const usage of [{ input: -5 }, { output: 1e308 }, { cached: -1 }, { input: 2.5 }]) {
      const server = startChatServer([
        { text: "bad", usage },
        { text: "good", usage: { input: 7, output: 3 } },
      ]);
      try {
        const r = (await chatCompletion(endpoint(server.baseUrl), BODY, performance.now() + 30_000, policy()))._unsafeUnwrap();
        expect([usage, r.message.content, r.tokens]).toEqual([usage, "good", { input: 7, cached: 0, output: 3 }]);
        expect(r.retried.length).toBe(1);
      } finally {
        server.stop();
      }
    }
  });

  test("a reply over MAX_REPLY_BYTES is not read: a failure naming the limit, retried", async () => {
    const server = startChatServer([{ text: "x".repeat(MAX_REPLY_BYTES + 1) }, { text: "x".repeat(MAX_REPLY_BYTES + 1) }]);
    try {
      const p = policy();
      const e = (
        await chatCompletion(endpoint(server.baseUrl), BODY, performance.now() + 30_000, { ...p, retries: 1 })
      )._unsafeUnwrapErr();
      expect(e.message).toContain(`larger than ${MAX_REPLY_BYTES} bytes`);
      expect(p.waits.length).toBe(1);
    } finally {
      server.stop();
    }
  });
});
