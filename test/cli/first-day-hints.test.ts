// Hints a new user meets on the first day, through the real CLI: a play flag given to `plan` says to put it in
// an --arm; `log stats` of a batch's directory names the runs' logs that are there, not a logs.txt that is not.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempRoot } from "../run/helpers.ts";

const MAIN = path.resolve(import.meta.dir, "../../src/main.ts");
function prolong(args: string[]) {
  const p = Bun.spawnSync([process.execPath, MAIN, ...args], { stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode, err: p.stderr.toString() };
}

describe("first-day hints", () => {
  test("plan with a play flag: exit 2, the flag named with the --arm to put it in", () => {
    const r = prolong(["plan", "--games", "glide", "--arm", "full=", "--log-window", "25"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("--log-window is a play flag: it belongs to an arm");
    expect(r.err).toContain("--arm NAME='--log-window 25'");
  });

  test("log stats of a batch's directory names the runs' logs, never a logs.txt that is not there", () => {
    const batch = path.join(tempRoot(), "2026-01-01T00-00-00-000-aaaa");
    for (const run of ["glide-r1", "glide-r2"]) {
      mkdirSync(path.join(batch, run), { recursive: true });
      writeFileSync(path.join(batch, run, "logs.txt"), "");
    }
    const r = prolong(["log", "stats", batch]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`this directory holds 2 run(s); give one run's log, e.g. ${batch}/glide-r1/logs.txt`);
    expect(r.err).not.toContain(`${batch}/logs.txt`);
  });
});
