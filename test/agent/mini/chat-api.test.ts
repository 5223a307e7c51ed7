// One Chat Completions request against the scripted server: usage figures, retries with backoff on 429/5xx
// (the waits recorded, not slept), a hang cut at the deadline, malformed and empty replies, and every bad
// setting named in its error with the fix.
import { afterEach, describe, expect, test } from "bun:test";
import { chatCompletion, type ChatEndpoint, type RetryPolicy } from "../../../src/agent/mini/chat-api.ts";
import { startChatServer, type ChatServer } from "../../support/chat-server.ts";

let server: ChatServer | undefined;
afterEach(() => server?.stop());

function endpoint(s: ChatServer, over: Partial<ChatEndpoint> = {}): ChatEndpoint {
  return { baseUrl: s.baseUrl, model: "m", apiKey: "k", apiKeyEnv: "OPENAI_API_KEY", ...over };
}

/** A retry policy that records its waits instead of sleeping. */
function recording(retries = 4): RetryPolicy & { waits: number[] } {
  const waits: number[] = [];
  return { retries, baseDelayMs: 1000, maxDelayMs: 30_000, sleep: async (ms) => void waits.push(ms), waits };
}

const far = () => performance.now() + 60_000;
const BODY = { messages: [{ role: "user", content: "hi" }] };

describe("chatCompletion", () => {
  test("a reply's message, tool calls and usage (input includes cached, as OpenAI reports it)", async () => {
    server = startChatServer([{ commands: ["ls"], text: "looking", usage: { input: 1200, cached: 1000, output: 33 } }]);
    const r = (await chatCompletion(endpoint(server), { ...BODY, tools: [{}] }, far(), recording()))._unsafeUnwrap();
    expect(r.message.content).toBe("looking");
    expect(r.message.tool_calls?.map((c) => JSON.parse(c.function.arguments))).toEqual([{ command: "ls" }]);
    expect(r.tokens).toEqual({ input: 1200, cached: 1000, output: 33 });
    expect(server.requests[0]!.authorization).toBe("Bearer k");
    expect(server.requests[0]!.body["model"]).toBe("m");
  });

  test("429 then success: retried after the server's Retry-After; 5xx backs off exponentially", async () => {
    server = startChatServer([{ status: 429, retryAfter: 7 }, { status: 503 }, { status: 500 }, { text: "ok" }]);
    const policy = recording();
    const r = (await chatCompletion(endpoint(server), BODY, far(), policy))._unsafeUnwrap();
    expect(r.message.content).toBe("ok");
    expect(policy.waits).toEqual([7000, 2000, 4000]);
    expect(r.retried.length).toBe(3);
    expect(r.retried[0]).toContain("answered 429");
  });

  test("transient failures past the retry budget: the last one, with the number of attempts", async () => {
    server = startChatServer([{ status: 502 }, { status: 502 }, { status: 502 }]);
    const e = (await chatCompletion(endpoint(server), BODY, far(), recording(2)))._unsafeUnwrapErr();
    expect(e.code).toBe("api-busy");
    expect(e.message).toContain("answered 502");
    expect(e.message).toContain("(after 3 attempts)");
  });

  test("a hang is cut at the deadline and named as a timeout", async () => {
    server = startChatServer([{ hang: true }]);
    const e = (await chatCompletion(endpoint(server), BODY, performance.now() + 300, recording()))._unsafeUnwrapErr();
    expect(e.code).toBe("api-timeout");
    expect(e.fix).toContain("--agent-timeout");
  });

  test("a malformed reply and a reply with no choices are retried, then fail naming the problem", async () => {
    server = startChatServer([{ raw: "<html>502 Bad Gateway</html>" }, { noChoices: true }, { text: "fine" }]);
    const policy = recording();
    expect((await chatCompletion(endpoint(server), BODY, far(), policy))._unsafeUnwrap().message.content).toBe("fine");
    expect(policy.waits.length).toBe(2);
    server.push({ raw: '{"choices": [{"message": {"content": 5}}]}' });
    const e = (await chatCompletion(endpoint(server), BODY, far(), recording(0)))._unsafeUnwrapErr();
    expect(e.code).toBe("api-reply");
    expect(e.message).toContain("not a Chat Completions response: choices.0.message.content");
    server.push({ noChoices: true });
    expect((await chatCompletion(endpoint(server), BODY, far(), recording(0)))._unsafeUnwrapErr().message).toContain(
      "held no choices",
    );
  });

  test("bad settings: an unreachable --base-url (retried: it may be starting), a wrong one, a refused key, a refused model — each named", async () => {
    server = startChatServer([], { key: "right", models: ["good"] });
    const unreachable = (
      await chatCompletion({ ...endpoint(server), baseUrl: "http://127.0.0.1:9/v1" }, BODY, far(), recording(1))
    )._unsafeUnwrapErr();
    expect(unreachable.code).toBe("api-unreachable");
    expect(unreachable.fix).toContain("--base-url");
    expect(unreachable.message).toContain("(after 2 attempts)");
    const wrongPath = (
      await chatCompletion(
        { ...endpoint(server), baseUrl: server.baseUrl.replace("/v1", "/api"), apiKey: "right", model: "good" },
        BODY,
        far(),
        recording(),
      )
    )._unsafeUnwrapErr();
    expect(wrongPath.code).toBe("api-url");
    expect(wrongPath.fix).toContain("--base-url");
    const key = (
      await chatCompletion(endpoint(server, { apiKey: "wrong", model: "good" }), BODY, far(), recording())
    )._unsafeUnwrapErr();
    expect(key.code).toBe("api-key");
    expect(key.fix).toContain("$OPENAI_API_KEY");
    expect(key.fix).toContain("--api-key-env");
    const model = (
      await chatCompletion(endpoint(server, { apiKey: "right", model: "nope" }), BODY, far(), recording())
    )._unsafeUnwrapErr();
    expect(model.code).toBe("api-model");
    expect(model.message).toContain('the server refused the model "nope" (--model)');
    expect(model.message).toContain("does not exist");
    // A conversation past the model's window (vLLM's and llama.cpp's wording) names --context-limit.
    server.push({
      status: 400,
      body: { error: { message: "This model's maximum context length is 32768 tokens. However, you requested 40000 tokens." } },
    });
    const context = (
      await chatCompletion(endpoint(server, { apiKey: "right", model: "good" }), BODY, far(), recording())
    )._unsafeUnwrapErr();
    expect(context.code).toBe("api-context");
    expect(context.fix).toContain("--context-limit");
  });
});
