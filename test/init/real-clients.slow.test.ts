// With the real Claude Code and Codex CLIs against the scripted local model server: after `prolong init`,
// a session's prompt and tool calls land in .prolong/log.jsonl, and the agent's own search of the log
// does not. Skips (with a printed reason) when a CLI or node is not installed:
//   npm install --no-save @anthropic-ai/claude-code @openai/codex
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { initProject } from "../../src/init/project.ts";
import { startModelServer, type ScriptedTurn } from "../support/model-server.ts";

const CHILD_TIMEOUT_MS = 90_000;

function findCli(name: string): string | null {
  const local = path.resolve(import.meta.dir, "../../node_modules/.bin", name);
  return existsSync(local) ? local : Bun.which(name);
}

const node = Bun.which("node");
const claudeBin = findCli("claude");
const codexBin = findCli("codex");
if (!node) console.log("skipping real-CLI init tests: node is not on PATH");
if (!claudeBin)
  console.log("skipping the Claude Code init test: claude is not installed (npm install --no-save @anthropic-ai/claude-code)");
if (!codexBin) console.log("skipping the Codex init test: codex is not installed (npm install --no-save @openai/codex)");

async function runBounded(
  cmd: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ exitCode: number | null; stdout: string; stderr: string }> {
  const proc = Bun.spawn(cmd, { cwd, env: { ...process.env, ...env }, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => proc.kill("SIGKILL"), CHILD_TIMEOUT_MS);
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  await proc.exited;
  clearTimeout(timer);
  return { exitCode: proc.exitCode, stdout, stderr };
}

interface Row {
  client: string;
  session: string | null;
  type: string;
  content: unknown;
}

function readLog(root: string): Row[] {
  return readFileSync(path.join(root, ".prolong/log.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Row);
}

function freshProject(prefix: string): string {
  const root = mkdtempSync(path.join(tmpdir(), prefix));
  Bun.spawnSync(["git", "init", "-q"], { cwd: root });
  return root;
}

const PROMPT = "write the note, then check what we did before";

describe.skipIf(!node || !claudeBin)("prolong init with the real Claude Code", () => {
  test("the prompt and the tool call land in the log; the log search does not", async () => {
    const root = freshProject("prolong-claude-");
    const home = mkdtempSync(path.join(tmpdir(), "prolong-claude-home-"));
    initProject(root, ["claude"], false)._unsafeUnwrap();
    const script: ScriptedTurn[] = [
      {
        text: "Writing the note.",
        tools: [{ name: "Bash", input: { command: "echo from-claude > note.txt", description: "write the note" } }],
      },
      { tools: [{ name: "Bash", input: { command: "rg -c prompt .prolong/log.jsonl", description: "search the memory" } }] },
      { text: "Note written." },
    ];
    const server = startModelServer(script);
    try {
      const r = await runBounded(
        [
          claudeBin!,
          "-p",
          PROMPT,
          "--output-format",
          "json",
          "--allowedTools",
          "Bash,Read,Write,Edit",
          "--model",
          "claude-sonnet-4-5",
        ],
        root,
        {
          HOME: home,
          ANTHROPIC_BASE_URL: server.url,
          ANTHROPIC_API_KEY: "scripted",
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        },
      );
      expect(r.exitCode).toBe(0);
      const result = JSON.parse(r.stdout) as { session_id: string; result: string };
      expect(result.result).toBe("Note written.");
      expect(server.remaining()).toBe(0);
      expect(readFileSync(path.join(root, "note.txt"), "utf8")).toBe("from-claude\n");

      const rows = readLog(root);
      expect(rows.every((row) => row.client === "claude" && row.session === result.session_id)).toBe(true);
      expect(rows.find((row) => row.type === "prompt")?.content).toBe(PROMPT);
      const tools = rows
        .filter((row) => row.type === "tool_call")
        .map((row) => row.content as { tool: string; input: { command: string } });
      expect(tools.map((t) => [t.tool, t.input.command])).toEqual([["Bash", "echo from-claude > note.txt"]]);
      expect(rows.map((row) => row.type)).toContain("session_start");
    } finally {
      server.stop();
    }
  }, 120_000);
});

describe.skipIf(!node || !codexBin)("prolong init with the real Codex", () => {
  test("the prompt and the tool call land in the log; the log search does not", async () => {
    const root = freshProject("prolong-codex-");
    const codexHome = mkdtempSync(path.join(tmpdir(), "prolong-codex-home-"));
    initProject(root, ["codex"], false)._unsafeUnwrap();
    const script: ScriptedTurn[] = [
      { tools: [{ name: "exec_command", input: { cmd: "echo from-codex > note.txt" } }] },
      { tools: [{ name: "exec_command", input: { cmd: "rg -c prompt .prolong/log.jsonl" } }] },
      { text: "Note written." },
    ];
    const server = startModelServer(script);
    try {
      const r = await runBounded(
        [
          codexBin!,
          "exec",
          "--json",
          "--skip-git-repo-check",
          "--dangerously-bypass-approvals-and-sandbox",
          // A fresh CODEX_HOME knows neither the project nor its hooks: trust both for this run only.
          "--trust",
          "--dangerously-bypass-hook-trust",
          "-c",
          "model=scripted",
          "-c",
          "model_provider=local",
          "-c",
          `model_providers.local={name="local",base_url="${server.url}/v1",wire_api="responses",env_key="LOCAL_KEY"}`,
          "-c",
          "analytics.enabled=false",
          "-c",
          "check_for_update_on_startup=false",
          "--disable",
          "plugins",
          PROMPT,
        ],
        root,
        { CODEX_HOME: codexHome, LOCAL_KEY: "scripted" },
      );
      expect(r.exitCode).toBe(0);
      const thread = JSON.parse(r.stdout.split("\n")[0]!) as { type: string; thread_id: string };
      expect(thread.type).toBe("thread.started");
      expect(server.remaining()).toBe(0);
      expect(readFileSync(path.join(root, "note.txt"), "utf8")).toBe("from-codex\n");

      const rows = readLog(root);
      expect(rows.every((row) => row.client === "codex" && row.session === thread.thread_id)).toBe(true);
      expect(rows.find((row) => row.type === "prompt")?.content).toBe(PROMPT);
      const tools = rows
        .filter((row) => row.type === "tool_call")
        .map((row) => row.content as { tool: string; input: { command: string } });
      expect(tools.map((t) => [t.tool, t.input.command])).toEqual([["Bash", "echo from-codex > note.txt"]]);
      expect(rows.find((row) => row.type === "stop")?.content).toBe("Note written.");
    } finally {
      server.stop();
    }
  }, 120_000);
});
