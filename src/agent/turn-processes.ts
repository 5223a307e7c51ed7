// Nothing an agent starts outlives its turn. Killing the agent's process group is not enough: a `setsid`
// child leaves the group and the session, and one that keeps the stdout pipe open would hold the harness
// waiting for EOF. So every process of a turn is found by any of four marks — its session, its process group,
// a per-turn token in its environment (inherited by everything it starts), or an open descriptor on the
// turn's stdout/stderr pipes — by a scan of /proc, and killed; the scan repeats until it finds none.
// Not caught: a process that both clears its environment and closes the pipes after leaving the session
// (a cgroup per turn would catch that; under bwrap its pid namespace does).
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

export interface TurnMarks {
  /** The agent's pid: it leads its own session and process group. */
  readonly leader: number;
  /** The environment entry every process of the turn inherits, e.g. "PROLONG_TURN_TOKEN=<uuid>". */
  readonly token: string;
  /** readlink of the turn's pipes, e.g. "pipe:[123456]". */
  readonly pipes: readonly string[];
}

/** The environment variable that carries the turn's token. */
export const TURN_TOKEN_VAR = "PROLONG_TURN_TOKEN";

/** The pipes the leader's stdout and stderr are, read right after it started. */
export function pipesOf(pid: number): string[] {
  const out: string[] = [];
  for (const fd of [1, 2]) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (target.startsWith("pipe:")) out.push(target);
    } catch {
      // gone already, or not ours to read
    }
  }
  return out;
}

/** Every live process (other than this one) that carries one of the turn's marks. */
export function findTurnProcesses(m: TurnMarks): number[] {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  const found: number[] = [];
  const token = new TextEncoder().encode(`${m.token}\0`);
  for (const name of names) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid) continue;
    if (isMarked(pid, m, token)) found.push(pid);
  }
  return found;
}

function isMarked(pid: number, m: TurnMarks, token: Uint8Array): boolean {
  const ids = sessionAndGroup(pid);
  if (ids === null) return false;
  if (ids.session === m.leader || ids.group === m.leader || pid === m.leader) return true;
  try {
    if (includes(readFileSync(`/proc/${pid}/environ`), token)) return true;
  } catch {
    // not readable (another user's process): not ours
  }
  if (m.pipes.length === 0) return false;
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        if (m.pipes.includes(readlinkSync(`/proc/${pid}/fd/${fd}`))) return true;
      } catch {
        // closed meanwhile
      }
    }
  } catch {
    // gone, or not readable
  }
  return false;
}

/** Fields 6 and 5 of /proc/PID/stat (after the parenthesised command, which may hold spaces). Null when gone or a zombie. */
function sessionAndGroup(pid: number): { session: number; group: number } | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  if (rest[0] === "Z") return null;
  return { group: Number(rest[2]), session: Number(rest[3]) };
}

function includes(hay: Uint8Array, needle: Uint8Array): boolean {
  // environ is NUL-separated; the token must be a whole entry, so match it at an entry start.
  const b = Buffer.from(hay.buffer, hay.byteOffset, hay.length);
  for (let at = b.indexOf(needle); at !== -1; at = b.indexOf(needle, at + 1)) {
    if (at === 0 || b[at - 1] === 0) return true;
  }
  return false;
}

/** SIGKILLs every process of the turn, scanning again until none is left (bounded: forks race the kills). */
export function killTurnProcesses(m: TurnMarks): number {
  let killed = 0;
  try {
    process.kill(-m.leader, "SIGKILL");
  } catch {
    // the group is gone
  }
  for (let round = 0; round < 20; round++) {
    const pids = findTurnProcesses(m);
    if (pids.length === 0) break;
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGKILL");
        killed++;
      } catch {
        // exited meanwhile
      }
    }
  }
  return killed;
}
