// The turn stays readable in one sitting: scripts/turn-walk.ts follows the run's session through one turn of
// the loop (its method is at the top of the script and in docs/design.md). The walk is pinned twice: on a
// small tree whose count is known by hand (so a change to the script's reading shows), and on src/ against a
// ceiling (so a change that makes the turn longer to follow fails here, not in a later reader's head).
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const SCRIPT = join(import.meta.dir, "..", "scripts", "turn-walk.ts");

interface Walk {
  readonly stops: number;
  readonly functions: number;
  readonly files: number;
  readonly returns: number;
  readonly filesRead: readonly string[];
}

function walk(src?: string): Walk {
  const r = Bun.spawnSync([process.execPath, SCRIPT, ...(src ? [src] : [])], { stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`turn-walk exited ${r.exitCode}: ${r.stderr.toString()}`);
  const last = r.stdout.toString().trim().split("\n").pop() ?? "";
  return JSON.parse(last) as Walk;
}

/**
 * The session goes loop → observe (record.ts) → write (log.ts), back, then → ask (record.ts again, a return),
 * which hands `s.tally` on to count (tally.ts); `helper(1)` hands nothing on and is not a stop; observe is called
 * twice (the second a stop, not a second reading); an object literal carrying a part of the session is followed.
 */
const TREE: Record<string, string> = {
  "run/runner.ts": [
    'import { ask, observe } from "./record.ts";',
    "export function loop(s: Session) {",
    "  observe(s);",
    "  helper(1);",
    "  ask({ tally: s.tally });",
    "  observe(s);",
    "}",
    "function helper(n: number) { return n; }",
  ].join("\n"),
  "run/record.ts": [
    'import { write } from "../log/log.ts";',
    'import { count } from "./tally.ts";',
    "export function observe(session: Session) { write(session.master, 'text'); }",
    "export function ask(parts: { tally: Tally }) { count(parts.tally); }",
  ].join("\n"),
  "log/log.ts": "export function write(master: string, text: string) { return master + text; }",
  "run/tally.ts": "export const count = (t: Tally) => { t.n += 1; };",
};

describe("the turn walk", () => {
  test("on a tree counted by hand: 5 stops, 5 functions, 4 files, 7 returns", () => {
    const src = mkdtempSync(join(tmpdir(), "prolong-walk-"));
    for (const [path, text] of Object.entries(TREE)) {
      mkdirSync(join(src, path, ".."), { recursive: true });
      writeFileSync(join(src, path), text);
    }
    const w = walk(src);
    expect(w.filesRead).toEqual(["run/runner.ts", "run/record.ts", "log/log.ts", "run/tally.ts"]);
    // observe, write, ask, count, observe again
    expect(w.stops).toBe(5);
    // loop, observe, write, ask, count
    expect(w.functions).toBe(5);
    expect(w.files).toBe(4);
    // runner → record → log → record* → runner* → record* → tally → record* → runner* → record* → runner* (* a return)
    expect(w.returns).toBe(7);
  });

  // The figures of main when this ceiling was set (docs/design.md gives them and the walk before the loop was
  // split). Raising a ceiling is a decision: say why in the commit.
  test("src/: one turn stays within 90 stops, 20 files and 101 returns to files already left", () => {
    const w = walk();
    expect({ stops: w.stops <= 90, files: w.files <= 20, returns: w.returns <= 101, walk: w }).toMatchObject({
      stops: true,
      files: true,
      returns: true,
    });
  });
});
