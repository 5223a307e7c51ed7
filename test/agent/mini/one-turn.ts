// One turn of the mini agent on glide against a scripted Chat Completions server, for the bounds tests (fast
// and slow tier): what the run ended with, what the model heard after each command, how long it took.
import { startChatServer, type ChatRequest, type ChatStep } from "../../support/chat-server.ts";
import { HAVE_BWRAP, play, withEnv } from "../backends/helpers.ts";

export const SANDBOX = HAVE_BWRAP ? "bwrap" : "none";
export const WRITE = `echo '{"actions": ["ACTION4"]}' > actions.json`;
const KEY = { OPENAI_API_KEY: "scripted-key" };

/** What the model heard after each request but the first (the last message of the next request). */
function heard(requests: ChatRequest[]): string[] {
  return requests.slice(1).map((r) => (r.body["messages"] as { content: string }[]).at(-1)!.content);
}

export async function oneTurn(steps: ChatStep[], extra: Record<string, unknown> = {}) {
  const server = startChatServer(steps);
  try {
    const started = performance.now();
    const run = await withEnv(KEY, () =>
      play({
        game: "glide",
        agent: "mini",
        baseUrl: server.baseUrl,
        model: "m",
        maxActions: 1,
        agentRetries: 0,
        agentTimeoutSec: 60,
        sandbox: SANDBOX,
        ...extra,
      }),
    );
    return { run, heard: heard(server.requests), seconds: (performance.now() - started) / 1000, requests: server.requests };
  } finally {
    server.stop();
  }
}
