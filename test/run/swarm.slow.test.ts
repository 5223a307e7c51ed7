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

/** `play --games glide,vault --runs 2 --parallel 2 --max-actions 200` into `root`, as a real process. */
function batchArgs(root: string): string[] {
  return [
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
    "200",
    "--runs-dir",
    root,
    "--json",
  ];
}

/** What `prolong score --json` says of each game, without anything that names a directory. */
function gameScores(dir: string): unknown {
  const r = Bun.spawnSync([BUN, MAIN, "score", dir, "--json"]);
  expect(r.exitCode).toBe(0);
  const out = JSON.parse(r.stdout.toString()) as { arms: { name: string; games: unknown[] }[] };
  return out.arms.map((a) => ({ name: a.name, games: a.games }));
}

describe("prolong play --games --runs --parallel, interrupted", () => {
  test("Ctrl-C: started runs stop as interrupted, queued ones never start; one `prolong resume <batch-dir>` finishes the batch, scoring what an uninterrupted batch scores", async () => {
    const root = tempRoot();
    const parent = Bun.spawn(batchArgs(root), { stdout: "pipe", stderr: "pipe" });
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
    expect(await new Response(parent.stderr).text()).toContain("prolong resume ");
    const summary = jsonLines(text).at(-1)!;
    const batchDir = String(summary.dir);
    const runs = summary.runs as { run: string; dir: string; state: string; actions: number }[];
    expect(runs.map((x) => [x.run, x.state])).toEqual([
      ["glide-r1", "interrupted"],
      ["glide-r2", "interrupted"],
      ["vault-r1", "not-started"],
      ["vault-r2", "not-started"],
    ]);
    for (const x of runs.slice(2)) expect(existsSync(path.join(x.dir, "logs.txt"))).toBe(false);
    for (const x of runs.slice(0, 2)) {
      const card = readScorecard(path.join(x.dir, "scorecard.json"))._unsafeUnwrap();
      expect(card.end_reason).toBe("interrupted");
      expect(card.actions).toBeLessThan(200);
    }

    // One command finishes the batch: the interrupted runs resumed, the never-started ones started.
    const resumed = Bun.spawnSync([BUN, MAIN, "resume", batchDir, "--json"]);
    expect(resumed.exitCode).toBe(0);
    const after = jsonLines(resumed.stdout.toString()).at(-1)!;
    expect((after.runs as { run: string; resumed: boolean; state: string }[]).map((x) => [x.run, x.resumed, x.state])).toEqual([
      ["glide-r1", true, "done"],
      ["glide-r2", true, "done"],
      ["vault-r1", false, "done"],
      ["vault-r2", false, "done"],
    ]);
    // Again: every run is complete, nothing runs.
    const again = Bun.spawnSync([BUN, MAIN, "resume", batchDir, "--json"]);
    expect(again.exitCode).toBe(0);
    const none = jsonLines(again.stdout.toString()).at(-1)!;
    expect([none.runs, none.alreadyComplete]).toEqual([[], 4]);

    // The same batch never interrupted scores the same.
    const whole = Bun.spawnSync(batchArgs(tempRoot()));
    expect(whole.exitCode).toBe(0);
    const wholeDir = String(jsonLines(whole.stdout.toString()).at(-1)!.dir);
    expect(gameScores(batchDir)).toEqual(gameScores(wholeDir));
  }, 240_000);
});
