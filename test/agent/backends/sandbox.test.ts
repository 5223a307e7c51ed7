// The sandbox: the bwrap argv (pure), the auto choice, and a hostile command agent that tries to read the master
// log, write outside its workspace, read another game's workspace and tamper with its logs.txt. Under bwrap
// all but the tamper fail (the tamper is repaired and recorded); without a sandbox all four succeed, which
// shows the attacks are real.
import { describe, expect, test } from "bun:test";
import { existsSync, linkSync, lstatSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  AGENT_UID_AS_ROOT,
  agentEnvironment,
  bwrapArgv,
  chooseSandbox,
  handOver,
  hiddenDirs,
  installDir,
  probeBwrap,
} from "../../../src/agent/sandbox.ts";
import { HAVE_BWRAP, play, readEventsFile, tempRoot, withEnv } from "./helpers.ts";

describe("the bwrap command line", () => {
  test("a project under a home, holding runs/: shown read-only over the home's cover, then runs/ covered again, then the workspace", () => {
    const project = "/home/ada/proj";
    const ws = `${project}/runs/2026-01-01T00-00-00/glide/workspace`;
    const argv = bwrapArgv(
      { bin: "/usr/bin/bwrap", userns: true },
      ["x"],
      { workspace: ws },
      {
        readOnly: [project, "/opt/tools", `${project}/runs/2026-01-01T00-00-00`],
        readWrite: ["/data/shared"],
      },
    );
    const at = (...seq: string[]) => argv.findIndex((_, i) => seq.every((w, k) => argv[i + k] === w));
    const homeCover = at("--tmpfs", "/home");
    const shown = at("--ro-bind-try", project, project);
    const runsAgain = argv.findIndex((w, i) => i > shown && w === "--tmpfs" && argv[i + 1] === `${project}/runs`);
    expect(homeCover).toBeGreaterThan(0);
    expect(shown).toBeGreaterThan(homeCover);
    expect(runsAgain).toBeGreaterThan(shown);
    expect(at("--bind", ws, ws)).toBeGreaterThan(runsAgain);
    // Visible anyway (not under a cover): not bound again; inside the runs root: never shown.
    expect(at("--ro-bind-try", "/opt/tools", "/opt/tools")).toBe(-1);
    expect(argv.join(" ")).not.toContain("--ro-bind-try /home/ada/proj/runs/2026");
    // A read-write bind is made wherever it is, the system being read-only.
    expect(at("--bind", "/data/shared", "/data/shared")).toBeGreaterThan(0);
  });
  test("takes every privilege away, hides /tmp, the homes and the runs root, binds the workspace and HOME writable, re-exposes a kept install, then locks the hidden layers", () => {
    const ws = "/srv/runs/2026-01-01T00-00-00/glide/workspace";
    const home = "/srv/runs/2026-01-01T00-00-00/glide/agent-home";
    const argv = bwrapArgv({ bin: "/usr/bin/bwrap", userns: true }, ["claude", "-p", "hi"], {
      workspace: ws,
      writable: [home],
      keep: ["/srv/runs/node_modules", "/opt/tools"],
    });
    expect(argv).toEqual([
      "/usr/bin/bwrap",
      "--unshare-user",
      "--uid",
      "1000",
      "--gid",
      "1000",
      "--cap-drop",
      "ALL",
      "--unshare-pid",
      "--unshare-ipc",
      "--die-with-parent",
      "--new-session",
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--perms",
      "1777",
      "--tmpfs",
      "/tmp",
      "--tmpfs",
      "/root",
      "--tmpfs",
      "/home",
      "--tmpfs",
      "/srv/runs",
      "--perms",
      "0755",
      "--dir",
      "/srv/runs/2026-01-01T00-00-00",
      "--perms",
      "0755",
      "--dir",
      "/srv/runs/2026-01-01T00-00-00/glide",
      "--bind",
      ws,
      ws,
      "--bind",
      home,
      home,
      "--ro-bind",
      "/srv/runs/node_modules",
      "/srv/runs/node_modules",
      "--remount-ro",
      "/root",
      "--remount-ro",
      "/home",
      "--remount-ro",
      "/srv/runs",
      "--chdir",
      ws,
      "claude",
      "-p",
      "hi",
    ]);
    // Without user namespaces the capabilities still go.
    const plain = bwrapArgv({ bin: "/usr/bin/bwrap", userns: false }, ["x"], { workspace: ws });
    expect(plain.slice(0, 8)).toEqual([
      "/usr/bin/bwrap",
      "--cap-drop",
      "ALL",
      "--unshare-pid",
      "--unshare-ipc",
      "--die-with-parent",
      "--new-session",
      "--ro-bind",
    ]);
  });

  test("as root: no user namespace; setpriv makes the agent nobody, keeping only what it needs until then", () => {
    const ws = "/srv/runs/2026-01-01T00-00-00/glide/workspace";
    const drop = { setpriv: "/usr/bin/setpriv", uid: AGENT_UID_AS_ROOT };
    const argv = bwrapArgv({ bin: "/usr/bin/bwrap", userns: true, dropTo: drop }, ["sh", "-c", "x"], { workspace: ws });
    expect(argv.slice(0, 15)).toEqual([
      "/usr/bin/bwrap",
      "--cap-drop",
      "ALL",
      "--cap-add",
      "CAP_SETUID",
      "--cap-add",
      "CAP_SETGID",
      "--cap-add",
      "CAP_SETPCAP",
      "--cap-add",
      "CAP_DAC_READ_SEARCH",
      "--unshare-pid",
      "--unshare-ipc",
      "--die-with-parent",
      "--new-session",
    ]);
    expect(argv).not.toContain("--unshare-user");
    expect(argv.slice(-12)).toEqual([
      "--chdir",
      ws,
      "/usr/bin/setpriv",
      "--reuid=65534",
      "--regid=65534",
      "--clear-groups",
      "--inh-caps=-all",
      "--bounding-set=-all",
      "--",
      "sh",
      "-c",
      "x",
    ]);
  });

  test("as root, a directory above the runs root that others cannot enter is covered too, parents first", () => {
    const closed = (w: string) => (w.startsWith("/srv/private/") ? ["/srv/private"] : []);
    expect(hiddenDirs("/srv/private/runs/t/glide/workspace", closed)).toEqual([
      "/tmp",
      "/root",
      "/home",
      "/srv/private",
      "/srv/private/runs",
    ]);
    // Inside a cover already: nothing more to cover.
    expect(hiddenDirs("/root/runs/t/glide/workspace", () => ["/root"])).toEqual(["/tmp", "/root", "/home", "/root/runs"]);
  });

  test("handOver gives the workspace, what the harness wrote in it and the writable trees to the agent, following no link", () => {
    const dir = tempRoot();
    const ws = join(dir, "workspace");
    const home = join(dir, "agent-home");
    mkdirSync(join(home, "sub"), { recursive: true });
    mkdirSync(ws);
    writeFileSync(join(ws, "logs.txt"), "the harness's copy\n");
    writeFileSync(join(home, "sub", "config.toml"), "x");
    const outside = join(dir, "outside.txt");
    writeFileSync(outside, "not the agent's");
    symlinkSync(outside, join(home, "link"));
    symlinkSync(dir, join(ws, "up"));
    const me = process.getuid?.() ?? 0;
    // As a user, ownership cannot be given away: hand over to oneself, which must leave everything as it was.
    const to = me === 0 ? AGENT_UID_AS_ROOT : me;
    handOver({ workspace: ws, writable: [home] }, to);
    for (const p of [ws, join(ws, "logs.txt"), join(home, "sub"), join(home, "sub", "config.toml")])
      expect(statSync(p).uid).toBe(to);
    for (const p of [join(home, "link"), join(ws, "up")]) expect(lstatSync(p).uid).toBe(to);
    // Links are not followed: their targets stay the harness's.
    expect(statSync(outside).uid).toBe(me);
    // Nor is a hard link's other name handed over through it.
    const precious = join(dir, "precious.txt");
    writeFileSync(precious, "root's");
    linkSync(precious, join(ws, "hard"));
    handOver({ workspace: ws }, to);
    expect(statSync(precious).uid).toBe(me);
    expect(statSync(dir).uid).toBe(me);
    // A file the harness writes later is handed over at the next turn, though the workspace is the agent's now.
    writeFileSync(join(ws, "AGENTS.md"), "notes");
    handOver({ workspace: ws }, to);
    expect(statSync(join(ws, "AGENTS.md")).uid).toBe(to);
    // Read-only arms: only the answer file is the agent's.
    writeFileSync(join(dir, "answer.json"), "{}");
    const ro = join(dir, "ro-ws");
    mkdirSync(ro);
    handOver({ workspace: ro, onlyWritableFiles: [join(dir, "answer.json")] }, to);
    expect(statSync(join(dir, "answer.json")).uid).toBe(to);
    expect(statSync(ro).uid).toBe(me);
  });

  test("a runs root at / hides the stamp directory instead; a workspace at the top hides only /tmp and the homes", () => {
    expect(hiddenDirs("/2026/glide/workspace")).toEqual(["/tmp", "/root", "/home", "/2026"]);
    expect(hiddenDirs("/tmp/x/t/glide/workspace")).toEqual(["/tmp", "/root", "/home", "/tmp/x"]);
    expect(hiddenDirs("/glide/workspace")).toEqual(["/tmp", "/root", "/home"]);
    expect(hiddenDirs("/home/ann/runs/t/glide/workspace")).toEqual(["/tmp", "/root", "/home", "/home/ann/runs"]);
  });

  test("an npm-installed CLI keeps its whole node_modules visible", () => {
    expect(installDir("/nowhere/proj/node_modules/@openai/codex/bin/codex.js")).toBe("/nowhere/proj/node_modules");
    expect(installDir("/nowhere/bin/claude")).toBe("/nowhere/bin");
  });

  test("--sandbox bwrap without a working bwrap is an error naming the fix; auto falls back to none", () => {
    const missing = () => null;
    const e = chooseSandbox("bwrap", missing)._unsafeUnwrapErr();
    expect(e.code).toBe("no-sandbox");
    expect(e.fix).toContain("apt-get install bubblewrap");
    expect(chooseSandbox("auto", missing)._unsafeUnwrap().kind).toBe("none");
    expect(chooseSandbox("auto", () => ({ bin: "/usr/bin/bwrap", userns: true }))._unsafeUnwrap().kind).toBe("bwrap");
    expect(chooseSandbox("none", () => ({ bin: "/usr/bin/bwrap", userns: true }))._unsafeUnwrap().kind).toBe("none");
  });
});

