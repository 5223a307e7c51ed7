// Each --tools level of the mini agent in a real run: a command outside the level is answered with the
// refusal and never runs (its side effect is absent), one inside it runs; with --no-write under bubblewrap the
// workspace is read-only but for actions.json, so even python cannot write there.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ToolLevel } from "../../../src/agent/tool-ladder.ts";
import { armFingerprint, armSettingsOf, derivedArmName } from "../../../src/config/arm.ts";
import { newConfig } from "../../../src/config/run-config.ts";
import { startRun } from "../../../src/run/start.ts";
import { startChatServer, type ChatRequest } from "../../support/chat-server.ts";
import { HAVE_BWRAP, play, readEventsFile, tempRoot, withEnv } from "../backends/helpers.ts";

const KEY = { OPENAI_API_KEY: "scripted-key" };
const WRITE = `echo '{"actions": ["ACTION4"]}' > actions.json`;
const HAVE_PYTHON = Bun.which("python3") !== null;

function lastOutput(r: ChatRequest): string {
  const msgs = r.body["messages"] as { role: string; content: string }[];
  return msgs.at(-1)!.content;
}

/** Plays one turn in which the model runs `commands` one per reply, then writes actions.json. */
async function oneTurn(tools: ToolLevel, commands: string[], extra: Record<string, unknown> = {}) {
  const server = startChatServer([...commands.map((c) => ({ commands: [c] })), { commands: [WRITE], text: "[PLAN]\nright" }]);
  try {
    const run = await withEnv(KEY, () =>
      play({
        game: "glide",
        agent: "mini",
        baseUrl: server.baseUrl,
        model: "m",
        tools,
        maxActions: 1,
        agentRetries: 0,
        agentTimeoutSec: 60,
        sandbox: HAVE_BWRAP ? "bwrap" : "none",
        ...extra,
      }),
    );
    const system = (server.requests[0]!.body["messages"] as { content: string }[])[0]!.content;
    return { run, outputs: server.requests.slice(1).map(lastOutput), ws: run.session.paths.workspace, system };
  } finally {
    server.stop();
  }
}

