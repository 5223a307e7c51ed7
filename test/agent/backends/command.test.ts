// The command backend and the shared process code: a small shell agent that reads logs.txt with grep plays
// several turns; a hung agent's whole process group is killed at the timeout; CLIs are found in
// node_modules/.bin before PATH, and a missing one names its npm package.
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findCli, runInGroup } from "../../../src/agent/cli-process.ts";
import { createAgent } from "../../../src/agent/create.ts";
import { parseLog } from "../../../src/log/format.ts";
import { newConfig } from "../../../src/config/run-config.ts";
import { HAVE_BWRAP, play, readEventsFile, tempRoot } from "./helpers.ts";

/** Moves right while the number of sections is odd, down otherwise; says what it saw and why. */
const SHELL_AGENT = [
  `n=$(grep -c '^Action ' logs.txt)`,
  `last=$(grep '^Action ' logs.txt | tail -1)`,
  `if [ $((n % 2)) -eq 1 ]; then a=ACTION4; else a=ACTION2; fi`,
  `printf '{"actions":["%s"]}' "$a" > actions.json`,
  `printf 'I see %s sections; the last is: %s\\n[PLAN]\\n%s next.' "$n" "$last" "$a"`,
].join("; ");

describe("the command backend", () => {
  test("a shell agent that greps logs.txt plays four turns; every turn is recorded with its prompt, answer and status", async () => {
    const run = await play({
      game: "glide",
      agent: "command",
      cmd: SHELL_AGENT,
      maxActions: 4,
      sandbox: HAVE_BWRAP ? "bwrap" : "none",
    });
    expect(run.end.reason).toBe("max-actions");
    const log = parseLog(run.master);
    expect(log.sections.map((s) => s.toolCall?.id ?? null)).toEqual([null, 4, 2, 4, 2]);
    expect(log.sections[1]!.plan).toBe(
      "I see 1 sections; the last is: Action 0 | Level 1 | Attempt 1 | INITIAL STATE | Score: 0\n[PLAN]\nACTION4 next.",
    );
    expect(log.sections[4]!.plan).toBe(
      "I see 4 sections; the last is: Action 3 | Level 2 | Attempt 1 | Plan Step 1/1 | Score: 1\n[PLAN]\nACTION2 next.",
    );

    const events = readEventsFile(run.session.paths.events);
    const calls = events.filter((e) => e.kind === "agent-call") as unknown as { turn: number; prompt: string }[];
    const replies = events.filter((e) => e.kind === "agent-reply") as unknown as {
      turn: number;
      text: string;
      exitCode: number;
      toolCalls: number;
      tokens: unknown;
      ms: number;
    }[];
    expect(calls.map((c) => c.turn)).toEqual([1, 2, 3, 4]);
    expect(calls[0]!.prompt).toContain("A new game has started");
    expect(calls[3]!.prompt).toContain("Now: action 3");
    expect(replies.map((r) => r.exitCode)).toEqual([0, 0, 0, 0]);
    expect(replies[2]!.text).toEndWith("[PLAN]\nACTION4 next.");
    expect(replies[0]!.tokens).toEqual({ input: 0, cached: 0, output: 0 });
    expect(replies.every((r) => r.ms >= 0)).toBe(true);
  });

  test("a hung agent: its whole process group (background children too) is killed, the call retried, the run ends with the reason", async () => {
    const root = tempRoot();
    const pids = join(root, "pids.txt");
    // The agent starts a background sleeper, records both pids outside the workspace (no sandbox here), then hangs.
    const cmd = `sleep 300 & echo $! >> '${pids}'; echo $$ >> '${pids}'; sleep 300`;
    const run = await play(
      { game: "glide", agent: "command", cmd, maxActions: 3, agentTimeoutSec: 1, agentRetries: 1, sandbox: "none" },
      { root },
    );
    expect(run.end.reason).toBe("agent-failed");
    expect(run.end.detail).toContain("2 agent call(s) in a row failed");
    expect(run.end.detail).toContain("did not finish within 1s");
    const timeouts = readEventsFile(run.session.paths.events).filter(
      (e) => e.kind === "warning" && (e as { code?: string }).code === "agent-timeout",
    );
    expect(timeouts.length).toBe(2);
    const started = readFileSync(pids, "utf8").trim().split("\n").map(Number);
    expect(started.length).toBe(4);
    // No wait here: a turn returns only once every process it killed is gone (turn-processes.ts waits for the
    // kernel to finish each SIGKILL), so they must be dead the moment the run has ended.
    for (const pid of started) expect(alive(pid)).toBe(false);
  }, 30_000);

  test("runInGroup: stdin text, /dev/null, exit status, lines as they come, a program that cannot start", async () => {
    const lines: string[] = [];
    const r = await runInGroup({
      argv: ["sh", "-c", "cat; printf 'a\\nb'; exit 3"],
      cwd: tempRoot(),
      env: process.env,
      stdin: "in\n",
      timeoutSec: 10,
      onStdoutLine: (l) => lines.push(l),
    });
    expect(r.exitCode).toBe(3);
    expect(lines).toEqual(["in", "a", "b"]);
    const empty = await runInGroup({
      argv: ["sh", "-c", "wc -c"],
      cwd: tempRoot(),
      env: process.env,
      stdin: null,
      timeoutSec: 10,
    });
    expect(empty.stdoutTail.trim()).toBe("0");
    const missing = await runInGroup({
      argv: ["/nonexistent/agent"],
      cwd: tempRoot(),
      env: process.env,
      stdin: null,
      timeoutSec: 10,
    });
    expect(missing.exitCode).toBe(127);
    expect(missing.spawnError).toContain("ENOENT");
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie still answers signal 0; it is dead for our purposes.
  const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, "utf8") : "";
  return !/^\d+ \(.*\) Z/.test(stat);
}

describe("finding a coding CLI", () => {
  test("node_modules/.bin first, then PATH; none → null", () => {
    const root = tempRoot();
    const local = join(root, "node_modules/.bin");
    const onPath = join(root, "bin");
    for (const d of [local, onPath]) {
      mkdirSync(d, { recursive: true });
      writeFileSync(join(d, "claude"), "#!/bin/sh\n");
      chmodSync(join(d, "claude"), 0o755);
    }
    expect(findCli("claude", { dirs: [local], path: onPath })).toBe(join(local, "claude"));
    expect(findCli("claude", { dirs: [join(root, "nothing")], path: `/nonexistent:${onPath}` })).toBe(join(onPath, "claude"));
    expect(findCli("claude", { dirs: [], path: "/nonexistent" })).toBeNull();
  });

  test("--agent claude or codex with the CLI nowhere: an error naming the npm package", () => {
    for (const [agent, pkg] of [
      ["claude", "@anthropic-ai/claude-code"],
      ["codex", "@openai/codex"],
    ] as const) {
      const e = createAgent(newConfig({ game: "glide", agent, sandbox: "none" })._unsafeUnwrap(), () => null)._unsafeUnwrapErr();
      expect(e.code).toBe("cli-missing");
      expect(e.message).toBe(`the ${agent} CLI was found neither in ./node_modules/.bin nor on PATH`);
      expect(e.fix).toContain(`npm install ${pkg}`);
    }
    const found = createAgent(newConfig({ game: "glide", agent: "codex", sandbox: "none" })._unsafeUnwrap(), () => "/opt/codex");
    expect(found._unsafeUnwrap().name).toBe("codex");
  });
});
