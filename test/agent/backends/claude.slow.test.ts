// The Claude Code backend with the REAL `claude` CLI, driven by the scripted local model server: several turns
// of glide in which the model greps logs.txt and writes actions.json, the harness executes and syncs, and the
// next turn resumes the same session (also across `prolong resume`). Skips, saying why, when claude is absent.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readSessionRecord } from "../../../src/agent/cli-process.ts";
import { parseLog } from "../../../src/log/format.ts";
import { startModelServer, type ScriptedTurn } from "../../support/model-server.ts";
import {
  claudeEnv,
  conversation,
  HAVE_BWRAP,
  play,
  readEventsFile,
  realCli,
  resumeToEnd,
  scripted,
  tempRoot,
  withEnv,
} from "./helpers.ts";

const claude = realCli("claude", "@anthropic-ai/claude-code");
const CALL_TIMEOUT_SEC = 60;
const USAGE = { input: 100, cacheRead: 1000, cacheCreation: 50, output: 7 };
const MOVES = ["ACTION4", "ACTION2", "ACTION3", "ACTION1"];

/** One agent turn: count the log's headers with grep, write one move, answer with a briefing and a plan. */
function turnScript(k: number): ScriptedTurn[] {
  const actions = JSON.stringify({ actions: [MOVES[(k - 1) % MOVES.length]] });
  return [
    { usage: USAGE, tools: [{ name: "Bash", input: { command: "grep -c '^Action ' logs.txt", description: "count sections" } }] },
    { usage: USAGE, tools: [{ name: "Write", input: { file_path: "actions.json", content: actions } }] },
    { usage: USAGE, text: `Briefing ${k}: the log has grown.\n[PLAN]\nMove ${MOVES[(k - 1) % MOVES.length]}.` },
  ];
}