describe("the mini agent's --tools levels in a run", () => {
  // A restricted level needs bubblewrap (without it the run is refused, the last test here).
  test.skipIf(!HAVE_BWRAP)(
    "read: cat and tail run; grep, python and writing another file are refused, not run",
    async () => {
      const { run, outputs, ws, system } = await oneTurn("read", [
        "tail -n 1 logs.txt",
        "grep -c Action logs.txt",
        'python3 -c \'open("p.txt","w")\'',
        "echo x > notes.txt",
      ]);
      expect(run.end.reason).toBe("max-actions");
      expect(outputs[0]).toStartWith("exit status 0\n");
      expect(outputs[1]).toStartWith("refused (--tools read): grep is not allowed at this tool level");
      expect(outputs[2]).toStartWith("refused (--tools read): python3 is not allowed");
      expect(outputs[3]).toStartWith("refused (--tools read): writing to notes.txt is not allowed");
      expect(existsSync(join(ws, "notes.txt"))).toBe(false);
      expect(existsSync(join(ws, "p.txt"))).toBe(false);
      // The instructions say the arm's rung instead of the full tool set.
      expect(system).toContain(
        "your tools\nare limited to reading files and listing directories; no file may be created or changed except actions.json.",
      );
      expect(readFileSync(join(ws, "AGENTS.md"), "utf8")).toContain("are limited to reading files and listing directories");
      // The level is in the run's settings (and so in its arm fingerprint).
      expect(JSON.parse(readFileSync(join(run.session.paths.dir, "run.json"), "utf8")).tools).toBe("read");
      const card = JSON.parse(readFileSync(run.session.paths.scorecard, "utf8")) as { settings: Record<string, unknown> };
      expect(card.settings["tools"]).toBe("read");
    },
    60_000,
  );

  test.skipIf(!HAVE_BWRAP)(
    "read,grep: grep runs; python is refused",
    async () => {
      const { outputs } = await oneTurn("read,grep", ["grep -c '^Action ' logs.txt", "python3 -V"]);
      expect(outputs[0]).toBe("exit status 0\n1");
      expect(outputs[1]).toStartWith("refused (--tools read,grep): python3 is not allowed");
    },
    60_000,
  );

  test.skipIf(!HAVE_PYTHON || !HAVE_BWRAP)(
    "read,grep,python (python3 installed): python runs and may write; awk is refused",
    async () => {
      const { outputs, ws } = await oneTurn("read,grep,python", [
        'python3 -c \'open("notes.txt","w").write("n"); print(2+2)\'',
        "awk 'BEGIN{print 1}'",
      ]);
      expect(outputs[0]).toBe("exit status 0\n4");
      expect(readFileSync(join(ws, "notes.txt"), "utf8")).toBe("n");
      expect(outputs[1]).toStartWith("refused (--tools read,grep,python): awk is not allowed");
    },
    60_000,
  );

  test("all: any command runs", async () => {
    const { outputs } = await oneTurn("all", ["awk 'BEGIN{print 1+1}'"]);
    expect(outputs[0]).toBe("exit status 0\n2");
  }, 60_000);

  test.skipIf(!HAVE_BWRAP || !HAVE_PYTHON)(
    "--no-write under bwrap (bwrap and python3 installed): python cannot write the workspace, actions.json still can be",
    async () => {
      const { run, outputs, ws } = await oneTurn(
        "read,grep,python",
        [
          'python3 -c \'open("notes.txt","w").write("n")\'',
          "rm logs.txt",
          'python3 -c \'import json; json.dump({"actions": ["ACTION4"]}, open("actions.json", "w"))\'',
        ],
        { noWrite: true },
      );
      expect(outputs[0]).toContain("Read-only file system");
      expect(outputs[1]).toStartWith("refused (--tools read,grep,python --no-write): rm is not allowed");
      expect(existsSync(join(ws, "notes.txt"))).toBe(false);
      // The python write of actions.json ended the turn: three replies, no fourth request (the scripted echo unused).
      expect(outputs.length).toBe(2);
      expect(run.end.reason).toBe("max-actions");
      const replies = readEventsFile(run.session.paths.events).filter((e) => e.kind === "agent-reply") as unknown as {
        actions: number;
      }[];
      expect(replies[0]!.actions).toBe(1);
    },
    60_000,
  );

  test("--no-write without a sandbox is refused before the run, at every level", async () => {
    for (const tools of ["read", "read,grep,python", "all"] as const) {
      const config = newConfig({
        game: "glide",
        agent: "mini",
        model: "m",
        tools,
        noWrite: true,
        sandbox: "none",
      })._unsafeUnwrap();
      const e = (await withEnv(KEY, () => startRun(config, { runsRoot: tempRoot(), stamp: "t" })))._unsafeUnwrapErr();
      expect(e.message).toContain(`--tools ${tools} --no-write needs bubblewrap`);
      expect(e.fix).toContain("--sandbox bwrap");
    }
  });
});

describe("the ablation settings in the arm", () => {
  test("--tools, --no-write, --context-limit, --model and --base-url change the fingerprint; the key's variable name does not", () => {
    const base = { game: "glide", agent: "mini" as const, model: "m", baseUrl: "http://127.0.0.1:8080/v1" };
    const print = (extra: Record<string, unknown>) =>
      armFingerprint(armSettingsOf(newConfig({ ...base, ...extra })._unsafeUnwrap()));
    const prints = [
      {},
      { tools: "read" },
      { tools: "read,grep" },
      { noWrite: true },
      { contextLimit: 64_000 },
      { model: "other" },
      { baseUrl: "http://127.0.0.1:8000/v1" },
      { toolFormat: "text" },
      { stepLimit: 5 },
    ].map(print);
    expect(new Set(prints).size).toBe(prints.length);
    expect(print({ apiKeyEnv: "OTHER_KEY" })).toBe(print({}));
    const name = derivedArmName(newConfig({ ...base, tools: "read,grep", noWrite: true, contextLimit: 64_000 })._unsafeUnwrap());
    expect(name).toContain("--tools read,grep");
    expect(name).toContain("--no-write");
    expect(name).toContain("--context-limit 64000");
  });
});