/**
 * Each attack appends "<name> ok" or "<name> failed" to attacks.txt in the workspace. `..` is the run
 * directory (the master log, index, events), `../../neighbour` another game of the same invocation, `../../..`
 * the runs root.
 */
const HOSTILE = [
  `if head -c 100 ../logs.txt > /dev/null 2>&1; then echo "read-master ok"; else echo "read-master failed"; fi >> attacks.txt`,
  `if echo pwned > ../escape.txt 2>/dev/null; then echo "write-run-dir ok"; else echo "write-run-dir failed"; fi >> attacks.txt`,
  `if echo pwned > ../../../escape.txt 2>/dev/null; then echo "write-runs-root ok"; else echo "write-runs-root failed"; fi >> attacks.txt`,
  `if cat ../../neighbour/workspace/secret.txt > /dev/null 2>&1; then echo "read-neighbour ok"; else echo "read-neighbour failed"; fi >> attacks.txt`,
  `if printf 'Action 99 | forged\\n' >> logs.txt 2>/dev/null; then echo "tamper ok"; else echo "tamper failed"; fi >> attacks.txt`,
  `printf '{"actions":["ACTION4"]}' > actions.json`,
].join("; ");

async function hostileRun(sandbox: "bwrap" | "none") {
  const root = tempRoot();
  // A neighbour game in the same invocation (same stamp), with a file in its workspace.
  const neighbour = await play(
    {
      game: "glide",
      agent: "command",
      cmd: `echo the-secret > secret.txt; printf '{"actions":["ACTION1"]}' > actions.json`,
      maxActions: 1,
      sandbox,
    },
    { root, name: "neighbour" },
  );
  expect(readFileSync(join(neighbour.session.paths.workspace, "secret.txt"), "utf8")).toBe("the-secret\n");
  const run = await play({ game: "glide", agent: "command", cmd: HOSTILE, maxActions: 2, sandbox }, { root, name: "hostile" });
  const attacks = readFileSync(join(run.session.paths.workspace, "attacks.txt"), "utf8").trim().split("\n");
  return { root, run, attacks };
}

