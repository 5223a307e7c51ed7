// The --observe arm and the trajectory with the REAL Claude Code and Codex CLIs, driven by the scripted model
// server, under bubblewrap where it runs: turns in which the model greps logs.txt, runs python on it, calls the
// observe tool (prolong mcp-observe, started by the CLI inside the sandbox) and writes actions.json; the
// trajectory lists each call with its class. A --log-window none --observe mcp run's agent gets the board only
// as the observe tool's result: no prompt, system text or instructions it is sent carries it.
// Skips, saying why, when a CLI is absent.
import { describe, expect, test } from "bun:test";
import { readTrajectory } from "../../../src/run-files/trajectory.ts";
import { classifyCall } from "../../../src/score/tool-classes.ts";
import { startModelServer, type ReceivedRequest, type ScriptedTurn } from "../../support/model-server.ts";
import { claudeEnv, codexEnv, HAVE_BWRAP, play, realCli, scripted, withEnv } from "./helpers.ts";

const claude = realCli("claude", "@anthropic-ai/claude-code");
const codex = realCli("codex", "@openai/codex");
const CALL_TIMEOUT_SEC = 120;
const MOVE = '{"actions": ["ACTION4"]}';
const GREP = "grep -c '^Action ' logs.txt";
const PYTHON = `python3 -c "print(open('logs.txt').read().count('Score'))"`;
/** A board row as the log writes it: 64 cells of the palette's characters. */
const BOARD_ROW = /^[$8#hqOCznf(G\->I"]{64}$/m;

/** The classes of each turn's tool calls, from the run's trajectory. */
function classesByTurn(trajectory: string): string[][] {
  const byTurn: string[][] = [];
  for (const r of readTrajectory(trajectory)._unsafeUnwrap()) {
    if (r.kind !== "tool") continue;
    (byTurn[r.turn - 1] ??= []).push(classifyCall(r).class);
  }
  return byTurn;
}

/** Every piece of text a request carried that is not a tool's result: system text, user prompts, instructions. */
function promptTexts(r: ReceivedRequest): string[] {
  const out: string[] = [];
  const walk = (x: unknown, inResult: boolean): void => {
    if (typeof x === "string") {
      if (!inResult) out.push(x);
    } else if (Array.isArray(x)) for (const y of x) walk(y, inResult);
    else if (typeof x === "object" && x !== null) {
      const o = x as Record<string, unknown>;
      const result = inResult || o["type"] === "tool_result" || o["type"] === "function_call_output";
      for (const [k, v] of Object.entries(o)) if (k !== "tools") walk(v, result);
    }
  };
  walk(
    { system: r.body["system"], instructions: r.body["instructions"], messages: r.body["messages"], input: r.body["input"] },
    false,
  );
  return out;
}

/** What the observe tool returned to the model, from the requests after its call. */
function observeResults(reqs: readonly ReceivedRequest[]): string {
  return reqs.map((r) => JSON.stringify(r.body["messages"] ?? r.body["input"] ?? [])).join("\n");
}

const sandbox = HAVE_BWRAP ? ("bwrap" as const) : ("none" as const);

describe.skipIf(!claude)("Claude Code with --observe mcp, real CLI", () => {
  const observe = { name: "mcp__prolong__observe", input: {} };
  test(
    "full log: grep, python, observe, Write each turn; the trajectory classes them search-log, code, observe, action-file",
    async () => {
      const turn: ScriptedTurn[] = [
        { tools: [{ name: "Bash", input: { command: GREP, description: "count" } }] },
        { tools: [{ name: "Bash", input: { command: PYTHON, description: "analyse" } }] },
        { tools: [observe] },
        { tools: [{ name: "Write", input: { file_path: "actions.json", content: MOVE } }] },
        { text: "Counted and observed.\n[PLAN]\nright" },
      ];
      const server = startModelServer([...turn, ...turn]);
      try {
        const run = await withEnv(claudeEnv(server), () =>
          play({
            game: "glide",
            agent: "claude",
            maxActions: 2,
            agentTimeoutSec: CALL_TIMEOUT_SEC,
            agentRetries: 0,
            observe: "mcp",
            sandbox,
          }),
        );
        expect(run.end.reason).toBe("max-actions");
        expect(server.remaining()).toBe(0);
        expect(classesByTurn(run.session.paths.trajectory)).toEqual([
          ["search-log", "code", "observe", "action-file"],
          ["search-log", "code", "observe", "action-file"],
        ]);
        expect(observeResults(scripted(server.requests))).toContain("[CURRENT BOARD STATE]");
      } finally {
        server.stop();
      }
    },
    4 * CALL_TIMEOUT_SEC * 1000,
  );

  test(
    "--log-window none --observe mcp: the board reaches the model only as the observe tool's result",
    async () => {
      const turn: ScriptedTurn[] = [
        { tools: [observe] },
        { tools: [{ name: "Write", input: { file_path: "actions.json", content: MOVE } }] },
        { text: "Observed.\n[PLAN]\nright" },
      ];
      const server = startModelServer([...turn, ...turn]);
      try {
        const run = await withEnv(claudeEnv(server), () =>
          play({
            game: "glide",
            agent: "claude",
            maxActions: 2,
            agentTimeoutSec: CALL_TIMEOUT_SEC,
            agentRetries: 0,
            logWindow: "none",
            observe: "mcp",
            sandbox,
          }),
        );
        expect(run.end.reason).toBe("max-actions");
        const reqs = scripted(server.requests);
        for (const r of reqs) for (const t of promptTexts(r)) expect(t).not.toMatch(BOARD_ROW);
        expect(observeResults(reqs)).toMatch(/\[CURRENT BOARD STATE\]\\n[$8#hqOCznf(G\\\->I"]{64}\\n/);
        expect(classesByTurn(run.session.paths.trajectory)).toEqual([
          ["observe", "action-file"],
          ["observe", "action-file"],
        ]);
      } finally {
        server.stop();
      }
    },
    4 * CALL_TIMEOUT_SEC * 1000,
  );
});

describe.skipIf(!codex)("Codex with --observe mcp, real CLI", () => {
  // Codex offers an MCP server's tools as a namespace (mcp__prolong) holding the tool by its own name.
  const observe = { name: "observe", namespace: "mcp__prolong", input: {} };
  test(
    "full log: grep, python, observe, a redirection into actions.json; classes search-log, code, observe, action-file",
    async () => {
      const turn: ScriptedTurn[] = [
        { tools: [{ name: "exec_command", input: { cmd: GREP } }] },
        { tools: [{ name: "exec_command", input: { cmd: PYTHON } }] },
        { tools: [observe] },
        { tools: [{ name: "exec_command", input: { cmd: `printf '%s' '${MOVE}' > actions.json` } }] },
        { text: "Counted and observed.\n[PLAN]\nright" },
      ];
      const server = startModelServer([...turn, ...turn]);
      try {
        const run = await withEnv(codexEnv(server), () =>
          play({
            game: "glide",
            agent: "codex",
            maxActions: 2,
            agentTimeoutSec: CALL_TIMEOUT_SEC,
            agentRetries: 0,
            observe: "mcp",
            sandbox,
          }),
        );
        expect(run.end.reason).toBe("max-actions");
        expect(server.remaining()).toBe(0);
        expect(classesByTurn(run.session.paths.trajectory)).toEqual([
          ["search-log", "code", "observe", "action-file"],
          ["search-log", "code", "observe", "action-file"],
        ]);
        expect(observeResults(scripted(server.requests))).toContain("[CURRENT BOARD STATE]");
      } finally {
        server.stop();
      }
    },
    4 * CALL_TIMEOUT_SEC * 1000,
  );

  test(
    "--log-window none --observe mcp: the board reaches the model only as the observe tool's result",
    async () => {
      const turn: ScriptedTurn[] = [
        { tools: [observe] },
        { tools: [{ name: "exec_command", input: { cmd: `printf '%s' '${MOVE}' > actions.json` } }] },
        { text: "Observed.\n[PLAN]\nright" },
      ];
      const server = startModelServer([...turn, ...turn]);
      try {
        const run = await withEnv(codexEnv(server), () =>
          play({
            game: "glide",
            agent: "codex",
            maxActions: 2,
            agentTimeoutSec: CALL_TIMEOUT_SEC,
            agentRetries: 0,
            logWindow: "none",
            observe: "mcp",
            sandbox,
          }),
        );
        expect(run.end.reason).toBe("max-actions");
        const reqs = scripted(server.requests);
        for (const r of reqs) for (const t of promptTexts(r)) expect(t).not.toMatch(BOARD_ROW);
        expect(observeResults(reqs)).toMatch(/\[CURRENT BOARD STATE\]\\n[$8#hqOCznf(G\\\->I"]{64}\\n/);
        expect(classesByTurn(run.session.paths.trajectory)).toEqual([
          ["observe", "action-file"],
          ["observe", "action-file"],
        ]);
      } finally {
        server.stop();
      }
    },
    4 * CALL_TIMEOUT_SEC * 1000,
  );
});
