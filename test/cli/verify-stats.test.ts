// `prolong verify` and `prolong log stats` as a user runs them: exit codes and messages, on the real logs and
// on broken input.
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");
const FIXTURES = resolve(ROOT, "..", "shared", "fixtures", "prolong-release");
const haveFixtures = existsSync(FIXTURES);
if (!haveFixtures) console.log(`skipping fixture CLI tests: ${FIXTURES} is absent (a checkout without ../shared)`);

function prolong(...args: string[]) {
  const r = spawnSync(process.execPath, [join(ROOT, "src/main.ts"), ...args], { encoding: "utf8" });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const tmp = mkdtempSync(join(tmpdir(), "prolong-cli-"));

describe.skipIf(!haveFixtures)("on the real logs", () => {
  const master = join(FIXTURES, "ft09", "logs.txt");
  const copy = join(FIXTURES, "ft09", "workspace", "logs.txt");

  test("verify: the agent's copy is a prefix (exit 0); reversed it has extra bytes (exit 1)", () => {
    const ok = prolong("verify", master, copy, "--json");
    expect(ok.code).toBe(0);
    const r = JSON.parse(ok.out);
    expect(r.prefix).toBe(true);
    expect(r.pendingBytes).toBe(402471 - 338380);
    const rev = prolong("verify", copy, master);
    expect(rev.code).toBe(1);
    expect(rev.out).toContain(`first differing byte at offset 338380`);
    expect(rev.out).toContain(`${402471 - 338380} extra byte(s)`);
  });

  test("verify: one byte edited inside an action section is found, with the section's action", () => {
    const bytes = readFileSync(copy);
    const text = bytes.toString("latin1");
    const at = text.indexOf("Tool Call: ACTION6", text.indexOf("Action 3 |"));
    bytes[at + 5] = "X".charCodeAt(0);
    const edited = join(tmp, "edited.txt");
    writeFileSync(edited, bytes);
    const r = prolong("verify", master, edited, "--json");
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out);
    expect(j.firstDiff).toBe(at + 5);
    expect(j.diffAction).toBe(3);
    expect(j.masterBytesAfterDiff).toBe(402471 - (at + 5));
  });

  test("log stats: the figures of ft09 and cn04", () => {
    const ft = JSON.parse(prolong("log", "stats", master, "--json").out);
    expect(ft).toMatchObject({
      bytes: 402471,
      lines: 6549,
      sections: 83,
      actions: 82,
      lastAction: 82,
      levels: 6,
      finalScore: 6,
      maxAttempt: 1,
      gameOvers: 0,
      cut: null,
    });
    const cn = JSON.parse(prolong("log", "stats", join(FIXTURES, "cn04", "logs.txt"), "--json").out);
    expect(cn).toMatchObject({ sections: 250, actions: 249, finalScore: 6, frames: 261, animatedSections: 6 });
  });

  test("log stats: a log cut mid-board reports its complete sections and names the cut one", () => {
    const text = readFileSync(master, "utf8");
    const cutAt = text.indexOf("[POST-ACTION BOARD STATE]", text.indexOf("Action 40 |")) + 300;
    const cut = join(tmp, "cut.txt");
    writeFileSync(cut, text.slice(0, cutAt));
    const r = prolong("log", "stats", cut);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/CUT\s+section 41 \(Action 40\) at byte \d+ ends mid-board/);
    expect(r.out).toMatch(/sections\s+41/);
  });
});

describe("bad input gets a clear error and exit 2", () => {
  test("missing, empty, binary and header-less files", () => {
    const missing = prolong("log", "stats", join(tmp, "nope.txt"));
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("nope.txt: no such file");
    writeFileSync(join(tmp, "empty.txt"), "");
    const empty = prolong("log", "stats", join(tmp, "empty.txt"));
    expect(empty.code).toBe(2);
    expect(empty.err).toContain("the file is empty; expected a prolong log");
    writeFileSync(join(tmp, "bin.dat"), new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2]));
    const bin = prolong("verify", join(tmp, "bin.dat"), join(tmp, "bin.dat"));
    expect(bin.code).toBe(2);
    expect(bin.err).toContain("binary");
    writeFileSync(join(tmp, "notes.txt"), "just some notes\nno log here\n");
    const notes = prolong("log", "stats", join(tmp, "notes.txt"));
    expect(notes.code).toBe(2);
    expect(notes.err).toContain("no section separator found");
    const dir = prolong("log", "stats", tmp);
    expect(dir.code).toBe(2);
    expect(dir.err).toContain("is a directory");
  });

  test("unknown flags and commands name the fix", () => {
    const flag = prolong("verify", "--bogus", "a", "b");
    expect(flag.code).toBe(2);
    expect(flag.err).toContain("prolong verify:");
    expect(flag.err).toContain("prolong verify --help");
    const cmd = prolong("fly");
    expect(cmd.code).toBe(2);
    expect(cmd.err).toContain("unknown command 'fly'");
  });
});