describe.skipIf(!claude)("the Claude Code backend, real CLI", () => {
  test(
    "three turns of glide: grep the log, write actions.json, one session resumed each turn, tokens per turn",
    async () => {
      const server = startModelServer([1, 2, 3].flatMap(turnScript));
      try {
        const run = await withEnv(claudeEnv(server), () =>
          play({
            game: "glide",
            agent: "claude",
            maxActions: 3,
            agentTimeoutSec: CALL_TIMEOUT_SEC,
            agentRetries: 0,
            model: "claude-sonnet-4-5",
            sandbox: HAVE_BWRAP ? "bwrap" : "none",
          }),
        );
        expect(run.end.reason).toBe("max-actions");
        expect(server.remaining()).toBe(0);

        // The master log: the initial board, then one section per move, each carrying the agent's plan and call.
        const log = parseLog(run.master);
        expect(log.sections.map((s) => s.toolCall?.id ?? null)).toEqual([null, 4, 2, 3]);
        expect(log.sections[1]!.plan).toBe("Briefing 1: the log has grown.\n[PLAN]\nMove ACTION4.");
        expect(log.sections[3]!.plan).toContain("Briefing 3");

        // Per-turn records: prompt, final text, tool calls, tokens mapped as input = uncached + reads + creation.
        const events = readEventsFile(run.session.paths.events);
        const calls = events.filter((e) => e.kind === "agent-call") as unknown as { prompt: string; action: number }[];
        const replies = events.filter((e) => e.kind === "agent-reply") as unknown as {
          text: string;
          toolCalls: number;
          tokens: { input: number; cached: number; output: number };
          exitCode: number;
          ms: number;
        }[];
        expect(calls.length).toBe(3);
        expect(calls[0]!.prompt).toContain("A new game has started");
        expect(calls[1]!.prompt).toContain("Your actions were executed");
        expect(replies.map((r) => r.toolCalls)).toEqual([2, 2, 2]);
        expect(replies.map((r) => r.exitCode)).toEqual([0, 0, 0]);
        expect(replies[1]!.text).toBe("Briefing 2: the log has grown.\n[PLAN]\nMove ACTION2.");
        for (const r of replies) {
          expect(r.tokens).toEqual({ input: 3 * (100 + 1000 + 50), cached: 3 * 1000, output: 3 * 7 });
          expect(r.ms).toBeGreaterThan(0);
        }
        expect(run.session.tally.tokens).toEqual({ input: 3 * 3450, cached: 9000, output: 63 });
        const scorecard = JSON.parse(readFileSync(run.session.paths.scorecard, "utf8")) as { billed_tokens: number };
        expect(scorecard.billed_tokens).toBeCloseTo(3 * 3450 - 9000 + 6 * 63 + 0.1 * 9000, 6);

        // What the model saw: grep's answer is the number of sections synced before the call; and from turn 2 on,
        // the request carries the earlier turns' messages (the same session, resumed).
        const reqs = scripted(server.requests);
        expect(reqs.length).toBe(9);
        for (const k of [0, 1, 2]) {
          const toolResult = conversation(reqs[3 * k + 1]!);
          expect(toolResult).toMatch(new RegExp(`"content":"${calls[k]!.action + 1}"`));
        }
        expect(conversation(reqs[3]!)).toContain("Briefing 1: the log has grown.");
        expect(conversation(reqs[6]!)).toContain("Briefing 1: the log has grown.");
        expect(conversation(reqs[6]!)).toContain("Briefing 2: the log has grown.");
        expect(conversation(reqs[0]!)).not.toContain("Briefing");

        // HOME beside the workspace, the session record outside it.
        const record = readSessionRecord(run.session.paths.workspace)._unsafeUnwrap();
        expect(record?.backend).toBe("claude");
        expect(record?.confirmed).toBe(true);
        expect(existsSync(join(run.session.paths.dir, "agent-home", ".claude"))).toBe(true);
        expect(existsSync(join(run.session.paths.workspace, ".claude"))).toBe(false);
      } finally {
        server.stop();
      }
    },
    4 * CALL_TIMEOUT_SEC * 1000,
  );

  test(
    "prolong resume continues the same Claude session: the resumed call sees the turn before the interruption",
    async () => {
      const server = startModelServer([1, 2].flatMap(turnScript));
      try {
        const first = await withEnv(claudeEnv(server), () =>
          play(
            { game: "glide", agent: "claude", maxActions: 2, agentTimeoutSec: CALL_TIMEOUT_SEC, agentRetries: 0 },
            { stopAfter: 1 },
          ),
        );
        expect(first.end.reason).toBe("interrupted");
        const before = readSessionRecord(first.session.paths.workspace)._unsafeUnwrap();
        const resumed = await withEnv(claudeEnv(server), () => resumeToEnd(first.session.paths.dir));
        expect(resumed.end.reason).toBe("max-actions");
        expect(readSessionRecord(first.session.paths.workspace)._unsafeUnwrap()?.sessionId).toBe(before!.sessionId);
        const reqs = scripted(server.requests);
        expect(reqs.length).toBe(6);
        expect(conversation(reqs[3]!)).toContain("Briefing 1: the log has grown.");
        expect(conversation(reqs[3]!)).toContain("This run was interrupted and has been resumed");
        expect(parseLog(resumed.master).sections.map((s) => s.toolCall?.id ?? null)).toEqual([null, 4, 2]);
      } finally {
        server.stop();
      }
    },
    3 * CALL_TIMEOUT_SEC * 1000,
  );

  test(
    "a denied tool fails the turn (recorded as a warning), the call is retried in the same session",
    async () => {
      const server = startModelServer([
        { tools: [{ name: "WebFetch", input: { url: "http://127.0.0.1:9/", prompt: "rules?" } }] },
        { text: "I could not fetch the rules." },
        ...turnScript(1),
      ]);
      try {
        const run = await withEnv(claudeEnv(server), () =>
          play({ game: "glide", agent: "claude", maxActions: 1, agentTimeoutSec: CALL_TIMEOUT_SEC, agentRetries: 1 }),
        );
        expect(run.end.reason).toBe("max-actions");
        const events = readEventsFile(run.session.paths.events);
        const denied = events.filter((e) => e.kind === "warning" && (e as { code?: string }).code === "agent-denied");
        expect(denied.length).toBe(1);
        expect((denied[0] as { message: string }).message).toContain("WebFetch");
        expect(run.session.tally.agentCalls).toBe(2);
        // The retry resumed the session: it carries the denied call's exchange.
        expect(conversation(scripted(server.requests)[2]!)).toContain("I could not fetch the rules.");
      } finally {
        server.stop();
      }
    },
    3 * CALL_TIMEOUT_SEC * 1000,
  );

  test("a hung model API: the call is killed at --agent-timeout, retried, then the run ends with the reason", async () => {
    const server = startModelServer([{ hang: true }, { hang: true }]);
    try {
      const run = await withEnv(claudeEnv(server), () =>
        play({ game: "glide", agent: "claude", maxActions: 3, agentTimeoutSec: 3, agentRetries: 1 }),
      );
      expect(run.end.reason).toBe("agent-failed");
      expect(run.end.detail).toContain("2 agent call(s) in a row failed");
      expect(run.end.detail).toContain("did not finish within 3s");
      const warnings = readEventsFile(run.session.paths.events).filter(
        (e) => e.kind === "warning" && (e as { code?: string }).code === "agent-timeout",
      );
      expect(warnings.length).toBe(2);
    } finally {
      server.stop();
    }
  }, 60_000);
});

describe.skipIf(!claude)("the real Claude Code CLI with a key the model server refuses", () => {
  test("prolong play ends agent-unavailable within seconds, with one line naming the server's message", async () => {
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () =>
        Response.json({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } }, { status: 401 }),
    });
    try {
      const runs = tempRoot();
      const started = performance.now();
      const MAIN = join(import.meta.dir, "../../../src/main.ts");
      // Spawned, not spawnSync: the model server lives in this process and must go on answering.
      const r = Bun.spawn(
        [process.execPath, MAIN, "play", "glide", "--agent", "claude", "--sandbox", "none", "--runs-dir", runs, "--json"],
        {
          env: { ...process.env, ANTHROPIC_BASE_URL: `http://127.0.0.1:${server.port}`, ANTHROPIC_API_KEY: "sk-wrong" },
          stdout: "pipe",
          stderr: "pipe",
        },
      );
      const out = await new Response(r.stdout).text();
      expect(await r.exited).toBe(1);
      expect(performance.now() - started).toBeLessThan(30_000);
      const summary = JSON.parse(out.trim().split("\n").at(-1)!) as {
        end: string;
        detail: string;
        agentCalls: number;
      };
      expect([summary.end, summary.agentCalls]).toEqual(["agent-unavailable", 0]);
      expect(summary.detail).toContain("refused the credentials (401 authentication_error: invalid x-api-key)");
      expect(summary.detail).not.toContain('{"');
    } finally {
      server.stop(true);
    }
  }, 60_000);
});
