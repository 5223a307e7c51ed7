// Many runs as child processes: planning, separate directories and seeds, the summary (Ctrl-C leaving every
// started run resumable is in swarm.slow.test.ts).
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { selfCommandFor } from "../../src/run/swarm.ts";
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

describe("selfCommandFor", () => {
  test("bun src/main.ts in a checkout; the binary alone when compiled", () => {
    expect(selfCommandFor("/src/prolong/src/main.ts", "/usr/bin/bun")).toEqual(["/usr/bin/bun", "/src/prolong/src/main.ts"]);
    expect(selfCommandFor("/$bunfs/root/prolong", "/usr/local/bin/prolong")).toEqual(["/usr/local/bin/prolong"]);
  });
});

describe("prolong play --games --runs --parallel", () => {
  test("each run in its own directory and workspace, seeds differ, scorecards valid, one summary", () => {
    const root = tempRoot();
    const r = Bun.spawnSync([
      BUN,
      MAIN,
      "play",
      "--games",
      "glide,vault",
      "--runs",
      "2",
      "--parallel",
      "2",
      // Few actions: the seeds' games differ from their first board on.
      "--max-actions",
      "5",
      "--runs-dir",
      root,
      "--json",
    ]);
    expect(r.exitCode).toBe(0);
    const lines = jsonLines(r.stdout.toString());
    const summary = lines.at(-1)!;
    expect(summary.kind).toBe("swarm-summary");
    const runs = summary.runs as { run: string; dir: string; seed: number; state: string; actions: number }[];
    expect(runs.map((x) => [x.run, x.seed, x.state, x.actions])).toEqual([
      ["glide-r1", 0, "done", 5],
      ["glide-r2", 1, "done", 5],
      ["vault-r1", 0, "done", 5],
      ["vault-r2", 1, "done", 5],
    ]);
    // The children's events are passed through, each naming its run.
    const runNames = new Set(lines.filter((l) => l.kind === "action").map((l) => String(l.run).split("/")[1]));
    expect([...runNames].sort()).toEqual(["glide-r1", "glide-r2", "vault-r1", "vault-r2"]);
    for (const x of runs) {
      const card = readScorecard(path.join(x.dir, "scorecard.json"))._unsafeUnwrap();
      expect(card.settings.seed).toBe(x.seed);
      expect(card.run.endsWith(`/${x.run}`)).toBe(true);
      expect(existsSync(path.join(x.dir, "workspace", "logs.txt"))).toBe(true);
    }
    // Different seeds: different games of the same id, so different logs.
    const log = (i: number) => readFileSync(path.join(runs[i]!.dir, "logs.txt"), "utf8");
    expect(log(0)).not.toBe(log(1));
  });
});
