// A run directory handed back to prolong is input: every command that reads or writes one, given a run
// directory with something hostile at one of its names, through the real CLI. Each case is one row of the
// run-directory surface in the hostile table (test/workspace/hostile.test.ts holds the workspace's): what is
// planted, which commands meet it, and what holding means — an exit with a message naming the file (never a
// hang on a FIFO, never /dev/zero read into memory, never a RangeError stack), nothing written through a
// link, nothing changed by `verify`, and no finished run re-finished by `resume`.
import { Database } from "bun:sqlite";
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { execFileSync } from "node:child_process";
import {
  existsSync,
  linkSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { appendTurn } from "../../src/run-files/trajectory.ts";
import { type Exited, prolong as prolongProcess } from "../support/prolong-process.ts";
import { base, BOUND, copyOf, defineNotRegularFiles, nextId, root, useBaseRuns } from "./base-runs.ts";

// Every case starts prolong at least once: bounded by the spawn timeout, not by the default 5 s.
setDefaultTimeout(120_000);

useBaseRuns();
const prolong = (...args: string[]) => prolongProcess(args, BOUND);

describe("a run directory's files that are not regular files", () => {
  // A FIFO at each name here; a symlink to /dev/zero at each, the same six commands, in the slow tier
  // (hostile-run-dir.slow.test.ts).
  defineNotRegularFiles(["a FIFO"]);

  test("run.json larger than any run writes (a sparse 2 GiB file) is refused by resume, not read", () => {
    const dir = copyOf(base.interrupted);
    truncateSync(path.join(dir, "run.json"), 2 ** 31);
    const r = prolong("resume", dir);
    expect(r.code).toBe(2);
    expect(r.err).toContain("run.json");
    expect(r.err).toMatch(/more than the \d+ prolong reads/);
  });
});

describe("verify opens the index read-only and changes nothing", () => {
  function snapshot(dir: string): Record<string, string> {
    const out: Record<string, string> = {};
    for (const f of readdirSync(dir).sort()) {
      const p = path.join(dir, f);
      out[f] = lstatSync(p).isFile() ? Bun.hash(readFileSync(p)).toString() : "(not a file)";
    }
    return out;
  }

  test("a foreign SQLite file as index.sqlite is refused and left byte for byte as it was", () => {
    const dir = copyOf(base.finished);
    const index = path.join(dir, "index.sqlite");
    rmSync(index);
    const db = new Database(index, { create: true });
    db.run("CREATE TABLE notes (body TEXT)");
    db.run("INSERT INTO notes VALUES ('someone else''s data')");
    db.close();
    const before = snapshot(dir);
    const r = prolong("verify", dir);
    expect(r.code).toBe(2);
    expect(r.err).toContain("not a prolong run index");
    expect(snapshot(dir)).toEqual(before);
  });

  test("an index with writes not yet checkpointed: verify reads them and checkpoints nothing", () => {
    const dir = copyOf(base.finished);
    const db = new Database(path.join(dir, "index.sqlite"));
    db.run("PRAGMA journal_mode = WAL");
    db.run("PRAGMA wal_autocheckpoint = 0");
    db.run(`INSERT INTO state (key, value) VALUES ('probe', '1')`);
    const before = snapshot(dir);
    expect(Object.keys(before)).toContain("index.sqlite-wal");
    const r = prolong("verify", dir);
    expect(r.code).toBe(0);
    const after = snapshot(dir);
    // The shared-memory file is SQLite's lock table, rewritten by any reader; the data files are not touched.
    delete before["index.sqlite-shm"];
    delete after["index.sqlite-shm"];
    expect(after).toEqual(before);
    db.close();
  });

  test("a symlink as index.sqlite is refused, not followed (its target is untouched)", () => {
    const dir = copyOf(base.finished);
    const target = path.join(root, `elsewhere-${nextId()}.sqlite`);
    execFileSync("cp", [path.join(dir, "index.sqlite"), target]);
    rmSync(path.join(dir, "index.sqlite"));
    symlinkSync(target, path.join(dir, "index.sqlite"));
    const bytes = readFileSync(target);
    const r = prolong("verify", dir);
    expect(r.code).toBe(2);
    expect(r.err).toContain("index.sqlite");
    expect(r.err).toContain("symlink");
    expect(readFileSync(target).equals(bytes)).toBe(true);
    expect(existsSync(`${target}-wal`)).toBe(false);
  });
});

describe("index values are checked before use", () => {
  // verify reads the copy's state (what it checks the copy against); resume reads both.
  const FORGED: Record<string, [string, readonly ("verify" | "resume")[]]> = {
    "a section ending at 1e300": [`UPDATE sections SET "end" = 1e300 WHERE ordinal = 1`, ["resume"]],
    "a section starting after its end": [`UPDATE sections SET start = "end" + 100 WHERE ordinal = 1`, ["resume"]],
    "a negative offset": [`UPDATE sections SET start = -5 WHERE ordinal = 0`, ["resume"]],
    "the copy owned up to 2^60": [
      `UPDATE copy_state SET owned = 1152921504606846976, size = 1152921504606846976`,
      ["verify", "resume"],
    ],
    "a copy checksum past the copy's end": [`UPDATE copy_chunks SET "end" = "end" + 1000000`, ["verify", "resume"]],
  };
  for (const [what, [sql, commands]] of Object.entries(FORGED)) {
    test(`${what}: ${commands.join(" and ")} say "index damaged", no RangeError`, () => {
      const dirs = commands.map((cmd) => {
        const dir = copyOf(cmd === "verify" ? base.finished : base.interrupted);
        const db = new Database(path.join(dir, "index.sqlite"));
        db.run(sql);
        db.close();
        return dir;
      });
      // Each command on its own copy.
      const ended = commands.map((cmd, i) => prolongProcess([cmd, dirs[i]!], BOUND));
      for (const [i, r] of ended.entries()) {
        expect({ cmd: commands[i], code: r.code }).toEqual({ cmd: commands[i], code: 2 });
        expect(r.err).toContain("index damaged");
        expect(r.err).not.toMatch(/RangeError|    at /);
      }
    }, 60_000);
  }
});

describe("resume never re-finishes a run or skips the checksums", () => {
  test("a zero-length index: resume refuses, the finished run's scorecard and summary are left as they were", () => {
    const dir = copyOf(base.finished);
    for (const f of ["index.sqlite-wal", "index.sqlite-shm"]) rmSync(path.join(dir, f), { force: true });
    truncateSync(path.join(dir, "index.sqlite"), 0);
    const card = readFileSync(path.join(dir, "scorecard.json"));
    const log = readFileSync(path.join(dir, "logs.txt"));
    const r = prolong("resume", dir);
    expect(r.code).toBe(2);
    expect(r.err).toContain("index.sqlite");
    expect(r.err).toContain("empty");
    expect(readFileSync(path.join(dir, "scorecard.json")).equals(card)).toBe(true);
    expect(readFileSync(path.join(dir, "logs.txt")).equals(log)).toBe(true);
    expect(readFileSync(path.join(dir, "index.sqlite")).length).toBe(0);
  });

  test("a zero-length index under an edited master: refused, the edit is not taken on trust", () => {
    const dir = copyOf(base.interrupted);
    truncateSync(path.join(dir, "index.sqlite"), 0);
    const log = path.join(dir, "logs.txt");
    writeFileSync(log, readFileSync(log, "utf8").replace("Score: 0", "Score: 9"));
    const r = prolong("resume", dir);
    expect(r.code).toBe(2);
    expect(r.err).toContain("index.sqlite");
  });

  test("a missing index: refused, nothing created", () => {
    const dir = copyOf(base.interrupted);
    for (const f of ["index.sqlite", "index.sqlite-wal", "index.sqlite-shm"]) rmSync(path.join(dir, f), { force: true });
    const r = prolong("resume", dir);
    expect(r.code).toBe(2);
    expect(existsSync(path.join(dir, "index.sqlite"))).toBe(false);
  });

  test("an index emptied of its schema (another program's empty database): refused", () => {
    const dir = copyOf(base.interrupted);
    for (const f of ["index.sqlite", "index.sqlite-wal", "index.sqlite-shm"]) rmSync(path.join(dir, f), { force: true });
    const db = new Database(path.join(dir, "index.sqlite"), { create: true });
    db.run("CREATE TABLE other (x)");
    db.close();
    const r = prolong("resume", dir);
    expect(r.code).toBe(2);
    expect(r.err).toContain("not a prolong run index");
  });
});

describe("nothing is written through a link in the run directory", () => {
  test("resume does not append through a symlinked events.jsonl", () => {
    const dir = copyOf(base.interrupted);
    const target = path.join(root, `target-${nextId()}.txt`);
    writeFileSync(target, "precious\n");
    rmSync(path.join(dir, "events.jsonl"));
    symlinkSync(target, path.join(dir, "events.jsonl"));
    const r = prolong("resume", dir);
    expect(r.code).toBe(2);
    expect(r.err).toContain("events.jsonl");
    expect(readFileSync(target, "utf8")).toBe("precious\n");
  });

  test("view and report --views replace a symlinked view.html instead of writing through it", () => {
    for (const argv of [
      (dir: string) => ["view", dir],
      (dir: string) => ["report", dir, "--views", "-o", path.join(dir, "..", `r-${nextId()}.html`)],
    ]) {
      const dir = copyOf(base.finished);
      const target = path.join(root, `target-${nextId()}.txt`);
      writeFileSync(target, "precious\n");
      symlinkSync(target, path.join(dir, "view.html"));
      const r = prolong(...argv(dir));
      expect(r.code).toBe(0);
      expect(readFileSync(target, "utf8")).toBe("precious\n");
      expect(lstatSync(path.join(dir, "view.html")).isFile()).toBe(true);
      expect(readFileSync(path.join(dir, "view.html"), "utf8")).toContain("<html");
    }
  }, 60_000);
  test("the trajectory is appended to through no link, and never to a FIFO or a file with two names", () => {
    const dir = mkdtempSync(path.join(root, "trajectory-"));
    const target = path.join(root, `target-${nextId()}.txt`);
    writeFileSync(target, "precious\n");
    const fifo = path.join(dir, "fifo.jsonl");
    execFileSync("mkfifo", [fifo]);
    symlinkSync(target, path.join(dir, "link.jsonl"));
    linkSync(target, path.join(dir, "hard.jsonl"));
    for (const name of ["fifo.jsonl", "link.jsonl", "hard.jsonl"]) {
      const r = appendTurn(path.join(dir, name), []);
      expect([name, r.isErr() && r.error.code]).toEqual([name, "not-a-regular-file"]);
    }
    expect(readFileSync(target, "utf8")).toBe("precious\n");
    expect(appendTurn(path.join(dir, "trajectory.jsonl"), []).isOk()).toBe(true);
  });
});

describe("run.json is held to the flags' own bounds", () => {
  const FORGED: Record<string, Record<string, unknown>> = {
    "a 1e7 s agent timeout (overflows a timer to 1 ms)": { agentTimeoutSec: 1e7 },
    "1e9 max actions": { maxActions: 1e9 },
    "an action cap of 1e300": { actionCap: 1e300 },
    "a negative seed": { seed: -1 },
    "a 1 MB --cmd": { agent: "command", cmd: "x".repeat(100_000) },
    "a model name with an escape sequence": { agent: "mini", model: "gpt\u001b]0;owned\u0007" },
  };
  for (const [what, fields] of Object.entries(FORGED)) {
    test(`${what}: resume refuses, naming the field`, () => {
      const dir = copyOf(base.interrupted);
      const p = path.join(dir, "run.json");
      writeFileSync(p, JSON.stringify({ ...JSON.parse(readFileSync(p, "utf8")), ...fields }));
      const r = prolong("resume", dir);
      expect(r.code).toBe(2);
      expect(r.err).toContain(Object.keys(fields).at(-1) as string);
      expect(r.err).not.toContain("\u001b");
    });
  }
});

describe("logs over 4 GiB", () => {
  test("a sparse 8 GiB copy left in the workspace: verify says appended, exit 1, no ERR_BUFFER_TOO_LARGE", () => {
    const dir = copyOf(base.finished);
    const copy = path.join(dir, "workspace", "logs.txt");
    truncateSync(copy, 8 * 2 ** 30);
    const r = prolong("verify", dir, "--json");
    expect(r.err).not.toContain("ERR_BUFFER_TOO_LARGE");
    expect(r.code).toBe(1);
    const report = JSON.parse(r.out) as { tamper: { kind: string }; foundBytes: number };
    expect(report.tamper.kind).toBe("appended");
    expect(report.foundBytes).toBe(8 * 2 ** 30);
    unlinkSync(copy);
  });
});

describe("board sizes are capped", () => {
  test("view --png of a forged 3000 x 3000 board is refused with the scale that fits, not drawn into gigabytes", () => {
    const log = path.join(root, "big-board.txt");
    const row = `${"O".repeat(3000)}\n`;
    writeFileSync(
      log,
      `${"=".repeat(80)}\nAction 0 | Level 1 | Attempt 1 | INITIAL STATE | Score: 0\n\n[INITIAL BOARD STATE]\n${row.repeat(3000)}\n`,
    );
    const out = path.join(root, "big-board.png");
    const r = prolong("view", "--png", log, "0", "-o", out);
    expect(r.code).toBe(2);
    expect(r.err).toContain("3000x3000");
    expect(r.err).toContain("--scale 1");
    expect(existsSync(out)).toBe(false);
  });
});

describe("scores that check their evidence", () => {
  for (const [what, value] of [
    ["1e300", 1e300],
    ["116 (past RHAE's ceiling of 115)", 116],
  ] as const) {
    test(`a scorecard forged to RHAE ${what}: score skips it, naming the field, and tables nothing`, () => {
      const dir = copyOf(base.finished);
      const p = path.join(dir, "scorecard.json");
      writeFileSync(p, JSON.stringify({ ...JSON.parse(readFileSync(p, "utf8")), score: value }));
      const r = prolong("score", dir, "--json");
      const out = JSON.parse(r.out) as { runs: unknown[]; skipped: { reason: string }[] };
      expect(out.runs).toHaveLength(0);
      expect(out.skipped[0]?.reason).toContain("score");
    });
  }
});

/**
 * The agents' own files in a run directory: the mini agent's conversation, the session record Claude Code and
 * Codex resume from, the run's lock, and the workspace log the built-in NetHack agent reads. Each reader runs
 * in a process of its own with a bound, so a reader that waits on a FIFO or reads /dev/zero fails the case by
 * being killed instead of hanging the suite.
 */
describe("the agents' own files in a run directory", () => {
  const SRC = path.resolve(import.meta.dir, "../../src");
  /** name → [the file, relative to the run directory; the call, an expression over `dir` giving a Result]. */
  const READERS: Record<string, [string, string, string]> = {
    "the mini agent's conversation": [
      "agent-conversation.json",
      `import { readConversation } from "${SRC}/agent/mini/conversation.ts";`,
      `readConversation(dir + "/workspace")`,
    ],
    "the Claude Code / Codex session record": [
      "agent-session.json",
      `import { readSessionRecord } from "${SRC}/agent/cli-process.ts";`,
      `readSessionRecord(dir + "/workspace")`,
    ],
    "the run's lock": ["run.lock", `import { lockRun } from "${SRC}/run/lock.ts";`, `lockRun(dir)`],
    "the built-in explorer's log": [
      "workspace/logs.txt",
      `import { readNewSections } from "${SRC}/agent/explorer/log-cursor.ts";`,
      `readNewSections(dir + "/workspace/logs.txt", undefined)`,
    ],
    "the built-in NetHack agent's log": [
      "workspace/logs.txt",
      `import { nethackTurn } from "${SRC}/agent/nethack/agent.ts";`,
      `await nethackTurn({ workspace: dir + "/workspace", prompt: "", turn: 1, availableActions: [], actionCap: 20, seed: 0 })`,
    ],
  };
  const PLANTS: Record<string, (at: string) => void> = {
    "a FIFO": (at) => execFileSync("mkfifo", [at]),
    "a symlink to /dev/zero": (at) => symlinkSync("/dev/zero", at),
  };

  /** Runs `call` in a bounded process of its own; what it returned, or "hung" when the bound killed it. */
  function bounded(imports: string, call: string, dir: string): string {
    const code = `${imports}\nconst dir = ${JSON.stringify(dir)};\nconst r = ${call};\nconsole.log(r.isErr() ? "refused: " + r.error.message : "read");\nprocess.exit(0);`;
    const p = Bun.spawnSync([process.execPath, "-e", code], {
      stdout: "pipe",
      stderr: "pipe",
      timeout: 20_000,
      killSignal: "SIGKILL",
    });
    return p.exitCode === null ? "hung" : p.stdout.toString().trim() || p.stderr.toString().trim();
  }

  for (const [what, [file, imports, call]] of Object.entries(READERS))
    for (const [plant, make] of Object.entries(PLANTS))
      test(`${what} (${file}) as ${plant}: refused by name, never waited on or read`, () => {
        const dir = copyOf(base.finished);
        rmSync(path.join(dir, file), { force: true });
        make(path.join(dir, file));
        expect(bounded(imports, call, dir)).toMatch(/^refused: .*(FIFO|symlink|character device)/);
      });

  test("a symlink at the conversation or the session record is refused, its target neither read nor changed", () => {
    for (const [file, imports, call] of [
      READERS["the mini agent's conversation"]!,
      READERS["the Claude Code / Codex session record"]!,
    ]) {
      const dir = copyOf(base.finished);
      const target = path.join(root, `target-${nextId()}.json`);
      writeFileSync(target, "{}\n");
      symlinkSync(target, path.join(dir, file));
      expect(bounded(imports, call, dir)).toMatch(/^refused: .*symlink/);
      expect(readFileSync(target, "utf8")).toBe("{}\n");
    }
  });

  test("saving the conversation or the session record writes through no link at the name or the old temp name", () => {
    const dir = copyOf(base.finished);
    const victims = ["agent-conversation.json.tmp", "agent-session.json.tmp", "agent-session.json"].map((name) => {
      const target = path.join(root, `victim-${nextId()}`);
      writeFileSync(target, "untouched\n");
      symlinkSync(target, path.join(dir, name));
      return target;
    });
    const out = bounded(
      `import { writeConversation } from "${SRC}/agent/mini/conversation.ts";\nimport { writeSessionRecord } from "${SRC}/agent/cli-process.ts";`,
      `(writeConversation(dir + "/workspace", { version: 1, messages: [], dropped: 0 }), writeSessionRecord(dir + "/workspace", { backend: "claude", sessionId: "s", confirmed: true }))`,
      dir,
    );
    expect(out).toBe("read");
    for (const v of victims) expect(readFileSync(v, "utf8")).toBe("untouched\n");
    expect(lstatSync(path.join(dir, "agent-session.json")).isFile()).toBe(true);
  });

  /** A stateless run of the command agent without a sandbox, which plants `plant` in the run directory at its turn 2. */
  function statelessRun(plant: string): Exited & { dir: string } {
    const runs = path.join(root, `stateless-${nextId()}`);
    const script = `if [ "$PROLONG_TURN" = 2 ]; then ${plant}; fi; printf '{"actions":["ACTION1","ACTION4"]}' > actions.json; echo "plan: probe"`;
    // Killed outright at the bound (prolong-process.ts): a play blocked reading a FIFO never runs its SIGTERM handler.
    // Two turns: the plant's is the last, and its plan is kept (written past the plant) once its reply is in.
    const p = prolongProcess(
      [
        "play",
        "glide",
        "--agent",
        "command",
        "--cmd",
        script,
        "--sandbox",
        "none",
        "--workspace",
        "stateless",
        "--max-actions",
        "4",
        "--runs-dir",
        runs,
      ],
      { timeoutMs: 60_000 },
    );
    const stamp = readdirSync(runs)[0] as string;
    return { ...p, dir: path.join(runs, stamp, "glide") };
  }

  test("plans.txt (the stateless arm's kept copy) made a FIFO by an unconfined agent: the run ends naming it, no hang", () => {
    const r = statelessRun("rm -f ../plans.txt; mkfifo ../plans.txt");
    expect(r.code === null ? "hung" : "ended").toBe("ended");
    expect(r.err + r.out).toContain("plans.txt");
    expect(r.err + r.out).toContain("FIFO");
  });

  test("a symlink at plans.txt's old temp name: the kept copy is replaced, the link's target untouched", () => {
    const target = path.join(root, `victim-${nextId()}`);
    writeFileSync(target, "untouched\n");
    const r = statelessRun(`ln -s ${target} ../plans.txt.tmp`);
    expect(r.code).toBe(0);
    expect(readFileSync(target, "utf8")).toBe("untouched\n");
    // The plant's own turn's plan, kept after the plant.
    expect(readFileSync(path.join(r.dir, "plans.txt"), "utf8")).toContain("--- turn 2 (from action 3)\nplan: probe");
  });
});
