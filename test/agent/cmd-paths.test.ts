// A command agent whose --cmd names a file the sandbox hides (or a relative path that only exists where
// prolong was started) gets one clear error before the first call; the summary names the sandbox used.
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { checkCommandPaths, pathWords } from "../../src/agent/cmd-paths.ts";
import { probeBwrap } from "../../src/agent/sandbox.ts";

const MAIN = path.resolve(import.meta.dir, "../../src/main.ts");
const noWhich = () => null;

function prolong(args: string[], cwd?: string) {
  const p = Bun.spawnSync([process.execPath, MAIN, ...args], { stdout: "pipe", stderr: "pipe", ...(cwd ? { cwd } : {}) });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

describe("checkCommandPaths", () => {
  const scratch = mkdtempSync(path.join(tmpdir(), "prolong-cmd-"));
  const script = path.join(scratch, "agent.py");
  writeFileSync(script, "print('hi')\n");
  const workspace = "/srv/runs/2026-01-01T00-00-00-000-aaaa/glide/workspace";

  test("the words that look like paths", () => {
    expect(pathWords(`python3 ${script} --fast x=1 | tee out.log`)).toEqual([script]);
    expect(pathWords("./agent.sh && node tools/run.mjs")).toEqual(["./agent.sh", "tools/run.mjs"]);
  });

  test("a script under /tmp with bwrap: an error naming /tmp, the private /tmp and both fixes", () => {
    const e = checkCommandPaths(`python3 ${script}`, workspace, "bwrap", "/", noWhich);
    expect(e?.message).toContain(script);
    expect(e?.message).toContain("private, empty /tmp");
    expect(e?.fix).toContain("--sandbox none");
    expect(checkCommandPaths(`python3 ${script}`, workspace, "none", "/", noWhich)).toBeNull();
  });

  test("a relative path that exists where prolong was started but not in the workspace: its absolute path as the fix", () => {
    const e = checkCommandPaths("python3 agent.py", "/nonexistent/workspace", "none", scratch, noWhich);
    expect(e?.message).toContain("runs inside the run's workspace");
    expect(e?.fix).toContain(`--cmd 'python3 ${script}'`);
  });

  test("a program found on PATH under a hidden home directory (pyenv, nvm)", () => {
    const e = checkCommandPaths("python3 -c 'print(1)'", workspace, "bwrap", "/", () => "/root/.pyenv/shims/python3");
    expect(e?.message).toContain("/root/.pyenv/shims/python3");
    expect(e?.fix).toContain("/usr/bin/python3");
    expect(checkCommandPaths("python3 -c 'print(1)'", workspace, "bwrap", "/", () => "/usr/bin/python3")).toBeNull();
  });
});

describe("through the real CLI", () => {
  test.skipIf(probeBwrap() === null)(
    "--cmd 'python3 /tmp/x/agent.py' under bwrap (needs bwrap): exit 2 before any call, no run directory",
    () => {
      const scratch = mkdtempSync(path.join(tmpdir(), "prolong-cmd-"));
      mkdirSync(path.join(scratch, "x"));
      writeFileSync(path.join(scratch, "x", "agent.py"), "print('never runs')\n");
      const runs = path.join(scratch, "runs");
      const r = prolong([
        "play",
        "glide",
        "--agent",
        "command",
        "--cmd",
        `/usr/bin/python3 ${scratch}/x/agent.py`,
        "--sandbox",
        "bwrap",
        "--runs-dir",
        runs,
      ]);
      expect(r.code).toBe(2);
      expect(r.err).toContain("private, empty /tmp");
      expect(r.err).toContain("--sandbox none");
      expect(readdirSync(runs)).toEqual([]);
    },
  );

  test("the summary names the sandbox: in-process for the explorer, none for an unconfined command", () => {
    const runs = mkdtempSync(path.join(tmpdir(), "prolong-sbx-"));
    const explorer = prolong(["play", "glide", "--max-actions", "2", "--runs-dir", runs, "--quiet"]);
    expect(explorer.out).toContain("sandbox    none needed: the agent runs inside prolong (the built-in player");
    const cmd = `echo '{"actions":["ACTION1","ACTION2"]}' > actions.json`;
    const command = prolong([
      "play",
      "glide",
      "--max-actions",
      "2",
      "--agent",
      "command",
      "--cmd",
      cmd,
      "--sandbox",
      "none",
      "--runs-dir",
      runs,
      "--quiet",
    ]);
    expect(command.code).toBe(0);
    expect(command.out).toContain("sandbox    none: the agent ran unconfined");
    const stamp = readdirSync(runs).sort().at(-1)!;
    expect(readFileSync(path.join(runs, stamp, "glide", "summary.txt"), "utf8")).toContain(
      "sandbox    none: the agent ran unconfined",
    );
  });

  test.skipIf(probeBwrap() === null)("under bwrap (needs bwrap) the summary says so", () => {
    const runs = mkdtempSync(path.join(tmpdir(), "prolong-sbx-"));
    const cmd = `echo '{"actions":["ACTION1","ACTION2"]}' > actions.json`;
    const r = prolong([
      "play",
      "glide",
      "--max-actions",
      "2",
      "--agent",
      "command",
      "--cmd",
      cmd,
      "--sandbox",
      "bwrap",
      "--runs-dir",
      runs,
      "--quiet",
    ]);
    expect(r.err).toBe("");
    expect(r.out).toContain("sandbox    bwrap (");
  });
});
