// The turn loop end to end, in-process, with scripted command agents (real shell processes) and the explorer.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parseLog } from "../../src/log/format.ts";
import { headers, playGame, readEventsFile } from "./helpers.ts";

const SEP = "=".repeat(80);
/** The loop's claims do not depend on the agent's sandbox (its own tests do): unsandboxed, a turn is a shell started. */
const SANDBOX = "none";
const plan = "printf 'Briefing: the board has a player.\\n[PLAN]\\nGo up, then down, then left.'";
const threeMoves = `printf '{"actions":["ACTION1","ACTION2","ACTION3"]}' > actions.json; ${plan}`;

describe("the loop with a scripted command agent", () => {
  test("writes one section per action, plan steps and [PLAN] text as in the paper, and stops at the budget", async () => {
    const run = await playGame({ game: "glide", agent: "command", sandbox: SANDBOX, cmd: threeMoves, maxActions: 7 });
    expect(run.end.reason).toBe("max-actions");
    const parsed = parseLog(run.master);
    expect(parsed.cut).toBeUndefined();
    expect(parsed.sections.length).toBe(8);
    expect(parsed.sections[0]!.header.kind).toBe("initial");
    const hs = headers(run.master);
    expect(hs[0]).toBe("Action 0 | Level 1 | Attempt 1 | INITIAL STATE | Score: 0");
    expect(hs[1]).toMatch(/^Action 1 \| Level 1 \| Attempt 1 \| Plan Step 1\/3 \| Score: 0$/);
    expect(hs[3]).toMatch(/^Action 3 \| .*Plan Step 3\/3/);
    expect(hs[7]).toMatch(/^Action 7 \| /);
    const a1 = parsed.sections[1]!;
    expect(a1.toolCall).toEqual({ id: 1 });
    expect(a1.plan).toBe("Briefing: the board has a player.\n[PLAN]\nGo up, then down, then left.");
    expect(parsed.sections[2]!.plan).toBe("Go up, then down, then left.");
    expect(parsed.sections[3]!.toolCall).toEqual({ id: 3 });
    // The agent's own "[PLAN]" line is escaped so that it cannot be read as the harness's marker.
    expect(run.master).toContain("[PLAN]\nBriefing: the board has a player.\n [PLAN]\nGo up");
    expect(run.summary.actions).toBe(7);
    expect(run.summary.agentCalls).toBe(3);
    // The copy is verified and synced before each call: at the end it is a byte-prefix of the master.
    const copy = readFileSync(run.session.paths.copy, "utf8");
    expect(run.master.startsWith(copy)).toBe(true);
    expect(copy.split(SEP).length - 1).toBe(7); // synced before the third call: initial + 6 actions
  });

  test("the published defect: 32 bytes written into the copy between syncs cost no log byte", async () => {
    const cmd = `printf '%032d' 7 >> logs.txt; printf '{"actions":["ACTION4"]}' > actions.json; echo ok`;
    const run = await playGame({ game: "glide", agent: "command", sandbox: SANDBOX, cmd, maxActions: 4 });
    const tampers = run.events.filter((e) => e.kind === "tamper");
    expect(tampers.length).toBe(3); // turns 2..4 find the 32 bytes of the turn before
    for (const t of tampers) expect((t as { tamper: string }).tamper).toBe("appended");
    expect(run.summary.tamperEvents).toBe(3);
    expect(run.master).not.toContain("0".repeat(31) + "7");
    // After the repair the copy is exactly the master up to the last sync, plus the agent's fresh 32 bytes.
    const copy = readFileSync(run.session.paths.copy, "utf8");
    expect(copy.endsWith("0".repeat(31) + "7")).toBe(true);
    const synced = copy.slice(0, -32);
    expect(run.master.startsWith(synced)).toBe(true);
    expect(synced.split(SEP).length - 1).toBe(4);
  });

  test("entries beyond the cap are discarded and invalid ones dropped, each with a warning", async () => {
    const many = JSON.stringify({ actions: ["ACTION9", ...Array(24).fill("ACTION2")] });
    const run = await playGame({
      game: "glide",
      agent: "command",
      sandbox: SANDBOX,
      cmd: `printf '%s' '${many}' > actions.json`,
      maxActions: 19,
      actionCap: 20,
    });
    const warnings = run.events.filter((e) => e.kind === "warning").map((e) => (e as { message: string }).message);
    expect(warnings.some((w) => w.includes("5 action(s) beyond the cap of 20 discarded"))).toBe(true);
    expect(warnings.some((w) => w.includes("'ACTION9'"))).toBe(true);
    expect(run.summary.actions).toBe(19);
  });

  test("an agent that leaves no actions.json is asked again, then the run ends with the reason", async () => {
    const run = await playGame({ game: "glide", agent: "command", sandbox: SANDBOX, cmd: "echo thinking", agentRetries: 2 });
    expect(run.end.reason).toBe("agent-failed");
    expect(run.end.detail).toContain("3 agent call(s) in a row failed");
    expect(run.end.detail).toContain("no actions.json");
    expect(run.summary.agentCalls).toBe(3);
    expect(headers(run.master)).toEqual(["Action 0 | Level 1 | Attempt 1 | INITIAL STATE | Score: 0"]);
  });

  test("a crashing agent and malformed JSON are retried, bounded", async () => {
    const run = await playGame({
      game: "glide",
      agent: "command",
      sandbox: SANDBOX,
      cmd: "echo '{nope' > actions.json; exit 3",
      agentRetries: 1,
    });
    expect(run.end.reason).toBe("agent-failed");
    expect(run.end.detail).toContain("exited with status 3");
    const run2 = await playGame({
      game: "glide",
      agent: "command",
      sandbox: SANDBOX,
      cmd: "echo '{nope' > actions.json",
      agentRetries: 1,
    });
    expect(run2.end.detail).toContain("not valid JSON");
  });

  test("the run-start event says how the agent was confined", async () => {
    const run = await playGame({
      game: "glide",
      agent: "command",
      cmd: `printf '{"actions":[],"stop":true}' > actions.json`,
      sandbox: "none",
    });
    expect(run.events[0]).toMatchObject({ kind: "run-start", agent: "command", sandbox: "none" });
    const explorer = await playGame({ game: "glide", maxActions: 2 });
    expect(explorer.events[0]!.kind).toBe("run-start");
    expect("sandbox" in explorer.events[0]!).toBe(false);
  });

  test("stop: true ends the run as the agent's choice", async () => {
    const run = await playGame({
      game: "glide",
      agent: "command",
      sandbox: SANDBOX,
      cmd: `printf '{"actions":[],"stop":true}' > actions.json`,
    });
    expect(run.end.reason).toBe("agent-stopped");
  });
});

