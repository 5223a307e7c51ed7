// Finding out whether bubblewrap works here runs bwrap once; only a game that starts a process of its own
// (NetHack) needs the answer for itself. A grid game played by the built-in explorer (no agent process either)
// must not pay for it: a bwrap on PATH that records each call shows whether it was asked.
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { prolong } from "../support/prolong-process.ts";

function recordingBwrap(): { bin: string; calls: string } {
  const root = mkdtempSync(join(tmpdir(), "prolong-probe-"));
  const bin = join(root, "bin");
  const calls = join(root, "calls");
  mkdirSync(bin);
  // Answers as a bwrap that cannot build a sandbox, after writing down that it was asked.
  writeFileSync(join(bin, "bwrap"), `#!/bin/sh\necho "$*" >> '${calls}'\nexit 1\n`);
  chmodSync(join(bin, "bwrap"), 0o755);
  return { bin, calls };
}

describe("the game's sandbox is asked for only by a game that starts a process", () => {
  test("play glide with the explorer under --sandbox auto: bwrap is never run", () => {
    const { bin, calls } = recordingBwrap();
    const runs = mkdtempSync(join(tmpdir(), "prolong-probe-runs-"));
    const r = prolong(["play", "glide", "--agent", "explorer", "--max-actions", "5", "--quiet", "--runs-dir", runs], {
      env: { PATH: `${bin}:${process.env["PATH"]}` },
    });
    expect(r.code).toBe(0);
    expect(existsSync(calls) ? readFileSync(calls, "utf8") : "").toBe("");
  });

  test("the recording bwrap is on the path the run sees: a command agent under --sandbox auto asks it", () => {
    const { bin, calls } = recordingBwrap();
    const runs = mkdtempSync(join(tmpdir(), "prolong-probe-runs-"));
    const agent = `printf '{"actions":["ACTION1"]}' > actions.json`;
    const r = prolong(
      ["play", "glide", "--agent", "command", "--cmd", `sh -c '${agent}'`, "--max-actions", "1", "--quiet", "--runs-dir", runs],
      { env: { PATH: `${bin}:${process.env["PATH"]}` } },
    );
    // It answered "cannot build a sandbox": the run says the agent goes unconfined.
    expect(r.err).toContain("bubblewrap is not installed (or cannot build a sandbox here)");
    expect(readFileSync(calls, "utf8")).toContain("true");
  });
});
