// Ctrl-C on many runs (slow tier: real child processes played to their end): started runs stop as
// interrupted, queued ones never start, each started run resumes to its end.
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import path from "node:path";
import { readScorecard } from "../../src/score/scorecard.ts";
import { tempRoot } from "./helpers.ts";

const MAIN = path.resolve(import.meta.dir, "../../src/main.ts");
const BUN = process.execPath;

interface Line {
  kind: string;
  [k: string]: unknown;
}

function jsonLines(text: string): Line[] {
  return text
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Line);
}

describe("prolong play --games --runs --parallel, interrupted", () => {
  test("Ctrl-C: started runs stop as interrupted, queued ones never start, each started run resumes to its end", async () => {
    const root = tempRoot();
    const parent = Bun.spawn(
      [
        BUN,
        MAIN,
        "play",
        "--games",
        "glide,vault",
        "--runs",
        "2",
        "--parallel",
        "2",
        "--max-actions",
        "400",
        "--runs-dir",
        root,
        "--json",
      ],
      { stdout: "pipe", stderr: "pipe" },
    );
    const reader = parent.stdout.getReader();
    let text = "";
    const seen = new Set<string>();
    // Wait until both running children have taken an action, then interrupt the parent only.
    while (seen.size < 2) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
      for (const l of jsonLines(text.slice(0, text.lastIndexOf("\n") + 1))) if (l.kind === "action") seen.add(String(l.run));
    }
    parent.kill("SIGINT");
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    expect(await parent.exited).toBe(1);
    const summary = jsonLines(text).at(-1)!;
    const runs = summary.runs as { run: string; dir: string; state: string; actions: number }[];
    expect(runs.map((x) => [x.run, x.state])).toEqual([
      ["glide-r1", "interrupted"],
      ["glide-r2", "interrupted"],
      ["vault-r1", "not-started"],
      ["vault-r2", "not-started"],
    ]);
    for (const x of runs.slice(2)) expect(existsSync(x.dir)).toBe(false);
    for (const x of runs.slice(0, 2)) {
      const card = readScorecard(path.join(x.dir, "scorecard.json"))._unsafeUnwrap();
      expect(card.end_reason).toBe("interrupted");
      expect(card.actions).toBeLessThan(400);
      const resumed = Bun.spawnSync([BUN, MAIN, "resume", x.dir, "--json"]);
      expect(resumed.exitCode).toBe(0);
      const after = readScorecard(path.join(x.dir, "scorecard.json"))._unsafeUnwrap();
      expect(["win", "max-actions"]).toContain(after.end_reason);
      expect(after.actions).toBeGreaterThan(card.actions);
    }
  }, 60_000);
});