describe("memory arms: what the agent sees", () => {
  const snapshot = `cp logs.txt seen-$PROLONG_TURN.txt 2>/dev/null; printf '%s' "$PROLONG_PROMPT" > prompt-$PROLONG_TURN.txt; printf '{"actions":["ACTION4","ACTION3"]}' > actions.json`;

  test("--log-window 1: the header section and the newest action section", async () => {
    const run = await playGame({ game: "glide", agent: "command", sandbox: SANDBOX, cmd: snapshot, maxActions: 6, logWindow: 1 });
    const seen = readFileSync(join(run.session.paths.workspace, "seen-3.txt"), "utf8");
    const hs = headers(seen);
    expect(hs.length).toBe(2);
    expect(hs[0]).toContain("INITIAL STATE");
    expect(hs[1]).toMatch(/^Action 4 \|/);
  });

  test("--log-window -1: no log file; the board is in the prompt", async () => {
    const run = await playGame({
      game: "glide",
      agent: "command",
      sandbox: SANDBOX,
      cmd: snapshot,
      maxActions: 4,
      logWindow: -1,
    });
    const ws = run.session.paths.workspace;
    expect(existsSync(join(ws, "seen-1.txt"))).toBe(false);
    expect(existsSync(join(ws, "logs.txt"))).toBe(false);
    const prompt = readFileSync(join(ws, "prompt-2.txt"), "utf8");
    expect(prompt).toContain("[CURRENT BOARD STATE]");
    expect(prompt).toContain("Action: 2");
    expect(prompt.split("\n").filter((l) => l.length === 64).length).toBe(64);
  });

  test("--workspace stateless: files are wiped each turn, plans go to plans.txt, not the log", async () => {
    const cmd = `ls > listing-$PROLONG_TURN.txt; touch junk-$PROLONG_TURN; printf '{"actions":["ACTION1"]}' > actions.json; ${plan}`;
    const run = await playGame({ game: "glide", agent: "command", sandbox: SANDBOX, cmd, maxActions: 3, workspace: "stateless" });
    const ws = run.session.paths.workspace;
    const listing = readFileSync(join(ws, "listing-3.txt"), "utf8")
      .split("\n")
      .filter((f) => f && !f.startsWith("listing-"));
    expect(listing.sort()).toEqual(["AGENTS.md", "CLAUDE.md", "logs.txt", "plans.txt"]);
    expect(run.master).not.toContain("[PLAN]");
    const plans = readFileSync(join(ws, "plans.txt"), "utf8");
    expect(plans.match(/Go up, then down, then left\./g)?.length).toBe(3);
    expect(plans).not.toContain("Briefing");
  });

  test("--workspace stateless: plans.txt is written by the harness only; the agent's own entry is undone and recorded", async () => {
    // At turn 2 the agent appends a forged entry to plans.txt itself; at turn 3 it copies what it finds.
    const cmd = `if [ "$PROLONG_TURN" = 2 ]; then echo '--- turn 99: I already solved this level' >> plans.txt; fi; cp plans.txt seen-$PROLONG_TURN.txt; printf '{"actions":["ACTION1"]}' > actions.json; ${plan}`;
    const run = await playGame({ game: "glide", agent: "command", sandbox: SANDBOX, cmd, maxActions: 3, workspace: "stateless" });
    const seen = readFileSync(join(run.session.paths.workspace, "seen-3.txt"), "utf8");
    expect(seen).not.toContain("turn 99");
    expect(seen.match(/^--- turn \d+ \(from action \d+\)$/gm)?.length).toBe(2);
    const tampers = readEventsFile(run.session.paths.events).filter((e) => e.kind === "tamper") as unknown as {
      file: string;
      tamper: string;
    }[];
    expect(tampers.map((t) => [t.file, t.tamper])).toEqual([["plans.txt", "edited"]]);
  });

  test("--episodes 2: two episodes in one log, each marked by an INITIAL STATE section", async () => {
    const run = await playGame({
      game: "glide",
      agent: "command",
      sandbox: SANDBOX,
      cmd: threeMoves,
      maxActions: 3,
      episodes: 2,
    });
    const hs = headers(run.master);
    expect(hs.filter((h) => h.includes("INITIAL STATE")).length).toBe(2);
    expect(hs[4]).toBe("Action 3 | Level 1 | Attempt 1 | INITIAL STATE | Score: 0");
    expect(hs[5]).toMatch(/^Action 4 \| Level 1 \| Attempt 1 \| Plan Step 1\/3/);
    expect(run.summary.episodes.length).toBe(2);
    expect(run.summary.actions).toBe(6);
  });
});

describe("the built-in explorer through the loop", () => {
  test("clears levels of a committed game offline, and its workspace holds only text files", async () => {
    // 40 actions clear two of glide's levels (the explorer's per-game figures are pinned in test/agent/explorer).
    const run = await playGame({ game: "glide", maxActions: 40 });
    expect(run.summary.levelsCompleted).toBeGreaterThan(0);
    expect(run.summary.rhae).toBeGreaterThan(0);
    const files = readdirSync(run.session.paths.workspace).sort();
    expect(files).not.toContain("index.sqlite");
    expect(files).toContain("logs.txt");
  });
});
