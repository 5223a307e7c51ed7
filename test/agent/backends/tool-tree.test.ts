// A restricted tool level is what exists in the sandbox, not what a parser lets through: under bubblewrap a
// `--tools read` command runs in a tree holding a shell and the reading tools only, so no shell construct
// can start python3 or grep (the bypass that beat the command check on 02f773f, and a fuzz of others), and
// without a sandbox a restricted level is refused, naming bubblewrap.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { librariesNeeded } from "../../../src/sandbox/elf-needs.ts";
import { join } from "node:path";
import { chooseSandbox } from "../../../src/agent/sandbox.ts";
import type { ToolLevel } from "../../../src/agent/tool-ladder.ts";
import { newConfig } from "../../../src/config/run-config.ts";
import { startRun } from "../../../src/run/start.ts";
import { startChatServer } from "../../support/chat-server.ts";
import { HAVE_BWRAP, play, tempRoot, withEnv } from "./helpers.ts";

const KEY = { OPENAI_API_KEY: "scripted-key" };
const HAVE_PYTHON = existsSync("/usr/bin/python3");

/** Each line tries to run python3 or grep (or any program beyond the level) another way; each prints RAN-… if it did. */
const FUZZ = [
  'printf -vx \'a[$(python3 -c "print(\\"RAN-py\\")")]\'; echo $[x]',
  "printf -vx 'a[$(grep -c . logs.txt && echo RAN-grep)]'; echo $[x]",
  "python3 -c 'print(\"RAN-py\")'",
  "/usr/bin/python3 -c 'print(\"RAN-py\")'",
  "/usr/bin/python3.11 -c 'print(\"RAN-py\")'",
  "/bin/grep -q . logs.txt && echo RAN-grep",
  "$(printf gr)ep -q . logs.txt && echo RAN-grep",
  "x=grep; $x -q . logs.txt && echo RAN-grep",
  "eval 'grep -q . logs.txt' && echo RAN-grep",
  "command -p grep -q . logs.txt && echo RAN-grep",
  "PATH=/usr/local/bin:/usr/sbin:/sbin:/usr/bin:/bin:/usr/lib/git-core; grep -q . logs.txt && echo RAN-grep",
  "exec -a grep cat logs.txt | head -c0; echo",
  "/lib64/ld-linux-x86-64.so.2 /usr/bin/python3 -c 'print(\"RAN-py\")'",
  "/lib64/ld-linux-x86-64.so.2 /usr/bin/grep -q . logs.txt && echo RAN-grep",
  "/proc/1/root/usr/bin/python3 -c 'print(\"RAN-py\")'",
  "/proc/self/root/usr/bin/grep -q . logs.txt && echo RAN-grep",
  "for p in /usr/*/bin/* /usr/lib/*/* /opt/*/bin/*; do case $p in *python*|*grep*|*awk*|*perl*) $p -c 'print(\"RAN-py\")' 2>/dev/null && echo RAN-$p;; esac; done",
  "coproc python3 -c 'print(\"RAN-py\")'; cat <&${COPROC[0]}",
  "cat <(python3 -c 'print(\"RAN-py\")')",
  "enable -f /usr/lib/bash/realpath realpath && echo RAN-builtin",
  "awk 'BEGIN{print \"RAN-awk\"}'; perl -e 'print \"RAN-perl\"'; node -e 'console.log(\"RAN-node\")'",
  "ls /usr/bin | tr '\\n' ' '",
  "echo hi > notes.txt && echo RAN-write",
];

