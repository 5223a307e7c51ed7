// The hostile-agent corpus: every workspace name the harness touches × every shape an agent can leave there,
// under no sandbox here (the cases are in hostile-corpus.ts) and under bwrap in the slow tier
// (hostile-bwrap.slow.test.ts; as root in CI, the dangerous case). Each run's agent sends the same
// actions as an honest one and plants the thing at its first turn that finds the name holding what the harness
// guards; the harness meets the plant when it prepares the next turn, so a run ends with that turn. The test
// asserts that the master is byte-identical to the honest run's, that nothing outside the workspace changed
// (a host file, a sentinel, the run directory's names), and that the event names the file and the kind — or,
// where the sandbox already refused the plant (a link to a file the agent cannot see), that nothing happened.
// The other surfaces have their own tables: a run directory handed back to a command
// (test/run-files/hostile-run-dir.test.ts), a plan file (test/plan/lying-plan.test.ts), a terminal
// (test/terminal-text.test.ts).
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { killRunningTurns, runInGroup } from "../../src/agent/cli-process.ts";
import { defineCorpus } from "./hostile-corpus.ts";
import { chatCompletion } from "../../src/agent/mini/chat-api.ts";
import { chooseSandbox } from "../../src/agent/sandbox.ts";
import { makeTurnCgroup } from "../../src/agent/turn-cgroup.ts";
import { DEFAULT_CHARACTER } from "../../src/game/nethack/character.ts";
import { NethackEpisode } from "../../src/game/nethack/episode.ts";
import { probeBwrap } from "../../src/sandbox/bwrap.ts";
import { startChatServer } from "../support/chat-server.ts";
import { action as nethackAction, NO_NETHACK, startGame } from "../game/nethack/helpers.ts";
import { HAVE_BWRAP, tempRoot } from "../agent/backends/helpers.ts";
import { newConfig } from "../../src/config/run-config.ts";
import { findRuns } from "../../src/score/find-runs.ts";
import { buildScorecard } from "../../src/score/scorecard.ts";
import { writeBackingLog } from "../support/backing-log.ts";

defineCorpus(["none"]);

/**
 * The surfaces added since the workspace corpus, one row each (surface × attack → held how); each attack is
 * the one that beat main at 02f773f, and each has its full test beside its code (named in the row).
 */
/** Whether a pids cgroup can be made here (the probe's own is removed at once). */
const CGROUP = (() => {
  const cg = makeTurnCgroup(4);
  if (typeof cg === "string") return false;
  cg.remove();
  return true;
})();

