// Whole-process figures for `prolong bench`: what a user waits for, start-up included, side by side with the
// standard tools doing the nearest job on the same file — `grep -c` / `rg -c` for counting and searching,
// `cmp -n` for a prefix check. Every process's output is read through a pipe (GNU grep writing to /dev/null
// stops at its first match and would look many times faster than it is). Each figure is the median of the
// runs after one warm-up. Peak memory is the kernel's maximum resident set size from /usr/bin/time (when
// installed); for prolong itself also its anonymous memory, from /proc/self/status at exit
// (PROLONG_MEMORY_REPORT, see src/main.ts): the peak RSS less the file pages still mapped, which bounds the
// anonymous memory at the moment of the peak (mapped log pages belong to the page cache, not to prolong). The
// bound is loose by the file pages mapped at the peak but released before exit: `verify`'s compare releases
// what it has compared, so up to 32 MiB of file pages (8 MiB of each file on each of two threads) may count in it.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export interface ProcessFigure {
  readonly input: string;
  readonly job: string;
  /** The command line as shown (LOG, COPY for the files). */
  readonly command: string;
  readonly tool: "prolong" | "peer";
  readonly wallMs: number;
  readonly cpuMs: number;
  /** Maximum resident set size, MiB (null without /usr/bin/time). */
  readonly peakMiB: number | null;
  /** prolong only: peak RSS less mapped file pages at exit, MiB (see the header). */
  readonly anonMiB: number | null;
  readonly outBytes: number;
  readonly exitCode: number;
}

export interface ProcessJob {
  readonly job: string;
  readonly command: string;
  readonly tool: "prolong" | "peer";
  readonly argv: readonly string[];
}

const TIME = "/usr/bin/time";

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

/** Runs argv `runs` times after a warm-up, its output read through a pipe; medians of each figure. */
export function timeProcess(input: string, job: ProcessJob, runs: number): ProcessFigure {
  const scratch = mkdtempSync(path.join(tmpdir(), "prolong-bench-proc-"));
  const timeFile = path.join(scratch, "time");
  const memFile = path.join(scratch, "memory");
  const withTime = existsSync(TIME);
  const argv = withTime ? [TIME, "-f", "%M", "-o", timeFile, ...job.argv] : [...job.argv];
  const env = job.tool === "prolong" ? { ...process.env, PROLONG_MEMORY_REPORT: memFile } : process.env;
  const wall: number[] = [];
  const cpu: number[] = [];
  const peak: number[] = [];
  const anon: number[] = [];
  let outBytes = 0;
  let exitCode = 0;
  try {
    for (let i = 0; i <= runs; i++) {
      const t0 = Bun.nanoseconds();
      const p = Bun.spawnSync(argv, { stdout: "pipe", stderr: "pipe", env });
      const ms = (Bun.nanoseconds() - t0) / 1e6;
      if (i === 0) continue; // the warm-up
      wall.push(ms);
      cpu.push(Number(p.resourceUsage.cpuTime.total) / 1e3);
      outBytes = p.stdout.length;
      exitCode = p.exitCode ?? -1;
      if (withTime && existsSync(timeFile)) {
        const kib = Number(readFileSync(timeFile, "utf8").trim().split("\n").pop());
        if (Number.isFinite(kib)) peak.push(kib / 1024);
      }
      if (job.tool === "prolong" && existsSync(memFile)) {
        const m = JSON.parse(readFileSync(memFile, "utf8")) as { hwmKiB: number; fileKiB: number; shmemKiB: number };
        anon.push((m.hwmKiB - m.fileKiB - m.shmemKiB) / 1024);
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return {
    input,
    job: job.job,
    command: job.command,
    tool: job.tool,
    wallMs: median(wall),
    cpuMs: median(cpu),
    peakMiB: peak.length > 0 ? median(peak) : null,
    anonMiB: anon.length > 0 ? median(anon) : null,
    outBytes,
    exitCode,
  };
}

const SEPARATOR = "=".repeat(80);
const GREP_PATTERN = "Tool Call: ACTION6";

/**
 * The jobs on one log: log stats / log sections against counting separator lines, log grep against
 * grep -c / rg -c of the same string, and verify against cmp -n when there is a copy (a byte-prefix of the log).
 */
export function processJobs(prolong: readonly string[], log: string, copy: { path: string; bytes: number } | null): ProcessJob[] {
  const jobs: ProcessJob[] = [
    { job: "count sections", tool: "prolong", command: "prolong log stats LOG", argv: [...prolong, "log", "stats", log] },
    { job: "count sections", tool: "prolong", command: "prolong log sections LOG", argv: [...prolong, "log", "sections", log] },
    {
      job: "count sections",
      tool: "peer",
      command: "grep -c -x -F <separator> LOG",
      argv: ["grep", "-c", "-x", "-F", SEPARATOR, log],
    },
  ];
  if (Bun.which("rg") !== null)
    jobs.push({
      job: "count sections",
      tool: "peer",
      command: "rg -c -x -F <separator> LOG",
      argv: ["rg", "-c", "-x", "-F", SEPARATOR, log],
    });
  jobs.push(
    {
      job: "search",
      tool: "prolong",
      command: `prolong log grep LOG -F '${GREP_PATTERN}' --count`,
      argv: [...prolong, "log", "grep", log, "-F", GREP_PATTERN, "--count"],
    },
    { job: "search", tool: "peer", command: `grep -c -F '${GREP_PATTERN}' LOG`, argv: ["grep", "-c", "-F", GREP_PATTERN, log] },
  );
  if (Bun.which("rg") !== null)
    jobs.push({
      job: "search",
      tool: "peer",
      command: `rg -c -F '${GREP_PATTERN}' LOG`,
      argv: ["rg", "-c", "-F", GREP_PATTERN, log],
    });
  if (copy) {
    jobs.push(
      { job: "verify", tool: "prolong", command: "prolong verify LOG COPY", argv: [...prolong, "verify", log, copy.path] },
      {
        job: "verify",
        tool: "peer",
        command: "cmp -n <copy size> COPY LOG",
        argv: ["cmp", "-n", String(copy.bytes), copy.path, log],
      },
    );
  }
  return jobs;
}
