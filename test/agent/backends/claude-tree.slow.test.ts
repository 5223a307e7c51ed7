// Claude Code's tool levels by mechanism, with the REAL CLI against the scripted model server: under bwrap the
// CLI runs in its level's tree (the CLI itself, a shell and the level's programs, nothing else of the host),
// so what its own tool flags let through still finds nothing outside the level. At --tools read there is no
// python3 and no grep to read or run; at read,grep,python python3 runs, and a program outside the level (sed,
// find) is not there for os.system to start. (On main the CLI saw the host's whole system: both read and ran.)
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { startModelServer } from "../../support/model-server.ts";
import { claudeEnv, HAVE_BWRAP, play, realCli, scripted, withEnv } from "./helpers.ts";

const claude = realCli("claude", "@anthropic-ai/claude-code");
const SKIP = !claude || !HAVE_BWRAP;
const ACT = { name: "Write", input: { file_path: "actions.json", content: JSON.stringify({ actions: ["ACTION4"] }) } };

async function playAt(
  tools: "read" | "read,grep,python",
  script: Parameters<typeof startModelServer>[0],
  extra: { observe?: "mcp" } = {},
) {
  const server = startModelServer([...script, { tools: [ACT] }, { text: "[PLAN]\nMove right." }]);
  try {
    const run = await withEnv(claudeEnv(server), () =>
      play({
        game: "glide",
        agent: "claude",
        tools,
        maxActions: 1,
        agentRetries: 0,
        agentTimeoutSec: 90,
        sandbox: "bwrap",
        ...extra,
      }),
    );
    expect(run.end.reason).toBe("max-actions");
    // What each tool call returned, as the model heard it: the newest message of the request after the call.
    return scripted(server.requests).map((r) => JSON.stringify((r.body["messages"] as unknown[]).at(-1)));
  } finally {
    server.stop();
  }
}

describe.skipIf(SKIP)(
  `Claude Code's levels by mechanism, real CLI${SKIP ? " (skipped: needs the CLI and bubblewrap)" : ""}`,
  () => {
    test("--tools read: python3 and grep are not in its sandbox (a Read of either finds no file); a Bash call is refused", async () => {
      const heard = await playAt("read", [
        { tools: [{ name: "Read", input: { file_path: "/usr/bin/python3" } }] },
        { tools: [{ name: "Read", input: { file_path: "/usr/bin/grep" } }] },
        { tools: [{ name: "Bash", input: { command: "python3 -c 'print(6*7)'; grep -c . logs.txt" } }] },
      ]);
      expect(heard[1]).toMatch(/does not exist/i);
      expect(heard[2]).toMatch(/does not exist/i);
      expect(heard[3]).not.toContain("42");
      expect(heard[3]).toMatch(/no such tool|not available|not allowed|permission/i);
    }, 180_000);

    test("--tools read,grep,python: python3 runs, and os.system finds no program outside the level", async () => {
      const probe = [
        "import os, shutil",
        'print("PY", 6 * 7, shutil.which("grep") is not None, shutil.which("sed"), shutil.which("find"))',
        'print("SED", os.system("sed -n 1p logs.txt > /dev/null 2>&1") >> 8, "FIND", os.system("find . > /dev/null 2>&1") >> 8)',
      ].join("; ");
      const heard = await playAt("read,grep,python", [
        { tools: [{ name: "Bash", input: { command: `python3 -c '${probe}'` } }] },
      ]);
      expect(heard[1]).toContain("PY 42 True None None");
      // 127: the shell found no such program.
      expect(heard[1]).toContain("SED 127 FIND 127");
    }, 180_000);

    test("--tools read --observe mcp: the observe server starts in the tree from its own files, and no other program comes with it", async () => {
      // In a checkout the server is Bun with this code: its node_modules/.bin (biome, tsc, the CLIs) stays out.
      const other = join(import.meta.dir, "..", "..", "..", "node_modules", ".bin", "tsc");
      const heard = await playAt(
        "read",
        [
          { tools: [{ name: "mcp__prolong__observe", input: {} }] },
          { tools: [{ name: "Read", input: { file_path: other } }] },
          { tools: [{ name: "Read", input: { file_path: process.execPath } }] },
        ],
        { observe: "mcp" },
      );
      expect(heard[1]).toContain("[CURRENT BOARD STATE]");
      expect(heard[2]).toMatch(/does not exist/i);
      // The server's own runtime is there (it is what answered the observe call).
      expect(heard[3]).not.toMatch(/does not exist/i);
    }, 180_000);
  },
);
