// A scripted model server on 127.0.0.1 for driving real coding CLIs offline: it speaks the Anthropic
// Messages API (POST /v1/messages, SSE) for Claude Code and the OpenAI Responses API (POST /v1/responses,
// SSE) for Codex. Each agent request takes the next turn of the script: some text, tool calls, or both.
// When the script is used up it answers with a plain final text. Requests without tools (titles, summaries
// and other side calls a client makes) get a short text reply and do not consume a turn.
//
//   const server = startModelServer([{ tools: [{ name: "Bash", input: { command: "ls" } }] }, { text: "done" }]);
//   ... ANTHROPIC_BASE_URL=server.url ...   or   base_url = server.url + "/v1"
//   server.requests  // every request body received, for assertions
//   server.stop();

export interface ScriptedToolCall {
  /** The client's tool name: "Bash" for Claude Code, "exec_command" for Codex, ... */
  readonly name: string;
  readonly input: Record<string, unknown>;
  /** Responses API: the namespace of a namespaced tool (Codex offers an MCP server's tools as namespace mcp__<server>). */
  readonly namespace?: string;
}

export interface ScriptedTurn {
  readonly text?: string;
  readonly tools?: readonly ScriptedToolCall[];
  /**
   * Token usage reported for this reply (default: 10 input, 5 output, nothing cached). Anthropic reports
   * `input` as uncached input plus cacheRead/cacheCreation; OpenAI reports `input` including `cached`.
   */
  readonly usage?: ScriptedUsage;
  /** Never finish the reply: the stream stays open until the client gives up or is killed (timeout tests). */
  readonly hang?: true;
}

export interface ScriptedUsage {
  readonly input?: number;
  readonly output?: number;
  /** Anthropic: cache_read_input_tokens. */
  readonly cacheRead?: number;
  /** Anthropic: cache_creation_input_tokens. */
  readonly cacheCreation?: number;
  /** OpenAI: input_tokens_details.cached_tokens. */
  readonly cached?: number;
}

export interface ReceivedRequest {
  readonly api: "anthropic" | "openai";
  readonly path: string;
  readonly body: Record<string, unknown>;
  /** Whether this request consumed a script turn. */
  readonly scripted: boolean;
}

export interface ModelServer {
  /** http://127.0.0.1:PORT (no trailing slash, no /v1). */
  readonly url: string;
  readonly port: number;
  readonly requests: ReceivedRequest[];
  /** Script turns not yet served. */
  remaining(): number;
  stop(): void;
}

const FINAL_TEXT = "Done.";

function sse(events: readonly { event: string; data: unknown }[]): Response {
  const body = events.map((e) => `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`).join("");
  return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
}

let counter = 0;
function id(prefix: string): string {
  counter += 1;
  return `${prefix}_${Date.now().toString(36)}${counter}`;
}

function anthropicStream(turn: ScriptedTurn, model: string): Response {
  const events: { event: string; data: unknown }[] = [];
  const u = turn.usage ?? {};
  const usage = {
    input_tokens: u.input ?? 10,
    output_tokens: 0,
    cache_read_input_tokens: u.cacheRead ?? 0,
    cache_creation_input_tokens: u.cacheCreation ?? 0,
  };
  events.push({
    event: "message_start",
    data: {
      type: "message_start",
      message: {
        id: id("msg"),
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage,
      },
    },
  });
  let index = 0;
  if (turn.text !== undefined) {
    events.push({
      event: "content_block_start",
      data: { type: "content_block_start", index, content_block: { type: "text", text: "" } },
    });
    events.push({
      event: "content_block_delta",
      data: { type: "content_block_delta", index, delta: { type: "text_delta", text: turn.text } },
    });
    events.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
    index += 1;
  }
  for (const call of turn.tools ?? []) {
    events.push({
      event: "content_block_start",
      data: {
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: id("toolu"), name: call.name, input: {} },
      },
    });
    events.push({
      event: "content_block_delta",
      data: { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify(call.input) } },
    });
    events.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
    index += 1;
  }
  const stop = (turn.tools?.length ?? 0) > 0 ? "tool_use" : "end_turn";
  events.push({
    event: "message_delta",
    data: { type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: u.output ?? 5 } },
  });
  events.push({ event: "message_stop", data: { type: "message_stop" } });
  return sse(events);
}

