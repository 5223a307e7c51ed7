// The classification rules, pinned on the calls the real Claude Code and Codex CLIs made here (the recorded
// fixtures): each call's class and the rule that decided it, every rule used by some real call, and the
// edges a rule exists for.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ClaudeSteps } from "../../src/agent/claude-steps.ts";
import { jsonLine } from "../../src/agent/cli-process.ts";
import { CodexSteps } from "../../src/agent/codex-steps.ts";
import { toolStep, type StepReport, type ToolCall } from "../../src/run-files/trajectory.ts";
import { classifyCall, TOOL_CLASS_RULES } from "../../src/score/tool-classes.ts";

const FIXTURES = join(import.meta.dir, "../fixtures/trajectory");

function stepsOf(file: string, parser: { add(m: Record<string, unknown>): void; steps(): StepReport[] }): ToolCall[] {
  for (const line of readFileSync(join(FIXTURES, file), "utf8").split("\n")) {
    const m = jsonLine(line);
    if (m) parser.add(m);
  }
  return parser.steps().filter((s): s is ToolCall => s.kind === "tool");
}

const claude = stepsOf("claude-stream.jsonl", new ClaudeSteps(() => 0));
const codex = stepsOf("codex-exec.jsonl", new CodexSteps(() => 0));

/** The shell commands of both recordings, in order, with the class and rule each must get. */
const SHELL: [string, string, string][] = [
  ["tail -n 40 logs.txt", "read-log", "shell-reads-log"],
  ["grep -n 'LEVEL' logs.txt | tail -5", "search-log", "shell-searches"],
  ["rg -c '^Action' logs.txt", "search-log", "shell-searches"],
  ["python3 - <<'EOF'", "code", "shell-runs-code"],
  ["awk '/^Action/{n++} END{print n}' logs.txt", "code", "shell-runs-code"],
  ["sed -n '1,30p' logs.txt", "read-log", "shell-reads-log"],
  ["head -c 2000 logs.txt", "read-log", "shell-reads-log"],
  ["wc -l logs.txt", "read-log", "shell-reads-log"],
  ["cat > notes.md <<'EOF'", "workspace", "shell-files"],
  [`mkdir -p tools && printf 'print(open("logs.txt").read().count("Action"))\\n' > tools/count.py`, "workspace", "shell-files"],
  ["python3 tools/count.py", "code", "shell-runs-code"],
  ["ls -la", "workspace", "shell-files"],
  ["cat AGENTS.md | head -20", "workspace", "shell-files"],
  ["cat logs.txt | grep -c LEVEL", "search-log", "shell-searches"],
  ["exit 3", "other", "fallback"],
  [
    `python3 -c "import json; json.dump({'actions': ['ACTION2']}, open('actions.json', 'w'))"`,
    "action-file",
    "shell-writes-actions",
  ],
  [`echo '{"actions": ["ACTION1"]}' > actions.json`, "action-file", "shell-writes-actions"],
];

describe("tool-call classes on the real CLIs' calls", () => {
  test("Claude Code: every Bash command, and Read, Grep, Glob, Write, Edit", () => {
    const got = claude.map((c) => [
      c.tool,
      c.input.text.split("\n")[0]!.slice(0, 60),
      classifyCall(c).class,
      classifyCall(c).rule,
    ]);
    const shell = SHELL.map(([cmd, cls, rule]) => ["Bash", cmd.slice(0, 60), cls, rule]);
    expect(got).toEqual([
      ...shell,
      ["Read", "/tmp/run/workspace/logs.txt", "read-log", "read-tool-log"],
      ["Grep", "LEVEL \\d", "search-log", "search-tool"],
      ["Glob", "*.md", "workspace", "file-tools"],
      ["Write", "/tmp/run/workspace/board.txt", "workspace", "file-tools"],
      ["Edit", "/tmp/run/workspace/notes.md", "workspace", "file-tools"],
      ["Read", "/tmp/run/workspace/notes.md", "workspace", "file-tools"],
      ["Write", "/tmp/run/workspace/actions.json", "action-file", "write-actions-file"],
    ]);
  });

  test("Codex: the same commands through exec_command, unwrapped from its bash -lc", () => {
    const got = codex.map((c) => [
      c.tool,
      c.input.text.split("\n")[0]!.slice(0, 60),
      classifyCall(c).class,
      classifyCall(c).rule,
    ]);
    expect(got).toEqual(SHELL.map(([cmd, cls, rule]) => ["exec_command", cmd.slice(0, 60), cls, rule]));
  });

  test("every rule but the MCP arm's is used by a real call", () => {
    const used = new Set([...claude, ...codex].map((c) => classifyCall(c).rule));
    const unused = TOOL_CLASS_RULES.map((r) => r.id).filter((id) => !used.has(id) && id !== "observe-tool");
    expect(unused).toEqual([]);
  });

  test("docs/trajectory.md lists every rule, in the order they are tried", () => {
    const doc = readFileSync(join(import.meta.dir, "../../docs/trajectory.md"), "utf8");
    const listed = [...doc.matchAll(/^\| `([a-z-]+)` \| [a-z-]+ \|/gm)].map((m) => m[1]);
    expect(listed).toEqual([...TOOL_CLASS_RULES.map((r) => r.id), "fallback"]);
  });

  test("edges: a write to actions.json wins over what else the command does; the log read by a viewer after a pipe", () => {
    const shell = (input: string) => classifyCall(toolStep({ tool: "Bash", act: "shell", input, output: "" }) as ToolCall).class;
    expect(shell(`grep -c x logs.txt && echo '{"actions":["ACTION1"]}' > ./actions.json`)).toBe("action-file");
    expect(shell("cp plan.json actions.json")).toBe("action-file");
    expect(shell("cat actions.json")).toBe("workspace");
    expect(shell("tail -c 5000 logs.txt | head -50")).toBe("read-log");
    expect(shell("cd /w && tail logs.txt")).toBe("read-log");
    expect(shell("./analyse.sh")).toBe("code");
    expect(shell("bash tools/scan.sh logs.txt")).toBe("code");
    expect(shell("python3 -c 'print(1)' | grep 1")).toBe("code");
    expect(shell("true")).toBe("other");
    const observe = toolStep({ tool: "mcp__prolong__observe", act: "observe", input: "{}", output: "board" }) as ToolCall;
    expect(classifyCall(observe)).toEqual({ class: "observe", rule: "observe-tool" });
  });
});
