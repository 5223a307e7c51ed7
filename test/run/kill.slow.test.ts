// kill -9 of the real CLI at 20 points of a run (20 kills that landed), each a random action number, and `prolong resume`: every
// resumed log is byte-identical to the uninterrupted run's. The kill is sent when the run's own event stream
// (--json) reports the chosen action, so where it lands depends on the run, not on this machine's speed.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { seededRandom } from "../../src/random.ts";
import { BUN, MAIN, playAndKill } from "../support/prolong-process.ts";
import { tempRoot } from "./helpers.ts";

const ACTIONS = 120;
const PLAY = ["play", "glide", "--max-actions", String(ACTIONS), "--quiet"];

describe("kill -9, then prolong resume", () => {
  test("at 20 random actions where the kill landed: every resumed log is byte-identical to the uninterrupted run", async () => {
    const whole = tempRoot();
    expect(Bun.spawnSync([BUN, MAIN, ...PLAY, "--runs-dir", whole]).exitCode).toBe(0);
    const stampOf = (root: string) => readdirSync(root)[0]!;
    const reference = readFileSync(join(whole, stampOf(whole), "glide", "logs.txt"), "utf8");
    const random = seededRandom(20261201);
    let landed = 0;
    let trials = 0;
    // A kill lands unless the child played its last actions before this reader saw the event (its events sit in
    // the pipe's buffer, so under load it can run ahead): such a trial still checks resume, and trials go on until
    // 20 kills have landed, at most 40, so a loaded machine costs trials instead of failing the test.
    while (landed < 20 && trials < 40) {
      trials++;
      const root = tempRoot();
      const at = 1 + Math.floor(random() * (ACTIONS - 1));
      if (await playAndKill([...PLAY, "--runs-dir", root], (e) => e["kind"] === "action" && Number(e["action"]) >= at)) landed++;
      const dir = join(root, stampOf(root), "glide");
      expect(existsSync(join(dir, "logs.txt"))).toBe(true);
      const r = Bun.spawnSync([BUN, MAIN, "resume", dir, "--quiet"], { stderr: "pipe" });
      // A kill that lands after the run recorded its end leaves nothing to resume; resume says so.
      if (r.exitCode !== 0) expect(r.stderr.toString()).toContain("this run already ended");
      expect(readFileSync(join(dir, "logs.txt"), "utf8")).toBe(reference);
    }
    expect(landed).toBe(20);
  }, 600_000);
});
