// A play whose stderr is not a terminal (a log file, a pipe, CI) is not silent until the end: a plain progress
// line follows the first agent call; and the model server the mini agent calls is named before the first call,
// not only after a dead server's retries are spent. Both through the real command.
import { describe, expect, test } from "bun:test";
import path from "node:path";
import { tempRoot } from "../run/helpers.ts";

const MAIN = path.resolve(import.meta.dir, "../../src/main.ts");

describe("play's progress on a non-terminal stderr", () => {
  test("a line after the first agent call: the game, the action count, the call", () => {
    const p = Bun.spawnSync([process.execPath, MAIN, "play", "glide", "--max-actions", "5", "--runs-dir", tempRoot()], {
      stdout: "pipe",
      stderr: "pipe",
      timeout: 60_000,
    });
    expect(p.exitCode).toBe(0);
    expect(p.stderr.toString()).toMatch(/^prolong: glide {2}action \d+\/5 {2}level \d+\/\d+ {2}score \d+ {2}call 1 {2}[\d.]+s$/m);
    expect(p.stderr.toString()).not.toContain("\r");
  }, 90_000);

  test("the mini agent's server is named at once, before its first call is tried", async () => {
    // A port nobody listens on: a closed port's server fails only after the call's retries.
    const closed = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    const port = closed.port;
    closed.stop(true);
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== "OPENAI_API_KEY"));
    const args = ["play", "glide", "--agent", "mini", "--model", "m", "--base-url", `http://127.0.0.1:${port}/v1`];
    const p = Bun.spawn([process.execPath, MAIN, ...args, "--runs-dir", tempRoot()], {
      env: { ...clean, OPENAI_API_KEY: "k" },
      stdout: "ignore",
      stderr: "pipe",
    });
    const want = `prolong: calling the model API at http://127.0.0.1:${port}/v1 (model m)`;
    let seen = "";
    const decoder = new TextDecoder();
    const reader = p.stderr.getReader();
    while (!seen.includes("\n")) {
      const chunk = await reader.read();
      if (chunk.done) break;
      seen += decoder.decode(chunk.value);
    }
    p.kill("SIGKILL");
    await p.exited;
    // The first thing said, while the run is still trying (not the failure after the retries).
    expect(seen.split("\n")[0]).toBe(want);
  }, 90_000);
});
