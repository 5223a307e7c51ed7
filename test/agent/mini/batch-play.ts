// A batch of mini-agent runs on one scripted Chat Completions server, for the batch tests (fast: two games;
// slow: every game): `prolong play --games G --runs 2 --parallel 2 --agent mini`, each run a child process
// with its own conversation. The server answers from what each request carries (grep first, then the game's
// first move), and every run must end normally with its own tokens counted.
import { expect } from "bun:test";
import { existsSync } from "node:fs";
import path from "node:path";
import { readScorecard } from "../../../src/score/scorecard.ts";
import { startChatServer, type ChatRequest, type ChatStep } from "../../support/chat-server.ts";
import { HAVE_BWRAP, tempRoot } from "../backends/helpers.ts";

const MAIN = path.resolve(import.meta.dir, "../../../src/main.ts");
const USAGE = { input: 300, cached: 100, output: 20 };

/** A grep on a fresh prompt; after a command's output, the first move the instructions list for this game. */
function player(r: ChatRequest): ChatStep {
  const msgs = r.body["messages"] as { role: string; content: string | null }[];
  if (msgs.at(-1)!.role === "user") return { commands: ["grep -c '^Action ' logs.txt"], usage: USAGE };
  const listed = /^- (ACTION[1-57])\b/m.exec(msgs[0]!.content ?? "")?.[1] ?? "ACTION6(3,3)";
  return { commands: [`echo '{"actions": ["${listed}"]}' > actions.json`], text: `[PLAN]\n${listed}`, usage: USAGE };
}

/**
 * Plays the batch with one action a run (its turn is two calls: the grep, then the move, enough to sum tokens
 * over calls) and checks it: exit 0, one summary, every run done with its conversation and the tokens of its
 * own two calls. Returns the runs' names.
 */
export async function playMiniBatch(games: string): Promise<string[]> {
  const server = startChatServer(Array.from({ length: 200 }, () => player));
  try {
    const root = tempRoot();
    const child = Bun.spawn(
      [
        process.execPath,
        MAIN,
        "play",
        "--games",
        games,
        "--runs",
        "2",
        "--parallel",
        "2",
        "--agent",
        "mini",
        "--model",
        "scripted",
        "--base-url",
        server.baseUrl,
        "--max-actions",
        "1",
        "--agent-retries",
        "0",
        "--sandbox",
        HAVE_BWRAP ? "bwrap" : "none",
        "--runs-dir",
        root,
        "--json",
      ],
      { env: { ...process.env, OPENAI_API_KEY: "scripted-key" }, stdout: "pipe", stderr: "pipe" },
    );
    const [out, errText, code] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ]);
    const summary = JSON.parse(out.trim().split("\n").at(-1)!) as {
      kind: string;
      runs: { run: string; dir: string; state: string; actions: number }[];
    };
    expect({ code, stderr: code === 0 ? "" : errText }).toEqual({ code: 0, stderr: "" });
    expect(summary.kind).toBe("swarm-summary");
    for (const run of summary.runs) {
      expect([run.run, run.state, run.actions]).toEqual([run.run, "done", 1]);
      expect(existsSync(path.join(run.dir, "agent-conversation.json"))).toBe(true);
      const card = readScorecard(path.join(run.dir, "scorecard.json"))._unsafeUnwrap();
      expect(card.tokens).toEqual({ input: 2 * USAGE.input, cached: 2 * USAGE.cached, output: 2 * USAGE.output });
    }
    expect(server.requests.length).toBe(2 * summary.runs.length);
    return summary.runs.map((r) => r.run);
  } finally {
    server.stop();
  }
}
