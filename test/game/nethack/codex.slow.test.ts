// A Codex turn that plays NetHack: the REAL `codex` CLI against the scripted local model server (Responses
// API) in a real NetHack run. The model greps the log's [STATUS] line, writes NetHack action names into
// actions.json, and the harness plays them on the real game. Skips, saying why, when codex or NetHack is absent.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { parseHeader } from "../../../src/log/format.ts";
import { parseNethackSection } from "../../../src/game/nethack/section.ts";
import { startModelServer, type ScriptedTurn } from "../../support/model-server.ts";
import { codexEnv, conversation, HAVE_BWRAP, play, realCli, scripted, withEnv } from "../../agent/backends/helpers.ts";
import { NO_NETHACK } from "./helpers.ts";

const codex = realCli("codex", "@openai/codex");
const CALL_TIMEOUT_SEC = 60;
const USAGE = { input: 100, cached: 40, output: 7 };
const ACTIONS = ["search", "Far_West", "not-an-action", "wait"];

const SCRIPT: ScriptedTurn[] = [
  { usage: USAGE, tools: [{ name: "exec_command", input: { cmd: "grep '^\\[STATUS\\]' logs.txt | tail -1" } }] },
  {
    usage: USAGE,
    tools: [{ name: "exec_command", input: { cmd: `printf '%s' '${JSON.stringify({ actions: ACTIONS })}' > actions.json` } }],
  },
  { usage: USAGE, text: "I stand on Dlvl 1 at full HP.\n[PLAN]\nSearch, run west, rest." },
];

const SKIP = !codex || NO_NETHACK;

describe.skipIf(SKIP)(`a Codex turn plays NetHack${SKIP ? " (skipped: codex or NetHack not installed)" : ""}`, () => {
  test(
    "the model reads [STATUS] from logs.txt and its NetHack actions run on the real game; an unknown name is dropped",
    async () => {
      const server = startModelServer(SCRIPT);
      try {
        const run = await withEnv(codexEnv(server), () =>
          play({
            game: "nethack",
            env: "nethack",
            agent: "codex",
            maxActions: 3,
            agentTimeoutSec: CALL_TIMEOUT_SEC,
            agentRetries: 0,
            sandbox: HAVE_BWRAP ? "bwrap" : "none",
            effort: "low",
          }),
        );
        if (run.end.reason !== "max-actions") console.log(run.end, readFileSync(run.session.paths.events, "utf8").slice(-3000));
        expect(run.end.reason).toBe("max-actions");
        expect(server.remaining()).toBe(0);
        const sections = run.master.split(/(?=^={80}$)/m).map((t) => parseNethackSection(t, parseHeader));
        for (const s of sections) expect(typeof s).not.toBe("string");
        const played = sections.flatMap((s) => (typeof s === "string" || s.action === undefined ? [] : [s.action]));
        // "Far_West" is written by its name; the unknown entry is dropped; the budget of 3 ends the batch.
        expect(played).toEqual(["search", "far west", "wait"].slice(0, played.length));
        expect(played.length).toBeGreaterThanOrEqual(1);
        const first = sections[1]!;
        if (typeof first !== "string") expect(first.plan).toBe("I stand on Dlvl 1 at full HP.\n[PLAN]\nSearch, run west, rest.");
        // The model saw the status line it grepped for, and the instructions name the NetHack actions.
        const reqs = scripted(server.requests);
        expect(conversation(reqs[1]!)).toContain("[STATUS] Dlvl:1 | $:0 | HP:");
        expect(conversation(reqs[0]!)).toContain("far northeast");
      } finally {
        server.stop();
      }
    },
    3 * CALL_TIMEOUT_SEC * 1000,
  );
});
