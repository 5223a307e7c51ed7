// The README's quick start with the binary, command for command as written there, through the real CLI in a
// fresh directory: list the games, play glide for 100 actions, write the replay of that run.
import { expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dir, "../..");
const MAIN = path.join(ROOT, "src/main.ts");

/** The commands of the README's binary quick start (the fenced block after "With the single binary"). */
function quickStart(): string[][] {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const block = /With the single binary[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
  return block
    .split("\n")
    .map((l) => l.replace(/\s+#.*$/, "").trim())
    .filter((l) => l.startsWith("prolong "))
    .map((l) => l.split(/\s+/).slice(1));
}

test("the README's binary quick start runs as written: games, play glide --max-actions 100, view", () => {
  const steps = quickStart();
  expect(steps.map((s) => s.slice(0, 2).join(" "))).toEqual(["games", "play glide", "view runs/<stamp>/glide", "play glide"]);
  const cwd = mkdtempSync(path.join(tmpdir(), "prolong-quick-"));
  const run = (args: string[]) => {
    const p = Bun.spawnSync([process.execPath, MAIN, ...args], { cwd, stdout: "pipe", stderr: "pipe" });
    return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
  };
  const games = run(steps[0]!);
  expect(games.code).toBe(0);
  expect(games.out).toContain("glide");
  const play = run(steps[1]!);
  expect(play.code).toBe(0);
  expect(play.out).toMatch(/glide: (win|max-actions)/);
  const [stamp] = readdirSync(path.join(cwd, "runs"));
  const view = run(steps[2]!.map((a) => a.replace("<stamp>", stamp!)));
  expect(view.code).toBe(0);
  expect(existsSync(path.join(cwd, "runs", stamp!, "glide", "view.html"))).toBe(true);
  // The last one needs a person at a terminal (test/cli/human-play.test.ts drives it through a pseudo-terminal).
  expect(steps[3]).toEqual(["play", "glide", "--agent", "human"]);
});
