// `prolong mcp-observe --file PATH`: the --observe arm's MCP server, on stdin/stdout (newline-delimited JSON-RPC
// 2.0, as the MCP stdio transport is). One tool, `observe`, returning the observation file the harness wrote;
// nothing else is read, nothing written. The coding CLIs start it inside the agent's sandbox.
import { OBSERVE_TOOL, readObservation } from "../agent/observe-tool.ts";
import { VERSION } from "../version.ts";
import { flag, operandsFit, parseCommandArgs } from "./args.ts";
import { argumentProblem } from "./argument-problem.ts";
import type { Command } from "./command.ts";

const usage = `usage: prolong mcp-observe --file PATH

The read-only observe tool of \`play --observe mcp\`, as an MCP server over stdio: the coding CLI starts it
(prolong writes their MCP configuration); each call returns PATH, the observation the harness wrote before
the turn (the current board and the last batch). Not meant to be run by hand.`;

const flags = { file: flag.text() } as const;

/** Protocol versions this server speaks; a client asking for another gets the newest. */
const VERSIONS = ["2024-11-05", "2025-03-26", "2025-06-18"];
/** The longest request line read (a client sends small JSON objects). */
const LINE_MAX = 1024 * 1024;

type Json = Record<string, unknown>;

/** The answer to one JSON-RPC message, or null for a notification (no answer). */
export function answer(msg: Json, file: string): Json | null {
  const id = msg["id"];
  if (id === undefined || id === null) return null;
  const reply = (result: Json): Json => ({ jsonrpc: "2.0", id, result });
  const fail = (code: number, message: string): Json => ({ jsonrpc: "2.0", id, error: { code, message } });
  const params = (typeof msg["params"] === "object" && msg["params"] !== null ? msg["params"] : {}) as Json;
  switch (msg["method"]) {
    case "initialize": {
      const asked = String(params["protocolVersion"] ?? "");
      return reply({
        protocolVersion: VERSIONS.includes(asked) ? asked : VERSIONS.at(-1)!,
        capabilities: { tools: {} },
        serverInfo: { name: "prolong-observe", version: VERSION },
      });
    }
    case "ping":
      return reply({});
    case "tools/list":
      return reply({
        tools: [{ ...OBSERVE_TOOL, inputSchema: { type: "object", properties: {}, additionalProperties: false } }],
      });
    case "tools/call": {
      if (params["name"] !== OBSERVE_TOOL.name)
        return fail(-32602, `no tool named ${String(params["name"])}; the one tool is observe`);
      const read = readObservation(file);
      return reply(
        read.ok
          ? { content: [{ type: "text", text: read.text }] }
          : { content: [{ type: "text", text: read.why }], isError: true },
      );
    }
    default:
      return fail(-32601, `method not found: ${String(msg["method"])}`);
  }
}

export const mcpObserveCommand: Command = {
  name: "mcp-observe",
  summary: "the --observe arm's read-only observe tool, as an MCP server over stdio (started by the coding CLIs)",
  usage,
  flags,
  async run(args) {
    const parsed = parseCommandArgs("mcp-observe", args, flags);
    if (!parsed) return 2;
    const file = parsed.values.file;
    if (file === undefined)
      return argumentProblem(
        "mcp-observe",
        "missing --file PATH, the observation file to serve",
        "prolong mcp-observe --file PATH",
      );
    if (!operandsFit("mcp-observe", parsed.positionals, [])) return 2;
    const send = (m: Json) => process.stdout.write(`${JSON.stringify(m)}\n`);
    let pending = "";
    for await (const chunk of process.stdin) {
      pending += typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("utf8");
      for (let nl = pending.indexOf("\n"); nl >= 0; nl = pending.indexOf("\n")) {
        const line = pending.slice(0, nl).trim();
        pending = pending.slice(nl + 1);
        if (line === "") continue;
        let msg: unknown;
        try {
          msg = JSON.parse(line);
        } catch {
          send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error: a line that is not JSON" } });
          continue;
        }
        if (typeof msg !== "object" || msg === null || Array.isArray(msg)) continue;
        const a = answer(msg as Json, file);
        if (a) send(a);
      }
      if (pending.length > LINE_MAX) {
        send({ jsonrpc: "2.0", id: null, error: { code: -32600, message: `a request line longer than ${LINE_MAX} bytes` } });
        pending = "";
      }
    }
    return 0;
  },
};
