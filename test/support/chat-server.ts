// A scripted OpenAI-compatible Chat Completions server on 127.0.0.1 (POST /v1/chat/completions, JSON, no
// streaming) for the mini agent, beside model-server.ts (which speaks the Anthropic and Responses APIs for the
// real CLIs). Each request takes the next step of the script:
//   { commands: [...], text? }   bash commands — tool calls when the request offers tools, else ```bash blocks
//   { text }                     a final answer (no command)
//   { status: 429, retryAfter }  an HTTP error (with a Retry-After header when given)
//   { hang: true }               never answers
//   { raw: "..." }               a body that is not a Chat Completions reply
//   { noChoices: true }          a reply with an empty choices array
//   { badArguments: "..." }      a bash tool call whose arguments are the given (invalid) JSON text
//   { toolCall: {name, arguments} }  a call of any tool (the --observe arm's observe, say)
// A step may be a function of the request (e.g. to answer with the move a game needs). When the script is
// used up the server answers "Done." with no command.

export interface ChatUsage {
  readonly input?: number;
  readonly cached?: number;
  readonly output?: number;
}

export type ChatStep =
  | { readonly commands: readonly string[]; readonly text?: string; readonly usage?: ChatUsage }
  | { readonly text: string; readonly usage?: ChatUsage }
  | { readonly status: number; readonly retryAfter?: number; readonly body?: unknown }
  | { readonly hang: true }
  | { readonly raw: string }
  | { readonly noChoices: true }
  | { readonly badArguments: string }
  | { readonly toolCall: { readonly name: string; readonly arguments: string } };

export interface ChatRequest {
  readonly path: string;
  readonly body: Record<string, unknown>;
  readonly authorization: string | null;
}

export interface ChatServerOptions {
  /** Answer 401 unless the bearer token is this. */
  readonly key?: string;
  /** Answer 404 "model not found" for any other model name. */
  readonly models?: readonly string[];
}

export interface ChatServer {
  /** http://127.0.0.1:PORT/v1: what --base-url takes. */
  readonly baseUrl: string;
  readonly requests: ChatRequest[];
  remaining(): number;
  /** Appends steps (tests that resume a run add the rest of the script later). */
  push(...steps: (ChatStep | ((r: ChatRequest) => ChatStep))[]): void;
  stop(): void;
}

let counter = 0;

export function startChatServer(
  script: readonly (ChatStep | ((r: ChatRequest) => ChatStep))[],
  opts: ChatServerOptions = {},
): ChatServer {
  const queue = [...script];
  const requests: ChatRequest[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      const url = new URL(req.url);
      if (req.method === "GET" && url.pathname === "/v1/models")
        return Response.json({ object: "list", data: (opts.models ?? []).map((id) => ({ id, object: "model" })) });
      if (req.method !== "POST" || url.pathname !== "/v1/chat/completions")
        return Response.json({ error: { message: `no route ${req.method} ${url.pathname}` } }, { status: 404 });
      const authorization = req.headers.get("authorization");
      let body: Record<string, unknown>;
      try {
        body = (await req.json()) as Record<string, unknown>;
      } catch {
        return Response.json({ error: { message: "bad json" } }, { status: 400 });
      }
      const request = { path: url.pathname, body, authorization };
      requests.push(request);
      if (opts.key !== undefined && authorization !== `Bearer ${opts.key}`)
        return Response.json(
          { error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } },
          { status: 401 },
        );
      const model = String(body["model"]);
      if (opts.models && !opts.models.includes(model))
        return Response.json(
          {
            error: { message: `The model \`${model}\` does not exist or you do not have access to it.`, code: "model_not_found" },
          },
          { status: 404 },
        );
      const next = queue.shift() ?? { text: "Done." };
      const step = typeof next === "function" ? next(request) : next;
      return answer(step, model, Array.isArray(body["tools"]) && body["tools"].length > 0);
    },
  });
  return {
    baseUrl: `http://127.0.0.1:${server.port}/v1`,
    requests,
    remaining: () => queue.length,
    push: (...steps) => void queue.push(...steps),
    stop: () => void server.stop(true),
  };
}

function answer(step: ChatStep, model: string, tools: boolean): Response {
  if ("hang" in step)
    return new Response(new ReadableStream({ start() {} }), { headers: { "content-type": "application/json" } });
  if ("raw" in step) return new Response(step.raw, { headers: { "content-type": "text/html" } });
  if ("status" in step) {
    const headers: Record<string, string> = step.retryAfter !== undefined ? { "retry-after": String(step.retryAfter) } : {};
    return Response.json(step.body ?? { error: { message: `scripted status ${step.status}` } }, { status: step.status, headers });
  }
  const base = { id: `chatcmpl-${++counter}`, object: "chat.completion", created: 0, model };
  if ("noChoices" in step) return Response.json({ ...base, choices: [], usage: usage({}) });
  if ("badArguments" in step || "toolCall" in step) {
    const fn = "toolCall" in step ? step.toolCall : { name: "bash", arguments: step.badArguments };
    const message = {
      role: "assistant",
      content: null,
      tool_calls: [{ id: `call_${++counter}`, type: "function", function: fn }],
    };
    return Response.json({ ...base, choices: [{ index: 0, message, finish_reason: "tool_calls" }], usage: usage({}) });
  }
  const commands = "commands" in step ? step.commands : [];
  let message: Record<string, unknown>;
  if (commands.length > 0 && tools) {
    message = {
      role: "assistant",
      content: step.text ?? null,
      tool_calls: commands.map((command) => ({
        id: `call_${++counter}`,
        type: "function",
        function: { name: "bash", arguments: JSON.stringify({ command }) },
      })),
    };
  } else {
    const blocks = commands.map((c) => `\`\`\`bash\n${c}\n\`\`\``).join("\n\n");
    message = { role: "assistant", content: [step.text ?? "", blocks].filter(Boolean).join("\n\n") };
  }
  const finish = commands.length > 0 && tools ? "tool_calls" : "stop";
  return Response.json({ ...base, choices: [{ index: 0, message, finish_reason: finish }], usage: usage(step.usage ?? {}) });
}

/** OpenAI's usage shape: prompt_tokens includes the cached ones. */
function usage(u: ChatUsage) {
  const input = u.input ?? 100;
  const output = u.output ?? 10;
  return {
    prompt_tokens: input,
    completion_tokens: output,
    total_tokens: input + output,
    prompt_tokens_details: { cached_tokens: u.cached ?? 0 },
  };
}
