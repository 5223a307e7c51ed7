// Resource limits for an agent's processes, so that a fork bomb or a memory bomb ends the agent's turn and
// never the harness: the agent's programs are started through prlimit (util-linux, beside setpriv), so the
// limits hold from their first instruction and are inherited by everything they start.
//
// RLIMIT_NPROC counts every process (every thread) of the agent's real uid, system-wide, and is checked
// against the limit of the process that forks: the agent gets the uid's current count plus an allowance,
// while the harness keeps its own limit, so the bomb stops at the allowance and the harness can still start
// threads. The kernel does not apply it to root: an agent left as root (--sandbox none run by root) is bounded
// in processes by its turn's pids cgroup where one can be made (turn-cgroup.ts), else only by the deadline.
import { existsSync, readdirSync, statSync } from "node:fs";

export interface ProcessLimits {
  /** The uid the agent runs as (the NPROC count is that uid's). */
  readonly uid: number;
  /** Processes (threads) the agent may add to its uid's count. */
  readonly processes: number;
  /** Address space of each process, in bytes (not for node-based CLIs: V8 reserves far more than it uses). */
  readonly memoryBytes?: number;
}

/** Processes an agent may start: far above what a coding CLI or a python script with a thread pool needs. */
export const AGENT_PROCESSES = 1024;

/** Address space of one of the mini agent's commands: python with numpy runs in a fraction of it. */
export const COMMAND_MEMORY_BYTES = 4 * 1024 * 1024 * 1024;

let prlimit: string | null | undefined;

/** argv started through prlimit with the limits; argv itself when prlimit is not installed. */
export function withLimits(argv: readonly string[], limits: ProcessLimits): string[] {
  if (prlimit === undefined) prlimit = ["/usr/bin/prlimit", "/bin/prlimit"].find((p) => existsSync(p)) ?? null;
  if (prlimit === null) return [...argv];
  const nproc = tasksOf(limits.uid) + limits.processes;
  return [
    prlimit,
    `--nproc=${nproc}`,
    ...(limits.memoryBytes !== undefined ? [`--as=${limits.memoryBytes}`] : []),
    "--",
    ...argv,
  ];
}

/** The threads the uid runs now (what RLIMIT_NPROC counts), by /proc. */
function tasksOf(uid: number): number {
  let n = 0;
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return 0;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (statSync(`/proc/${name}`).uid !== uid) continue;
      n += readdirSync(`/proc/${name}/task`).length;
    } catch {
      // gone meanwhile
    }
  }
  return n;
}
