// The Codex backend with the REAL `codex` CLI, driven by the scripted local model server (Responses API):
// several turns of glide in which the model greps logs.txt and writes actions.json, each later turn resuming
// the same thread (also across `prolong resume`), Codex's cumulative usage turned into per-turn figures.
// The provider comes from a config.toml in the user's CODEX_HOME, which the backend copies into the run's
// own CODEX_HOME. Skips, saying why, when codex is absent.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readSessionRecord } from "../../../src/agent/cli-process.ts";
import { parseLog } from "../../../src/log/format.ts";
import { startModelServer, type ScriptedTurn } from "../../support/model-server.ts";
import {
  codexEnv,
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

const codex = realCli("codex", "@openai/codex");
const CALL_TIMEOUT_SEC = 60;
const USAGE = { input: 100, cached: 40, output: 7 };
const MOVES = ["ACTION4", "ACTION2", "ACTION3", "ACTION1"];

function turnScript(k: number): ScriptedTurn[] {
  const actions = JSON.stringify({ actions: [MOVES[(k - 1) % MOVES.length]] });
  return [
    { usage: USAGE, tools: [{ name: "exec_command", input: { cmd: "grep -c '^Action ' logs.txt" } }] },
    { usage: USAGE, tools: [{ name: "exec_command", input: { cmd: `printf '%s' '${actions}' > actions.json` } }] },
    { usage: USAGE, text: `Briefing ${k}: the log has grown.\n[PLAN]\nMove ${MOVES[(k - 1) % MOVES.length]}.` },
  ];
}

describe.skipIf(!codex)("the Codex backend, real CLI", () => {
  test(
    "three turns of glide: grep the log, write actions.json, one thread resumed each turn, per-turn token deltas",
    async () => {
      const server = startModelServer([1, 2, 3].flatMap(turnScript));
      try {
        const run = await withEnv(codexEnv(server), () =>
          play({
            game: "glide",
            agent: "codex",
            maxActions: 3,
            agentTimeoutSec: CALL_TIMEOUT_SEC,
            agentRetries: 0,
            sandbox: HAVE_BWRAP ? "bwrap" : "none",
            effort: "low",
          }),
        );
        expect(run.end.reason).toBe("max-actions");
        expect(server.remaining()).toBe(0);

        const log = parseLog(run.master);
        expect(log.sections.map((s) => s.toolCall?.id ?? null)).toEqual([null, 4, 2, 3]);
        expect(log.sections[2]!.plan).toBe("Briefing 2: the log has grown.\n[PLAN]\nMove ACTION2.");

        const events = readEventsFile(run.session.paths.events);
        const calls = events.filter((e) => e.kind === "agent-call") as unknown as { prompt: string; action: number }[];
        const replies = events.filter((e) => e.kind === "agent-reply") as unknown as {
          text: string;
          toolCalls: number;
          tokens: { input: number; cached: number; output: number };
          exitCode: number;
        }[];
        expect(calls.length).toBe(3);
        expect(replies.map((r) => r.toolCalls)).toEqual([2, 2, 2]);
        expect(replies.map((r) => r.exitCode)).toEqual([0, 0, 0]);
        expect(replies[2]!.text).toBe("Briefing 3: the log has grown.\n[PLAN]\nMove ACTION3.");
        // Codex reports 300/120/21 after turn 1, 600/240/42 after turn 2, ...: each turn records its own share.
        for (const r of replies) expect(r.tokens).toEqual({ input: 300, cached: 120, output: 21 });
        expect(run.session.tally.tokens).toEqual({ input: 900, cached: 360, output: 63 });

        const reqs = scripted(server.requests);
        expect(reqs.length).toBe(9);
        for (const k of [0, 1, 2]) expect(conversation(reqs[3 * k + 1]!)).toContain(`Output:\\n${calls[k]!.action + 1}\\n"`);
        expect(conversation(reqs[3]!)).toContain("Briefing 1: the log has grown.");
        expect(conversation(reqs[6]!)).toContain("Briefing 2: the log has grown.");
        expect(conversation(reqs[0]!)).not.toContain("Briefing");
        expect(reqs[0]!.body["reasoning"]).toMatchObject({ effort: "low" });

        const record = readSessionRecord(run.session.paths.workspace)._unsafeUnwrap();
        expect(record).toMatchObject({ backend: "codex", confirmed: true, cumulative: { input: 900, cached: 360, output: 63 } });
        expect(readFileSync(join(run.session.paths.dir, "agent-home", "codex", "config.toml"), "utf8")).toContain(server.url);
      } finally {
        server.stop();
      }
    },
    4 * CALL_TIMEOUT_SEC * 1000,
  );

  test(
    "prolong resume continues the same thread, and the token delta continues from the saved totals",
    async () => {
      const server = startModelServer([1, 2].flatMap(turnScript));
      try {
        const vars = codexEnv(server);
        const first = await withEnv(vars, () =>
          play(
            { game: "glide", agent: "codex", maxActions: 2, agentTimeoutSec: CALL_TIMEOUT_SEC, agentRetries: 0 },
            { stopAfter: 1 },
          ),
        );
        expect(first.end.reason).toBe("interrupted");
        const thread = readSessionRecord(first.session.paths.workspace)._unsafeUnwrap()!.sessionId;
        const resumed = await withEnv(vars, () => resumeToEnd(first.session.paths.dir));
        expect(resumed.end.reason).toBe("max-actions");
        expect(readSessionRecord(first.session.paths.workspace)._unsafeUnwrap()?.sessionId).toBe(thread);
        const reqs = scripted(server.requests);
        expect(conversation(reqs[3]!)).toContain("Briefing 1: the log has grown.");
        expect(conversation(reqs[3]!)).toContain("This run was interrupted and has been resumed");
        expect(resumed.session.tally.tokens).toEqual({ input: 600, cached: 240, output: 42 });
      } finally {
        server.stop();
      }
    },
    3 * CALL_TIMEOUT_SEC * 1000,
  );
});

/** `prolong play glide --agent codex --json`, spawned (not spawnSync: the model server lives in this process). */
async function playJson(
  runs: string,
  vars: Record<string, string>,
): Promise<{ end: string; detail: string; agentCalls: number }> {
  const MAIN = join(import.meta.dir, "../../../src/main.ts");
  const r = Bun.spawn(
    [
      process.execPath,
      MAIN,
      "play",
      "glide",
      "--agent",
      "codex",
      "--sandbox",
      "none",
      "--runs-dir",
      runs,
      "--json",
      "--agent-timeout",
      "60",
    ],
    { env: { ...process.env, ...vars }, stdout: "pipe", stderr: "pipe" },
  );
  const out = await new Response(r.stdout).text();
  expect(await r.exited).toBe(1);
  return JSON.parse(out.trim().split("\n").at(-1)!) as { end: string; detail: string; agentCalls: number };
}

describe.skipIf(!codex)("the real Codex CLI with a key the model server refuses", () => {
  test("prolong play ends agent-unavailable within seconds, one line naming the server's message; codex never called", async () => {
    let posts = 0;
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(req) {
        if (req.method === "POST") posts += 1;
        return Response.json(
          { error: { message: "Incorrect API key provided: sk-wrong.", type: "invalid_request_error", code: "invalid_api_key" } },
          { status: 401 },
        );
      },
    });
    try {
      const runs = tempRoot();
      const vars = codexEnv({ url: `http://127.0.0.1:${server.port}` });
      const started = performance.now();
      const summary = await playJson(runs, { ...vars, CODEX_LOCAL_KEY: "sk-wrong" });
      expect(performance.now() - started).toBeLessThan(30_000);
      expect([summary.end, summary.agentCalls, posts]).toEqual(["agent-unavailable", 0, 0]);
      expect(summary.detail).toContain(
        "refused the credentials (401 invalid_request_error: Incorrect API key provided: sk-wrong.)",
      );
      expect(summary.detail).toContain("CODEX_LOCAL_KEY");
      expect(summary.detail).not.toContain('{"');
    } finally {
      server.stop(true);
    }
  }, 60_000);

  test("a server that lists models but refuses the call: Codex's own failure ends the run agent-unavailable after one call", async () => {
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(req) {
        if (req.method === "GET") return Response.json({ object: "list", data: [] });
        return Response.json(
          { error: { message: "Incorrect API key provided: sk-wrong.", type: "invalid_request_error", code: "invalid_api_key" } },
          { status: 401 },
        );
      },
    });
    try {
      const started = performance.now();
      const summary = await playJson(tempRoot(), {
        ...codexEnv({ url: `http://127.0.0.1:${server.port}` }),
        CODEX_LOCAL_KEY: "sk-wrong",
      });
      expect(performance.now() - started).toBeLessThan(60_000);
      expect([summary.end, summary.agentCalls]).toEqual(["agent-unavailable", 1]);
      expect(summary.detail).toContain("codex: the model API refused the credentials (unexpected status 401 Unauthorized");
      expect(summary.detail).toContain('export a valid CODEX_LOCAL_KEY for model provider "local"');
      expect(summary.detail).not.toContain('{"');
    } finally {
      server.stop(true);
    }
  }, 120_000);
});
