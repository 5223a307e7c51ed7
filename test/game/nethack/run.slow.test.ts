// A whole-process trial of NetHack through the real loop: `prolong play --env nethack` killed with SIGKILL
// mid-episode, then resumed, writes the log an uninterrupted run writes. The fast tier keeps the in-process
// counterpart (run.test.ts: the game killed under the harness, the run resumed to the same log).
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { resumeRun } from "../../../src/run/resume.ts";
import { runLoop } from "../../../src/run/runner.ts";
import { finishRun } from "../../../src/run/finish.ts";
import { playGame, tempRoot } from "../../run/helpers.ts";
import { NO_NETHACK } from "./helpers.ts";

const ROOT = join(import.meta.dir, "..", "..", "..");

describe.skipIf(NO_NETHACK)(`NetHack killed${NO_NETHACK ? " (skipped: NetHack not installed)" : ""}`, () => {
  test("kill -9 mid-episode, then resume: the log an uninterrupted run writes", async () => {
    const flags = ["--env", "nethack", "--seed", "2", "--max-actions", "150", "--quiet"];
    const whole = await playGame({ game: "nethack", env: "nethack", seed: 2, maxActions: 150 });

    const root = tempRoot();
    const child = Bun.spawn(["bun", join(ROOT, "src/main.ts"), "play", ...flags, "--json", "--runs-dir", root], {
      stdout: "pipe",
      stderr: "ignore",
    });
    const reader = child.stdout.getReader();
    let text = "";
    // The child's events on stdout say how far it is; it is killed once 60 actions are in the log.
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
      const actions = [...text.matchAll(/"kind":"action","action":(\d+)/g)].map((m) => Number(m[1]));
      if (actions.some((a) => a >= 60)) break;
    }
    child.kill("SIGKILL");
    await child.exited;
    const run = /"run":"([^"]+)"/.exec(text)?.[1];
    expect(run).toBeDefined();
    const runDir = join(root, run!);
    expect(readFileSync(join(runDir, "logs.txt"), "utf8").length).toBeLessThan(whole.master.length);

    const session = (await resumeRun(runDir))._unsafeUnwrap();
    const end = await runLoop(session, new AbortController().signal);
    await finishRun(session, end);
    expect(end.reason).toBe(whole.end.reason);
    const resumed = readFileSync(join(runDir, "logs.txt"), "utf8");
    if (resumed !== whole.master) {
      const a = resumed.split("\n");
      const b = whole.master.split("\n");
      const at = a.findIndex((l, i) => l !== b[i]);
      console.log(
        "FIRST DIFF at line",
        at,
        "\n",
        a.slice(Math.max(0, at - 40), at + 3).join("\n"),
        "\n----\n",
        b.slice(at - 3, at + 3).join("\n"),
      );
    }
    expect(resumed).toBe(whole.master);
  }, 180_000);
});
