// What the turn-cgroup tests (fast and slow tier) need to know of this machine, and how they find what a
// turn left running.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { makeTurnCgroup } from "../../src/agent/turn-cgroup.ts";

export const ROOT = process.getuid?.() === 0;
const probe = makeTurnCgroup(8);
export const CGROUP = typeof probe !== "string";
if (typeof probe !== "string") probe.remove();
/**
 * The python3 interpreter itself, or null: run by its path, not through a wrapper on PATH (a version manager's
 * shim is a shell script that costs seconds per start under load).
 */
const found = spawnSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" });
export const PYTHON: string | null = found.status === 0 && found.stdout.trim() !== "" ? found.stdout.trim() : null;

/** Processes whose command line names `mark` (the test's own directory), other than this one. */
export function processesNaming(mark: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "latin1");
      if (/^\d+ \(.*\) [ZX] /s.test(stat)) continue;
      if (readFileSync(`/proc/${name}/cmdline`, "latin1").includes(mark)) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
