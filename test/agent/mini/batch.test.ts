// One scripted Chat Completions server drives a whole batch: `prolong play --games all --runs 2 --parallel 2
// --agent mini`, each run a child process with its own conversation, every run ending normally with its
// tokens counted. The server answers from what each request carries (grep first, then the game's first move).
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import path from "node:path";
import { readScorecard } from "../../../src/score/scorecard.ts";
import { startChatServer, type ChatRequest, type ChatStep } from "../../support/chat-server.ts";
import { HAVE_BWRAP, tempRoot } from "../backends/helpers.ts";

const MAIN = path.resolve(import.meta.dir, "../../../src/main.ts");

/** A grep on a fresh prompt; after a command's output, the first move the instructions list for this game. */
function player(r: ChatRequest): ChatStep {
  const msgs = r.body["messages"] as { role: string; content: string | null }[];
  if (msgs.at(-1)!.role === "user")
    return { commands: ["grep -c '^Action ' logs.txt"], usage: { input: 300, cached: 100, output: 20 } };
  const listed = /^- (ACTION[1-57])\b/m.exec(msgs[0]!.content ?? "")?.[1] ?? "ACTION6(3,3)";
  return {
    commands: [`echo '{"actions": ["${listed}"]}' > actions.json`],
    text: `[PLAN]\n${listed}`,
    usage: { input: 300, cached: 100, output: 20 },
  };
}

describe("a batch of mini-agent runs on one server", () => {
  test("play --games all --runs 2 --parallel 2: every run done, its own conversation, tokens from usage", async () => {
    const server = startChatServer(Array.from({ length: 200 }, () => player));
    try {
      const root = tempRoot();
      const child = Bun.spawn(
        [
          process.execPath,
          MAIN,
          "play",
          "--games",
          "all",
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
          "2",
          "--agent-retries",
          "0",
          "--sandbox",
          HAVE_BWRAP ? "bwrap" : "none",
          "--runs-dir",
          root,
          "--json",
        ],
        {
          env: { ...process.env, OPENAI_API_KEY: "scripted-key" },
          stdout: "pipe",
          stderr: "pipe",
        },
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
      expect(summary.runs.length).toBeGreaterThanOrEqual(10);
      for (const run of summary.runs) {
        expect([run.run, run.state, run.actions]).toEqual([run.run, "done", 2]);
        expect(existsSync(path.join(run.dir, "agent-conversation.json"))).toBe(true);
        const card = readScorecard(path.join(run.dir, "scorecard.json"))._unsafeUnwrap();
        expect(card.tokens).toEqual({ input: 4 * 300, cached: 4 * 100, output: 4 * 20 });
      }
      expect(server.requests.length).toBe(4 * summary.runs.length);
    } finally {
      server.stop();
    }
  }, 180_000);
});
