// A command agent whose --cmd names a file the sandbox hides (or a relative path that only exists where
// prolong was started) gets one clear error before the first call; the summary names the sandbox used.
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { absoluteCommand, checkCommandPaths, pathWords, sandboxBinds } from "../../src/agent/cmd-paths.ts";
import { newConfig } from "../../src/config/run-config.ts";
import { probeBwrap, unconfinedWarning } from "../../src/agent/sandbox.ts";
import { playCommand } from "../../src/cli/play.ts";
import { runCaptured } from "../support/captured.ts";

const MAIN = path.resolve(import.meta.dir, "../../src/main.ts");
const noWhich = () => null;

function prolong(args: string[], cwd?: string) {
  const p = Bun.spawnSync([process.execPath, MAIN, ...args], { stdout: "pipe", stderr: "pipe", ...(cwd ? { cwd } : {}) });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

/**
 * `prolong play ARGS` run in this process, started in `cwd` (play reads --cmd's relative paths from where it
 * was started): its exit status, stdout and console.error. Where the process's own exit or stderr is the
 * point, the tests spawn it (prolong above).
 */
async function playIn(args: string[], cwd = process.cwd()) {
  const before = process.cwd();
  process.chdir(cwd);
  try {
    const r = await runCaptured(playCommand, args);
    return { code: r.code, out: r.out, err: r.errText };
  } finally {
    process.chdir(before);
  }
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

  test("a script under /tmp with bwrap and not shown: an error naming /tmp, the private /tmp, --bind-ro and --sandbox none", () => {
    const e = checkCommandPaths(`python3 ${script}`, workspace, "bwrap", "/", noWhich);
    expect(e?.message).toContain(script);
    expect(e?.message).toContain("private, empty /tmp");
    expect(e?.fix).toContain(`--bind-ro ${scratch}`);
    expect(e?.fix).toContain("--sandbox none");
    expect(checkCommandPaths(`python3 ${script}`, workspace, "none", "/", noWhich)).toBeNull();
  });

  test("a script in a directory the sandbox shows (the script's own, as play gives it) is found", () => {
    const config = newConfig({ game: "glide", agent: "command", cmd: `python3 ${script}` })._unsafeUnwrap();
    const binds = sandboxBinds(config);
    expect(binds.readOnly).toEqual([scratch]);
    expect(checkCommandPaths(`python3 ${script}`, workspace, "bwrap", "/", noWhich, binds)).toBeNull();
  });

  test("a script inside the runs directory is refused even when shown: other runs' logs are there", () => {
    const runs = path.join(scratch, "runs");
    const ws = path.join(runs, "2026-01-01T00-00-00-000-aaaa", "glide", "workspace");
    mkdirSync(path.join(runs, "tools"), { recursive: true });
    writeFileSync(path.join(runs, "tools", "a.py"), "");
    const e = checkCommandPaths(`python3 ${runs}/tools/a.py`, ws, "bwrap", "/", noWhich, { readOnly: [runs], readWrite: [] });
    expect(e?.message).toContain("the runs directory");
  });

  test("a program the shell cannot start (a directory, relative or absolute; not executable; missing) is refused before the run, naming it", async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), "prolong-cmd-dir-"));
    mkdirSync(path.join(cwd, "some-dir"));
    for (const cmd of ["./some-dir", `${path.join(cwd, "some-dir")} --fast`]) {
      const runs = path.join(cwd, "runs");
      const r = await playIn(["glide", "--agent", "command", "--cmd", cmd, "--max-actions", "5", "--runs-dir", runs], cwd);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`${path.join(cwd, "some-dir")} is a directory`);
      expect(r.err).not.toContain("agent call");
      expect(existsSync(runs) ? readdirSync(runs) : []).toEqual([]);
    }
    // A script without execute permission, and a program that is nowhere: named, with the fix.
    writeFileSync(path.join(cwd, "agent.py"), "print('hi')\n");
    const plain = await playIn(["glide", "--agent", "command", "--cmd", "./agent.py", "--runs-dir", path.join(cwd, "runs")], cwd);
    expect(plain.code).toBe(2);
    expect(plain.err).toContain(`${path.join(cwd, "agent.py")} is not executable`);
    expect(plain.err).toContain(`chmod +x ${path.join(cwd, "agent.py")}`);
    const nowhere = await playIn(
      ["glide", "--agent", "command", "--cmd", "./gone.sh", "--runs-dir", path.join(cwd, "runs")],
      cwd,
    );
    expect(nowhere.code).toBe(2);
    expect(nowhere.err).toContain(`${path.join(cwd, "gone.sh")} does not exist`);
    expect(existsSync(path.join(cwd, "runs")) ? readdirSync(path.join(cwd, "runs")) : []).toEqual([]);
    // A directory as an argument of the program is the program's business; an assignment before the program,
    // or a path the shell still expands, is not the program.
    expect(checkCommandPaths(`PYTHONPATH=/nowhere python3 ${script}`, workspace, "none", "/", noWhich)).toBeNull();
    expect(checkCommandPaths("$HOME/nowhere/agent.sh", workspace, "none", "/", noWhich)).toBeNull();
    expect(checkCommandPaths(`python3 ${script} ${scratch}`, workspace, "none", "/", noWhich)).toBeNull();
  });

  test("play makes --cmd's relative paths to files here absolute; other words stay as typed", () => {
    expect(absoluteCommand("python3 ./agent.py --n 3 missing.py", scratch)).toBe(`python3 ${script} --n 3 missing.py`);
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
    expect(e?.fix).toContain("--bind-ro");
    expect(checkCommandPaths("python3 -c 'print(1)'", workspace, "bwrap", "/", () => "/usr/bin/python3")).toBeNull();
  });
});

