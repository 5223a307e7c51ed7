// prolong bench's whole-process part: each job beside its peer, output read through a pipe, with memory. On
// the generated log only (--no-fixtures): the published logs, when they sit beside the checkout, would add
// four inputs of the same jobs (four fifths of the processes) and check nothing more.
import { describe, expect, test } from "bun:test";
import path from "node:path";

const MAIN = path.resolve(import.meta.dir, "../../src/main.ts");

interface Figure {
  input: string;
  job: string;
  command: string;
  tool: string;
  wallMs: number;
  cpuMs: number;
  peakMiB: number | null;
  anonMiB: number | null;
  outBytes: number;
  exitCode: number;
}

describe("prolong bench --json (whole processes)", () => {
  test("a small log: the machine, start-up, each prolong job beside its peers, prolong's anonymous memory", () => {
    const p = Bun.spawnSync(
      [process.execPath, MAIN, "bench", "--lines", "3000", "--repeat", "1", "--no-commands", "--no-fixtures", "--json"],
      {
        stdout: "pipe",
        stderr: "pipe",
        timeout: 120_000,
      },
    );
    expect(p.exitCode).toBe(0);
    expect(p.stderr.toString()).toContain("bench: whole process: prolong log stats LOG on generated (3,000 lines)");
    const r = JSON.parse(p.stdout.toString()) as {
      machine: { cores: number; memoryGiB: number };
      processes: { startup: Figure; figures: Figure[] };
    };
    expect(r.machine.cores).toBeGreaterThan(0);
    expect(r.machine.memoryGiB).toBeGreaterThan(0);
    expect(r.processes.startup.command).toBe("prolong --version");
    // --no-fixtures: the generated log is the only input, even where the published logs sit beside the checkout.
    expect(new Set(r.processes.figures.map((f) => f.input))).toEqual(new Set(["generated (3,000 lines)"]));
    const mine = r.processes.figures.filter((f) => f.input === "generated (3,000 lines)");
    const commands = mine.map((f) => f.command);
    for (const c of [
      "prolong log stats LOG",
      "prolong log sections LOG",
      "grep -c -x -F <separator> LOG",
      "prolong verify LOG COPY",
      "cmp -n <copy size> COPY LOG",
    ]) {
      expect(commands).toContain(c);
    }
    for (const f of mine) {
      expect(f.wallMs).toBeGreaterThan(0);
      // Everything but cmp (silent on equal bytes) printed through the pipe.
      if (!f.command.startsWith("cmp")) expect(f.outBytes).toBeGreaterThan(0);
    }
    // The copy is a prefix cut at a section boundary: verify and cmp agree that it is.
    expect(mine.find((f) => f.command === "prolong verify LOG COPY")?.exitCode).toBe(0);
    expect(mine.find((f) => f.command.startsWith("cmp"))?.exitCode).toBe(0);
    const stats = mine.find((f) => f.command === "prolong log stats LOG") as Figure;
    expect(stats.anonMiB).not.toBeNull();
    expect(stats.anonMiB as number).toBeLessThan(64);
  }, 180_000);
});