function anthropicJson(turn: ScriptedTurn, model: string): Response {
  const content: unknown[] = [];
  if (turn.text !== undefined) content.push({ type: "text", text: turn.text });
  for (const call of turn.tools ?? []) content.push({ type: "tool_use", id: id("toolu"), name: call.name, input: call.input });
  const stop = (turn.tools?.length ?? 0) > 0 ? "tool_use" : "end_turn";
  return Response.json({
    id: id("msg"),
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  });
}

function openaiStream(turn: ScriptedTurn, model: string): Response {
  const responseId = id("resp");
  const output: unknown[] = [];
  const events: { event: string; data: unknown }[] = [];
  let seq = 0;
  const push = (type: string, data: Record<string, unknown>) =>
    events.push({ event: type, data: { type, sequence_number: seq++, ...data } });
  const base = { id: responseId, object: "response", created_at: Math.floor(Date.now() / 1000), model };
  push("response.created", { response: { ...base, status: "in_progress", output: [] } });
  if (turn.text !== undefined) {
    const itemId = id("msg");
    const outputIndex = output.length;
    push("response.output_item.added", {
      output_index: outputIndex,
      item: { type: "message", id: itemId, role: "assistant", status: "in_progress", content: [] },
    });
    push("response.output_text.delta", { item_id: itemId, output_index: outputIndex, content_index: 0, delta: turn.text });
    const item = {
      type: "message",
      id: itemId,
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: turn.text, annotations: [] }],
    };
    push("response.output_item.done", { output_index: outputIndex, item });
    output.push(item);
  }
  for (const call of turn.tools ?? []) {
    const outputIndex = output.length;
    const item = {
      type: "function_call",
      id: id("fc"),
      call_id: id("call"),
      name: call.name,
      ...(call.namespace !== undefined ? { namespace: call.namespace } : {}),
      arguments: JSON.stringify(call.input),
      status: "completed",
    };
    push("response.output_item.added", { output_index: outputIndex, item: { ...item, arguments: "", status: "in_progress" } });
    push("response.output_item.done", { output_index: outputIndex, item });
    output.push(item);
  }
  const u = turn.usage ?? {};
  const input = u.input ?? 10;
  const outputTokens = u.output ?? 5;
  const usage = {
    input_tokens: input,
    input_tokens_details: { cached_tokens: u.cached ?? 0 },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + outputTokens,
  };
  push("response.completed", { response: { ...base, status: "completed", output, usage } });
  return sse(events);
}

/** An SSE response whose body never ends. */
function hangingStream(): Response {
  const body = new ReadableStream({ start() {} });
  return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
}

export function startModelServer(script: readonly ScriptedTurn[]): ModelServer {
  const queue = [...script];
  const requests: ReceivedRequest[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      if (req.method === "GET" && url.pathname.endsWith("/models"))
        return Response.json({ object: "list", data: [], models: [] });
      if (req.method !== "POST") return new Response("not found", { status: 404 });
      let body: Record<string, unknown> = {};
      try {
        body = (await req.json()) as Record<string, unknown>;
      } catch {
        return new Response("bad json", { status: 400 });
      }
      const model = typeof body["model"] === "string" ? body["model"] : "scripted";
      const hasTools = Array.isArray(body["tools"]) && body["tools"].length > 0;
      if (url.pathname.endsWith("/messages/count_tokens")) return Response.json({ input_tokens: 10 });
      const api = url.pathname.endsWith("/messages") ? "anthropic" : url.pathname.endsWith("/responses") ? "openai" : null;
      if (api === null) return new Response("not found", { status: 404 });
      const turn: ScriptedTurn = hasTools ? (queue.shift() ?? { text: FINAL_TEXT }) : { text: "ok" };
      requests.push({ api, path: url.pathname, body, scripted: hasTools });
      if (turn.hang) return hangingStream();
      if (api === "anthropic") return body["stream"] === true ? anthropicStream(turn, model) : anthropicJson(turn, model);
      return openaiStream(turn, model);
    },
  });
  const port = server.port ?? 0;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    remaining: () => queue.length,
    stop: () => void server.stop(true),
  };
}