describe.skipIf(!HAVE_BWRAP)("what exists at each restricted tool level (bubblewrap)", () => {
  const sandbox = HAVE_BWRAP ? chooseSandbox("bwrap")._unsafeUnwrap() : null;
  /** A workspace in a run directory, as a run lays it out. */
  function workspace(): string {
    const ws = join(tempRoot(), "runs", "t", "glide", "workspace");
    mkdirSync(ws, { recursive: true });
    writeFileSync(join(ws, "logs.txt"), "Action 1\nline\n");
    writeFileSync(join(ws, "actions.json"), "");
    return ws;
  }
  function run(level: ToolLevel, script: string): string {
    const ws = workspace();
    const tree = sandbox!.treeFor({ level, noWrite: false })._unsafeUnwrap()!;
    const argv = sandbox!.wrap(["bash", "-c", script], {
      workspace: ws,
      onlyWritableFiles: level === "read,grep,python" ? undefined : [join(ws, "actions.json")],
      tree,
    });
    const r = Bun.spawnSync(argv, { cwd: ws, env: { PATH: "/usr/bin", LC_ALL: "C.UTF-8" }, timeout: 60_000 });
    return r.stdout.toString() + r.stderr.toString();
  }

  test("--tools read: the bypass and every construct of the fuzz run neither python3 nor grep, nor any other program", () => {
    const out = run("read", FUZZ.join("\n"));
    expect(out).not.toContain("RAN-");
    // What is on PATH is the shell and the reading tools, nothing else.
    expect(out).toContain("basename bash cat cut dirname echo false head ls nl printf pwd sh stat tac tail tr true wc ");
    expect(out).toContain("Read-only file system");
  }, 60_000);

  test("--tools read,grep: grep runs, python3 and the rest of the system do not", () => {
    const out = run(
      "read,grep",
      `grep -c . logs.txt; egrep -c '^Action' logs.txt\n${FUZZ.filter((f) => !f.includes("grep")).join("\n")}`,
    );
    expect(out).toStartWith("2\n1\n");
    expect(out).not.toContain("RAN-");
  }, 60_000);

  test.skipIf(!HAVE_PYTHON)(
    "--tools read,grep,python: python3 (with numpy) runs and may write; awk, perl and node do not exist",
    () => {
      const out = run(
        "read,grep,python",
        'python3 -c \'import numpy, subprocess; print(int(numpy.int64(2) + 2), flush=True); subprocess.run(["grep", "-c", ".", "logs.txt"])\'\n' +
          'python3 -c \'import os; os.execvp("awk", ["awk", "BEGIN{print 1}"])\' 2>&1 | tail -n 1\n' +
          "awk 'BEGIN{print \"RAN-awk\"}'; perl -e 'print \"RAN-perl\"'; echo n > notes.txt && echo wrote",
      );
      expect(out).toStartWith("4\n2\nFileNotFoundError");
      expect(out).toContain("wrote");
      expect(out).not.toContain("RAN-");
    },
    60_000,
  );

  test("the mini agent at --tools read in a run: the bypass is refused or runs nothing (no python3, no grep)", async () => {
    const bypass = 'printf -vx \'a[$(python3 -c "open(\\"p.txt\\",\\"w\\")" ; grep -c . logs.txt > g.txt)]\'; echo $[x]';
    const server = startChatServer([
      { commands: [bypass] },
      { commands: [`echo '{"actions": ["ACTION4"]}' > actions.json`], text: "[PLAN]\nright" },
    ]);
    try {
      const r = await withEnv(KEY, () =>
        play({
          game: "glide",
          agent: "mini",
          baseUrl: server.baseUrl,
          model: "m",
          tools: "read",
          maxActions: 1,
          agentRetries: 0,
          agentTimeoutSec: 60,
          sandbox: "bwrap",
        }),
      );
      expect(r.end.reason).toBe("max-actions");
      expect(existsSync(join(r.session.paths.workspace, "p.txt"))).toBe(false);
      expect(existsSync(join(r.session.paths.workspace, "g.txt"))).toBe(false);
      const msgs = server.requests[1]!.body["messages"] as { content: string }[];
      expect(msgs.at(-1)!.content).toMatch(/command not found|refused/);
    } finally {
      server.stop();
    }
  }, 60_000);
});

describe("a restricted tool level without a sandbox", () => {
  test("is refused before the run for the mini agent, naming bubblewrap (every level but all, and --no-write)", async () => {
    for (const fields of [{ tools: "read" }, { tools: "read,grep" }, { tools: "read,grep,python" }, { noWrite: true }] as const) {
      const config = newConfig({ game: "glide", agent: "mini", model: "m", sandbox: "none", ...fields })._unsafeUnwrap();
      const e = (await withEnv(KEY, () => startRun(config, { runsRoot: tempRoot(), stamp: "t" })))._unsafeUnwrapErr();
      expect(e.message).toContain("needs bubblewrap");
      expect(e.fix).toContain("apt-get install bubblewrap");
    }
  });
});

describe("the libraries a program loads, read from its ELF headers", () => {
  test("are the loader's own list (ldd) for the shell, grep and python3", () => {
    for (const bin of ["/usr/bin/bash", "/usr/bin/grep", "/usr/bin/python3"].filter((b) => existsSync(b))) {
      const ldd = Bun.spawnSync(["ldd", bin]).stdout.toString();
      const want = [...ldd.matchAll(/(?:=>\s+|^\s+)(\/\S+)\s+\(/gm)].map((m) => realpathSync(m[1]!));
      const got = librariesNeeded([realpathSync(bin)])!.map((p) => realpathSync(p));
      expect([bin, [...new Set(got)].sort()]).toEqual([bin, [...new Set(want)].sort()]);
    }
  });
});
