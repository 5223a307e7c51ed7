// `prolong trace` through the real CLI, on a run directory whose trajectory holds a recorded Claude Code turn
// (the fixture) and a second turn with an escape sequence in its command: the timeline, --json with classes,
// --turns and --tool filters, the error for a directory without a trajectory.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ClaudeSteps } from "../../src/agent/claude-steps.ts";
import { jsonLine } from "../../src/agent/cli-process.ts";
import { appendTurn, toolStep, turnLines } from "../../src/run-files/trajectory.ts";

const MAIN = resolve(import.meta.dir, "../../src/main.ts");
const FIXTURE = resolve(import.meta.dir, "../fixtures/trajectory/claude-stream.jsonl");

function prolong(...args: string[]) {
  const p = Bun.spawnSync([process.execPath, MAIN, ...args], { stdout: "pipe", stderr: "pipe", timeout: 60_000 });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

function runDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "prolong-trace-"));
  const steps = new ClaudeSteps(() => 0);
  for (const line of readFileSync(FIXTURE, "utf8").split("\n")) {
    const m = jsonLine(line);
    if (m) steps.add(m);
  }
  const path = join(dir, "trajectory.jsonl");
  appendTurn(
    path,
    turnLines({ turn: 1, backend: "claude", status: "ok", logBytes: 1500, ms: 9000 }, steps.steps()),
  )._unsafeUnwrap();
  const hostile = toolStep({ tool: "Bash", act: "shell", input: "echo \u001b[2J\u001b]0;owned\u0007 >> notes.md", output: "" });
  appendTurn(path, turnLines({ turn: 2, backend: "claude", status: "ok", logBytes: 3000, ms: 10 }, [hostile]))._unsafeUnwrap();
  return dir;
}

describe("prolong trace", () => {
  const dir = runDir();

  test("the timeline: turns, each call's tool, class, command and size, then the shares and log pulled", () => {
    const r = prolong("trace", dir);
    expect(r.code).toBe(0);
    expect(r.out).toContain("turn 1  claude  9.0 s  log 1,500 B");
    expect(r.out).toMatch(/Bash\s+read-log\s+tail -n 40 logs\.txt\s+exit 0\s+331 B 40 l/);
    expect(r.out).toMatch(/Grep\s+search-log\s+LEVEL \\d/);
    expect(r.out).toContain("25 tool call(s) over 2 turn(s)");
    expect(r.out).toContain(
      "read-log 5 (20%), search-log 4 (16%), code 3 (12%), workspace 9 (36%), action-file 3 (12%), other 1 (4%)",
    );
    // The agent's escape sequences are shown, never sent.
    expect(r.out).not.toContain("\u001b");
    expect(r.out).toContain("echo \\x1b[2J\\x1b]0;owned\\x07 >> notes.md");
  });

  test("--json: one record per line, tool calls with their class and rule; --turns and --tool filter", () => {
    const all = prolong("trace", dir, "--json")
      .out.trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(all.length).toBe(2 + 25 + 25);
    expect(all.find((r) => r.kind === "tool")).toMatchObject({ tool: "Bash", class: "read-log", rule: "shell-reads-log" });
    const second = prolong("trace", dir, "--json", "--turns", "2-")
      .out.trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(second.map((r) => [r.kind, r.turn])).toEqual([
      ["turn", 2],
      ["tool", 2],
    ]);
    const searches = prolong("trace", dir, "--json", "--tool", "search-log")
      .out.trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(searches.filter((r) => r.kind === "tool").map((r) => r.input.text)).toEqual([
      "grep -n 'LEVEL' logs.txt | tail -5",
      "rg -c '^Action' logs.txt",
      "cat logs.txt | grep -c LEVEL",
      "LEVEL \\d",
    ]);
    expect(prolong("trace", dir, "--json", "--tool", "Grep").out.trim().split("\n").length).toBe(2);
  });

  test("errors: no trajectory names the file and the fix; a bad --turns says the forms", () => {
    const empty = mkdtempSync(join(tmpdir(), "prolong-trace-"));
    const r = prolong("trace", empty);
    expect(r.code).toBe(2);
    expect(r.err).toContain("trajectory.jsonl: this directory has no trajectory.jsonl");
    expect(r.err).toContain("fix:");
    expect(prolong("trace", dir, "--turns", "5-2").err).toContain("--turns must be A, A-B, A- or -B");
  });
});
