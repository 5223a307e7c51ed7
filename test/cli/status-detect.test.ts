// `prolong status` through the real CLI: a client counts as found only when its command is on PATH. The .claude/
// directory that `prolong init` itself creates used to make an absent Claude Code show as detected.
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempRoot } from "../run/helpers.ts";

const MAIN = path.resolve(import.meta.dir, "../../src/main.ts");

function prolong(args: string[], cwd: string, envPath: string) {
  const p = Bun.spawnSync([process.execPath, MAIN, ...args], {
    cwd,
    env: { ...process.env, PATH: envPath },
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

interface StatusJson {
  clients: { name: string; detected: boolean; installed: boolean }[];
}

function claudeOf(out: string) {
  return (JSON.parse(out) as StatusJson).clients.find((c) => c.name === "claude");
}

describe("status: detected means the command is on PATH", () => {
  test("after init --client claude with no claude on PATH: installed, not detected", () => {
    const root = tempRoot();
    const bin = path.join(root, "empty-bin");
    mkdirSync(bin);
    const project = path.join(root, "project");
    mkdirSync(project);
    expect(prolong(["init", "--client", "claude"], project, bin).code).toBe(0);
    const text = prolong(["status"], project, bin);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^claude\s+intact \(command not on PATH\)$/m);
    const json = prolong(["status", "--json"], project, bin);
    expect(claudeOf(json.out)).toMatchObject({ detected: false, installed: true });
  }, 60_000);

  test("with a claude command on PATH: detected", () => {
    const root = tempRoot();
    const bin = path.join(root, "bin");
    mkdirSync(bin);
    writeFileSync(path.join(bin, "claude"), "#!/bin/sh\nexit 0\n");
    chmodSync(path.join(bin, "claude"), 0o755);
    const project = path.join(root, "project");
    mkdirSync(project);
    expect(prolong(["init", "--client", "claude"], project, bin).code).toBe(0);
    const text = prolong(["status"], project, bin);
    expect(text.out).toMatch(/^claude\s+intact$/m);
    expect(claudeOf(prolong(["status", "--json"], project, bin).out)).toMatchObject({ detected: true, installed: true });
  }, 60_000);
});