describe("through the real CLI", () => {
  test.skipIf(probeBwrap() === null)(
    "--cmd './agent.py' in a project under a home directory plays under the default sandbox (needs bwrap): the project read-only, the runs hidden",
    () => {
      // A project as people keep one: in their home, the agent script beside them, runs/ inside the project.
      const project = mkdtempSync(path.join(homedir(), "prolong-project-"));
      try {
        chmodSync(project, 0o755);
        const agent = path.join(project, "agent.py");
        writeFileSync(
          agent,
          [
            "#!/usr/bin/python3",
            "import json, os",
            "seen = {}",
            "try: seen['master'] = open('../logs.txt').read(10)",
            "except OSError as e: seen['master'] = type(e).__name__",
            "seen['run dir'] = sorted(os.listdir('..'))",
            "try:",
            "    open(os.path.join(os.environ['PROJECT'], 'written.txt'), 'w')",
            "    seen['write'] = 'written'",
            "except OSError as e: seen['write'] = type(e).__name__",
            "json.dump(seen, open('seen.json', 'w'))",
            "json.dump({'actions': ['ACTION1', 'ACTION2']}, open('actions.json', 'w'))",
            "",
          ].join("\n"),
        );
        chmodSync(agent, 0o755);
        const p = Bun.spawnSync(
          [
            process.execPath,
            MAIN,
            "play",
            "glide",
            "--agent",
            "command",
            "--cmd",
            "./agent.py",
            "--max-actions",
            "2",
            "--pass-env",
            "PROJECT",
          ],
          { cwd: project, env: { ...process.env, PROJECT: project }, stdout: "pipe", stderr: "pipe" },
        );
        // Nothing but progress lines (stderr is not a terminal here): no warning, no refusal.
        expect(p.stderr.toString().replace(/^prolong: \S+ {2}action .*\n/gm, "")).toBe("");
        expect(p.exitCode).toBe(0);
        expect(p.stdout.toString()).toContain("sandbox    bwrap (");
        expect(p.stdout.toString()).toContain("actions    2");
        const stamp = readdirSync(path.join(project, "runs"))[0]!;
        const run = path.join(project, "runs", stamp, "glide");
        const config = JSON.parse(readFileSync(path.join(run, "run.json"), "utf8"));
        expect([config.cmd, config.bindRo]).toEqual([agent, [project]]);
        // What the agent saw: neither its master log nor anything in runs/, and it could not write the project.
        const seen = JSON.parse(readFileSync(path.join(run, "workspace", "seen.json"), "utf8"));
        expect(seen).toEqual({ master: "FileNotFoundError", "run dir": ["workspace"], write: expect.stringMatching(/Error$/) });
        expect(existsSync(path.join(project, "written.txt"))).toBe(false);
      } finally {
        rmSync(project, { recursive: true, force: true });
      }
    },
  );

  test("an unconfined external agent is warned about at the start, before its first call", () => {
    const runs = mkdtempSync(path.join(tmpdir(), "prolong-sbx-"));
    const p = Bun.spawn(
      [
        process.execPath,
        MAIN,
        "play",
        "glide",
        "--agent",
        "command",
        "--cmd",
        "sleep 60",
        "--sandbox",
        "none",
        "--runs-dir",
        runs,
      ],
      { stdout: "pipe", stderr: "pipe" },
    );
    return (async () => {
      const reader = p.stderr.getReader();
      let text = "";
      while (!text.includes("\n")) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      p.kill("SIGKILL");
      await p.exited;
      expect(text).toContain("prolong: warning: --sandbox none: the agent runs unconfined");
    })();
  });

  test("without bubblewrap, --sandbox auto warns at the start too", () => {
    const config = newConfig({ game: "glide", agent: "command", cmd: "true" })._unsafeUnwrap();
    expect(unconfinedWarning(config, () => null)).toContain("bubblewrap is not installed");
    expect(unconfinedWarning({ ...config, agent: "explorer" }, () => null)).toBeNull();
  });

  test("the summary names the sandbox: in-process for the explorer, none for an unconfined command", async () => {
    const runs = mkdtempSync(path.join(tmpdir(), "prolong-sbx-"));
    const explorer = await playIn(["glide", "--max-actions", "2", "--runs-dir", runs, "--quiet"]);
    expect(explorer.out).toContain("sandbox    none needed: the agent runs inside prolong (the built-in player");
    const cmd = `echo '{"actions":["ACTION1","ACTION2"]}' > actions.json`;
    const command = await playIn([
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