describe.skipIf(!HAVE_BWRAP)("a hostile command agent under bwrap", () => {
  test("cannot read the master, write outside its workspace or read another game's workspace; its tamper is repaired and recorded", async () => {
    const { root, run, attacks } = await hostileRun("bwrap");
    expect(run.end.reason).toBe("max-actions");
    // Two turns, five attacks each.
    const turn = ["read-master failed", "write-run-dir failed", "write-runs-root failed", "read-neighbour failed", "tamper ok"];
    expect(attacks).toEqual([...turn, ...turn]);
    expect(existsSync(join(run.session.paths.dir, "escape.txt"))).toBe(false);
    expect(existsSync(join(root, "escape.txt"))).toBe(false);
    // The forged line never reaches the master; the second sync found it, rewrote the copy and recorded it.
    expect(run.master).not.toContain("forged");
    const tampers = readEventsFile(run.session.paths.events).filter((e) => e.kind === "tamper");
    expect(tampers.length).toBe(1);
    expect(run.session.tally.tamperEvents).toBe(1);
    const copy = readFileSync(run.session.paths.copy, "utf8");
    expect(copy.endsWith("Action 99 | forged\n")).toBe(true); // the second turn's forgery, after the last sync
    expect(run.master.startsWith(copy.slice(0, -"Action 99 | forged\n".length))).toBe(true);
  }, 60_000);
});

