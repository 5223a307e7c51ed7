// What the backends' parsers read from the real CLIs' output (the recorded fixtures) into trajectory steps:
// the order of model steps and tool calls, output sizes, exit statuses, error flags, tokens; Codex's
// command unwrapped from its shell wrapper.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ClaudeSteps } from "../../../src/agent/claude-steps.ts";
import { jsonLine } from "../../../src/agent/cli-process.ts";
import { CodexSteps, innerCommand, shellWord } from "../../../src/agent/codex-steps.ts";
import type { StepReport } from "../../../src/run-files/trajectory.ts";

const FIXTURES = join(import.meta.dir, "../../fixtures/trajectory");

function parse(file: string, parser: { add(m: Record<string, unknown>): void; steps(): StepReport[] }): StepReport[] {
  for (const line of readFileSync(join(FIXTURES, file), "utf8").split("\n")) {
    const m = jsonLine(line);
    if (m) parser.add(m);
  }
  return parser.steps();
}

describe("Claude Code's stream-json as steps", () => {
  const steps = parse("claude-stream.jsonl", new ClaudeSteps(() => 0));
  test("each assistant message is a model step with its tokens, followed by its tool call; the last one carries the text", () => {
    expect(steps.length).toBe(2 * 24 + 1);
    expect(steps.filter((s) => s.kind === "model").length).toBe(25);
    expect(steps[0]).toEqual({ kind: "model", tokens: { input: 10, cached: 0, output: 0 } });
    const last = steps.at(-1)!;
    expect(last.kind === "model" && last.text?.text).toBe("Briefing: counted the sections.\n[PLAN]\nMove ACTION3.");
  });

  test("a Bash call: its command, output bytes and lines, exit 0; a failed one: the exit status from 'Exit code N'", () => {
    const tail = steps[1]!;
    expect(tail).toMatchObject({ kind: "tool", tool: "Bash", act: "shell", input: { text: "tail -n 40 logs.txt" }, exit: 0 });
    expect(tail.kind === "tool" && tail.output.lines).toBe(40);
    const failed = steps.find((s) => s.kind === "tool" && s.input.text === "exit 3");
    expect(failed).toMatchObject({ exit: 3, error: true, output: { head: { text: "Exit code 3" } } });
  });

  test("file tools: the file as input and path, no exit status; Read's output is what the model saw", () => {
    const read = steps.find((s) => s.kind === "tool" && s.tool === "Read");
    expect(read).toMatchObject({ act: "read", path: "/tmp/run/workspace/logs.txt", exit: null, output: { lines: 20 } });
    const grep = steps.find((s) => s.kind === "tool" && s.tool === "Grep");
    expect(grep).toMatchObject({ act: "search", input: { text: "LEVEL \\d" }, path: "logs.txt" });
  });
});

describe("Codex's exec --json as steps", () => {
  const steps = parse("codex-exec.jsonl", new CodexSteps(() => 0));
  test("each command is a tool call with its real output size and exit status; the answer is a model step", () => {
    expect(steps.length).toBe(18);
    expect(steps[0]).toMatchObject({ tool: "exec_command", input: { text: "tail -n 40 logs.txt" }, exit: 0, ms: 0 });
    expect(steps[0]!.kind === "tool" && steps[0]!.output).toMatchObject({ bytes: 332, lines: 40 });
    expect(steps.find((s) => s.kind === "tool" && s.input.text === "exit 3")).toMatchObject({ exit: 3, error: true });
    expect(steps.at(-1)).toEqual({ kind: "model", text: { text: "Briefing: counted.\n[PLAN]\nMove ACTION1." } });
  });

  test("the command is taken out of /bin/bash -lc '...' whatever its quoting", () => {
    expect(innerCommand(`/bin/bash -lc "grep -c '"'^Action '"' logs.txt"`)).toBe("grep -c '^Action ' logs.txt");
    expect(innerCommand(`/bin/bash -lc 'exit 3'`)).toBe("exit 3");
    expect(innerCommand(`/bin/bash -lc "echo '{\\"a\\":1}' > x"`)).toBe(`echo '{"a":1}' > x`);
    expect(innerCommand("ls -la")).toBe("ls -la");
    expect(shellWord("two words")).toBeNull();
    expect(shellWord("'unclosed")).toBeNull();
  });
});