describe("the newer surfaces: mini agent, signals, NetHack, run directories", () => {
  const rows: string[] = [];

  test.skipIf(!HAVE_BWRAP)(
    "mini × `printf -vx 'a[$(python3 …)]'; echo $[x]` at --tools read → no python3 or grep exists in its tree",
    () => {
      const sandbox = chooseSandbox("bwrap")._unsafeUnwrap();
      const ws = join(tempRoot(), "runs", "t", "glide", "workspace");
      mkdirSync(ws, { recursive: true });
      writeFileSync(join(ws, "logs.txt"), "Action 1\n");
      const tree = sandbox.treeFor({ level: "read", noWrite: false })._unsafeUnwrap()!;
      const script = `printf -vx 'a[$(python3 -c "print(1)" && echo RAN-py; grep -c . logs.txt && echo RAN-grep)]'; echo $[x]`;
      const r = Bun.spawnSync(sandbox.wrap(["bash", "-c", script], { workspace: ws, onlyWritableFiles: [], tree }), {
        cwd: ws,
        env: { PATH: "/usr/bin", LC_ALL: "C.UTF-8" },
      });
      expect(r.stdout.toString() + r.stderr.toString()).not.toContain("RAN-");
      rows.push(
        "| mini | --tools read, printf -v arithmetic bypass | nothing to run: the tree holds the level's programs only (test/agent/backends/tool-tree.test.ts) |",
      );
    },
  );

  test("mini × a model server reporting -5 or 1e308 tokens → a bad reply, retried, never written", async () => {
    const server = startChatServer([{ text: "bad", usage: { input: -5, output: 1e308 } }, { text: "good" }]);
    try {
      const policy = { retries: 1, baseDelayMs: 1, maxDelayMs: 1, sleep: async () => {} };
      const endpoint = { baseUrl: server.baseUrl, model: "m", apiKey: "k", apiKeyEnv: "OPENAI_API_KEY" };
      const r = await chatCompletion(endpoint, { messages: [] }, performance.now() + 30_000, policy);
      expect(r._unsafeUnwrap().message.content).toBe("good");
      expect(r._unsafeUnwrap().retried.length).toBe(1);
    } finally {
      server.stop();
    }
    rows.push(
      "| mini | negative / 1e308 token usage | schema refuses it: retried, never written (test/agent/mini/bounds.test.ts) |",
    );
  });

  test("signals × a daemon that left the session, cleared its environment and closed its pipes → killed with the turn", async () => {
    const ws = tempRoot();
    const daemon = `setsid sh -c 'exec env -i /bin/sh -c "echo \\$\\$ > daemon.pid; exec sleep 300" < /dev/null > /dev/null 2>&1 &' < /dev/null > /dev/null 2>&1; while [ ! -s daemon.pid ]; do :; done; sleep 300`;
    const turn = runInGroup({
      argv: ["sh", "-c", daemon],
      cwd: ws,
      env: { PATH: process.env["PATH"] },
      stdin: null,
      timeoutSec: 60,
    });
    const pidFile = join(ws, "daemon.pid");
    for (let i = 0; i < 600 && !existsSync(pidFile); i++) await Bun.sleep(50);
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    // What play's SIGTERM handler does first: end every running turn.
    expect(killRunningTurns()).toBeGreaterThan(0);
    await turn;
    expect(existsSync(`/proc/${pid}/stat`) && !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"))).toBe(false);
    rows.push(
      "| signals | SIGTERM/SIGHUP/Ctrl-C with a clean-environment double-forked daemon | the subreaper finds it; the turn's tree is killed, the run resumes (test/agent/signals.test.ts) |",
    );
  });

  test.skipIf(NO_NETHACK)(
    "NetHack × `S` `y` (save) and `O` (options) → unbound: 'Unknown command', the episode goes on",
    async () => {
      const game = await startGame(5);
      try {
        const s = (await game.step(nethackAction("S")))._unsafeUnwrap();
        expect(s.observation.screen.rows[0]!.trim()).toBe("Unknown command 'S'.");
        expect((await game.step(nethackAction("y")))._unsafeUnwrap().observation.ended).toBeUndefined();
        const o = (await game.step(nethackAction("O")))._unsafeUnwrap();
        expect(o.observation.screen.rows[0]!.trim()).toBe("Unknown command 'O'.");
      } finally {
        await game.close();
      }
      rows.push(
        "| NetHack | S y (save ends the process as a death), O (options) | keys unbound in the options file (test/game/nethack/game.test.ts) |",
      );
    },
    60_000,
  );

  test.skipIf(NO_NETHACK || !HAVE_BWRAP)(
    "NetHack × the game process driven by the agent's keys, run by root → in its sandbox: not root, no capability, no shell",
    async () => {
      const started = (
        await NethackEpisode.start({
          folder: join(tempRoot(), "g"),
          seed: 5,
          character: DEFAULT_CHARACTER,
          sandbox: probeBwrap()!,
        })
      )._unsafeUnwrap();
      try {
        const status = readFileSync(`/proc/${started.episode.pid}/status`, "latin1");
        expect(/^Uid:\s+(\d+)/m.exec(status)![1]).not.toBe("0");
        expect(/^CapEff:\s+(\S+)/m.exec(status)![1]).toBe("0000000000000000");
        expect(existsSync(`/proc/${started.episode.pid}/root/bin/sh`)).toBe(false);
      } finally {
        await started.episode.close();
      }
      rows.push(
        "| NetHack | the game run as the harness's user (root, every capability) | its own sandbox: nobody, no capability, offline, no shell, only its folder writable (test/game/nethack/confine.test.ts) |",
      );
    },
    60_000,
  );

  test.skipIf(!HAVE_BWRAP)(
    "Claude Code × Bash(python3:*) lets python start any program → the CLI runs in its level's tree, which holds none",
    () => {
      const cli = join(tempRoot(), "claude");
      writeFileSync(cli, "#!/bin/sh\n");
      const tree = chooseSandbox("bwrap")
        ._unsafeUnwrap()
        .treeFor({ level: "read,grep,python", noWrite: false }, [{ from: cli, to: cli }])
        ._unsafeUnwrap()!;
      const paths = tree.binds.map((b) => b.to);
      expect(paths).toContain(cli);
      expect(paths).toContain("/usr/bin/python3");
      for (const absent of ["/usr/bin/sed", "/usr/bin/find", "/usr/bin/curl", "/usr/bin/env"])
        expect(paths).not.toContain(absent);
      rows.push(
        "| Claude Code | --tools read,grep,python: python3 -c 'os.system(...)' | the CLI runs in the level's tree: no other program exists (test/agent/backends/claude-tree.slow.test.ts) |",
      );
    },
  );

  test.skipIf(process.getuid?.() !== 0 || !CGROUP)(
    "processes × forks as root under --sandbox none (NPROC does not bind root) → the turn's pids cgroup caps them",
    async () => {
      const ws = tempRoot();
      const outcome = await runInGroup({
        // Each fork that succeeds is counted; the first refused one ends the loop.
        argv: [
          "python3",
          "-c",
          "import os\nn = 0\nfor i in range(60):\n    try:\n        pid = os.fork()\n    except OSError:\n        break\n    if pid == 0:\n        os.execvp('sleep', ['sleep', '60'])\n    n += 1\nprint('up', n)",
        ],
        cwd: ws,
        env: { PATH: process.env["PATH"] },
        stdin: null,
        timeoutSec: 60,
        limits: { uid: 0, processes: 20 },
      });
      const up = Number(/up (\d+)/.exec(outcome.stdoutTail)?.[1]);
      expect(up).toBeGreaterThan(5);
      expect(up).toBeLessThan(20);
      rows.push(
        "| processes | a fork bomb as root, unsandboxed | a pids cgroup per agent process run, emptied and removed at its end (test/agent/turn-cgroup.test.ts) |",
      );
    },
    60_000,
  );

  test("score × a scorecard forged self-consistently to more levels than its log cleared → refused, the mismatch named", async () => {
    const dir = join(tempRoot(), "forged");
    mkdirSync(dir);
    const config = newConfig({ game: "glide" })._unsafeUnwrap();
    const input = {
      run: "t/forged",
      config,
      end: { reason: "max-actions" as const, detail: "" },
      baselines: [10, 10],
      winLevels: 2,
      episodes: [{ episode: 1, levels: 1, state: "NOT_FINISHED" as const, actions: 12, levelActions: [10, 2] }],
      actions: 12,
      agentCalls: 1,
      tokens: { input: 0, cached: 0, output: 0 },
      tamperEvents: 0,
      wallMs: 5,
    };
    writeBackingLog(dir, buildScorecard(input));
    const forged = buildScorecard({ ...input, episodes: [{ ...input.episodes[0]!, levels: 2, state: "WIN" }] });
    writeFileSync(join(dir, "scorecard.json"), JSON.stringify(forged));
    const found = findRuns([dir]);
    expect(found.runs).toEqual([]);
    expect(found.skipped[0]?.evidence).toContain("mismatch: the log's last header says Score: 1");
    rows.push(
      "| run directory | scorecard forged self-consistently (7/7, more actions, other levels, no log) | score checks it against the log's last header: refused, named; --trust-scorecards marks it (test/score/evidence.test.ts) |",
    );
  });

  test("run directory × a FIFO at the mini agent's conversation → refused by name, never waited on", () => {
    const ws = join(tempRoot(), "run", "workspace");
    mkdirSync(ws, { recursive: true });
    Bun.spawnSync(["mkfifo", join(ws, "..", "agent-conversation.json")]);
    const src = join(import.meta.dir, "../../src/agent/mini/conversation.ts");
    const code = `import { readConversation } from ${JSON.stringify(src)};\nconst r = readConversation(${JSON.stringify(ws)});\nconsole.log(r.isErr() ? r.error.message : "read");`;
    const p = Bun.spawnSync([process.execPath, "-e", code], { timeout: 20_000, killSignal: "SIGKILL" });
    expect(p.exitCode === null ? "hung" : p.stdout.toString()).toContain("FIFO");
    rows.push(
      "| run directory | FIFO / symlink / /dev/zero at agent-conversation.json, agent-session.json, plans.txt, run.lock, the built-in agent's log | safe-file.ts: refused by name, never read; saves renamed over the name (test/run-files/hostile-run-dir.test.ts) |",
    );
  });

  test("the rows (printed for the notes with PROLONG_PRINT_CORPUS=1)", () => {
    if (process.env["PROLONG_PRINT_CORPUS"]) for (const r of rows) console.log(r);
    const root = process.getuid?.() === 0;
    expect(rows.length).toBe(
      4 + (HAVE_BWRAP ? 2 : 0) + (NO_NETHACK ? 0 : 1) + (NO_NETHACK || !HAVE_BWRAP ? 0 : 1) + (root && CGROUP ? 1 : 0),
    );
  });
});