/** A file only root may read, outside every cover (/var/tmp): what a process mapped to root outside could read. */
const ROOT_ONLY = `/var/tmp/prolong-root-only-${process.pid}.txt`;

/**
 * What root inside the sandbox tries: every capability it still has, unmounting the covers, remounting /
 * writable, reading a file only root may read.
 */
const ROOT_ESCAPE = [
  `grep CapEff /proc/self/status > caps.txt`,
  `id -u > uid.txt`,
  `if umount -l /tmp 2>/dev/null; then echo "umount ok"; else echo "umount failed"; fi >> attacks.txt`,
  `if mount -o remount,bind,rw / 2>/dev/null; then echo "remount ok"; else echo "remount failed"; fi >> attacks.txt`,
  `if ls /root > /dev/null 2>&1 && [ -n "$(ls -A /root)" ]; then echo "read-root-home ok"; else echo "read-root-home failed"; fi >> attacks.txt`,
  `if touch /etc/prolong-escape 2>/dev/null; then echo "write-etc ok"; else echo "write-etc failed"; fi >> attacks.txt`,
  `if cat ${ROOT_ONLY} > /dev/null 2>&1; then echo "read-root-only-file ok"; else echo "read-root-only-file failed"; fi >> attacks.txt`,
  `printf '{"actions":["ACTION4"]}' > actions.json`,
].join("; ");

const NOT_ROOT_BWRAP = !HAVE_BWRAP || process.getuid?.() !== 0;
describe.skipIf(NOT_ROOT_BWRAP)(`root inside bwrap${NOT_ROOT_BWRAP ? " (skipped: needs bwrap and a run as root)" : ""}`, () => {
  test("is nobody with no capability: cannot unmount the covers, remount / writable, read /root, write the system or read root's files", async () => {
    expect(probeBwrap()?.dropTo?.uid).toBe(AGENT_UID_AS_ROOT);
    writeFileSync(ROOT_ONLY, "root's secret\n", { mode: 0o600 });
    const root = tempRoot();
    const run = await play(
      { game: "glide", agent: "command", cmd: ROOT_ESCAPE, maxActions: 1, sandbox: "bwrap" },
      { root, name: "escape" },
    );
    expect(run.end.reason).toBe("max-actions");
    const ws = run.session.paths.workspace;
    expect(readFileSync(join(ws, "caps.txt"), "utf8").trim()).toBe("CapEff:\t0000000000000000");
    // Not root inside, and not root outside either: nobody, so files are checked as nobody's.
    expect(readFileSync(join(ws, "uid.txt"), "utf8").trim()).toBe(String(AGENT_UID_AS_ROOT));
    expect(readFileSync(join(ws, "attacks.txt"), "utf8").trim().split("\n")).toEqual([
      "umount failed",
      "remount failed",
      "read-root-home failed",
      "write-etc failed",
      "read-root-only-file failed",
    ]);
    expect(existsSync("/etc/prolong-escape")).toBe(false);
    rmSync(ROOT_ONLY, { force: true });
  }, 60_000);
});

describe("the same hostile agent without a sandbox", () => {
  test("every attack succeeds (so the bwrap test above can fail)", async () => {
    const { root, run, attacks } = await hostileRun("none");
    expect(attacks.slice(0, 5)).toEqual([
      "read-master ok",
      "write-run-dir ok",
      "write-runs-root ok",
      "read-neighbour ok",
      "tamper ok",
    ]);
    expect(readFileSync(join(run.session.paths.dir, "escape.txt"), "utf8")).toBe("pwned\n");
    expect(existsSync(join(root, "escape.txt"))).toBe(true);
    expect(run.master).not.toContain("forged"); // the tamper repair does not depend on the sandbox
  }, 60_000);
});

describe("the agent's environment", () => {
  test("under bwrap: the basics, the CLIs' own variables and --pass-env names; nothing else", () => {
    const env = {
      PATH: "/bin",
      HOME: "/h",
      LC_ALL: "C",
      ANTHROPIC_API_KEY: "k",
      OPENAI_BASE_URL: "u",
      PROLONG_TURN: "1",
      AWS_SECRET_ACCESS_KEY: "s",
      GITHUB_TOKEN: "t",
      MY_TOOL: "m",
    };
    expect(agentEnvironment(env, ["MY_TOOL"])).toEqual({
      PATH: "/bin",
      HOME: "/h",
      LC_ALL: "C",
      ANTHROPIC_API_KEY: "k",
      OPENAI_BASE_URL: "u",
      PROLONG_TURN: "1",
      MY_TOOL: "m",
    });
    expect(chooseSandbox("none")._unsafeUnwrap().environment(env)).toEqual(env);
    // The harness's TMPDIR is hidden under bwrap (with /tmp): the agent's is its own fresh /tmp.
    const bwrap = chooseSandbox("bwrap", () => ({ bin: "/usr/bin/bwrap", userns: true }))._unsafeUnwrap();
    expect(bwrap.environment({ ...env, TMPDIR: "/tmp/harness-tmp" })["TMPDIR"]).toBe("/tmp");
    expect(bwrap.environment(env)["TMPDIR"]).toBeUndefined();
  });

  test.skipIf(!HAVE_BWRAP)(
    `a command agent under bwrap sees PATH and the passed name, not the harness's secrets${HAVE_BWRAP ? "" : " (skipped: bwrap cannot run here)"}`,
    async () => {
      const run = await withEnv({ SECRET_FOR_ENV_TEST: "hunter2", PASSED_FOR_ENV_TEST: "yes" }, () =>
        play({
          game: "glide",
          agent: "command",
          cmd: `env > env.txt; printf '{"actions":["ACTION1"]}' > actions.json`,
          maxActions: 1,
          sandbox: "bwrap",
          passEnv: ["PASSED_FOR_ENV_TEST"],
        }),
      );
      const seen = readFileSync(join(run.session.paths.workspace, "env.txt"), "utf8");
      expect(seen).toMatch(/^PATH=/m);
      expect(seen).toContain("PASSED_FOR_ENV_TEST=yes");
      expect(seen).not.toContain("hunter2");
    },
    60_000,
  );
});
