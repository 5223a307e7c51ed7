// Nothing an agent starts outlives its turn. Killing the agent's process group is not enough: a `setsid`
// child leaves the group and the session, and one that keeps the stdout pipe open would hold the harness
// waiting for EOF. So every process of a turn is found by any of four marks — its session, its process group,
// a per-turn token in its environment (inherited by everything it starts), or an open descriptor on the
// turn's stdout/stderr pipes — by a scan of /proc, and killed; the scan repeats until it finds none.
// A fifth mark catches what hides from all four (a daemon that leaves the session, clears its environment and
// closes the pipes): the harness is the child subreaper (libc.ts), so such a process, once its parent exits,
// is re-parented to the harness; a child of the harness started during the turn, other than the agent
// itself, is the turn's (the harness starts nothing else while a turn runs). Under bwrap its pid namespace
// holds it too.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { isSubreaper, reapChild } from "../libc.ts";
import type { TurnCgroup } from "./turn-cgroup.ts";

export interface TurnMarks {
  /** The agent's pid: it leads its own session and process group. */
  readonly leader: number;
  /** The environment entry every process of the turn inherits, e.g. "PROLONG_TURN_TOKEN=<uuid>". */
  readonly token: string;
  /** readlink of the turn's pipes, e.g. "pipe:[123456]". */
  readonly pipes: readonly string[];
  /**
   * When the turn started (clock ticks since boot): with the harness a subreaper, its children started since
   * then, other than the leader, are orphans of the turn. Absent: the mark is not used.
   */
  readonly since?: number;
  /** The turn's pids cgroup (turn-cgroup.ts), when one could be made: every member is the turn's. */
  readonly cgroup?: TurnCgroup;
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

/**
 * Every live process (other than this one) that carries one of the turn's marks. Pids are reused quickly
 * on a busy machine (pid_max may be 32768), so the leader's pid as a session or group id only counts while
 * no other process holds that pid (the kernel never hands out a pid still in use as a live session's or
 * group's id) and for processes started no later than `before` (clock ticks since boot, see ticksSinceBoot:
 * when the leader's exit was seen), which a process that reused the pid after it did not.
 */
export function findTurnProcesses(m: TurnMarks, leaderAlive: boolean, before = ticksSinceBoot()): number[] {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  const found: number[] = [];
  const token = new TextEncoder().encode(`${m.token}\0`);
  // The leader itself is reaped by the time the turn ends: a process with its pid then is someone else's.
  const idsMeanUs = leaderAlive || statOf(m.leader) === null;
  for (const name of names) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid) continue;
    if (isMarked(pid, m, token, idsMeanUs, before)) found.push(pid);
  }
  return found;
}

function isMarked(pid: number, m: TurnMarks, token: Uint8Array, idsMeanUs: boolean, before: number): boolean {
  const ids = statOf(pid);
  if (ids === null) return false;
  if (idsMeanUs && (ids.session === m.leader || ids.group === m.leader) && ids.started <= before) return true;
  if (isOrphanOfTurn(pid, ids, m)) return true;
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

/** A child of the harness (re-parented to it, the subreaper) started during the turn, not the leader. */
function isOrphanOfTurn(pid: number, ids: { parent: number; started: number }, m: TurnMarks): boolean {
  return m.since !== undefined && isSubreaper() && pid !== m.leader && ids.parent === process.pid && ids.started >= m.since;
}

/** Parent, group, session and start time (fields 4, 5, 6, 22 of /proc/PID/stat, after the parenthesised name). Null when gone or a zombie. */
function statOf(pid: number): { parent: number; session: number; group: number; started: number } | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  if (rest[0] === "Z" || rest[0] === "X") return null;
  return { parent: Number(rest[1]), group: Number(rest[2]), session: Number(rest[3]), started: Number(rest[19]) };
}

/**
 * The clock tick now (USER_HZ is 100 on Linux), the unit of a process's start time. /proc/uptime and a
 * process's start time both truncate the same boot-time clock to the tick, so the tick is the uptime's
 * hundredths, read as digits: through floating point, 0.07 * 100 is 7.000000000000001, whose ceiling is a
 * tick too late. Null when it cannot be read.
 */
function currentTick(): number | null {
  try {
    return tickOfUptime(readFileSync("/proc/uptime", "utf8"));
  } catch {
    return null;
  }
}

/** /proc/uptime's text ("23592.74 5046.94\n") → its tick (2359274); null when it is not that. */
export function tickOfUptime(text: string): number | null {
  const m = /^(\d+)\.(\d\d)\s/.exec(text);
  return m ? Number(m[1]) * 100 + Number(m[2]) : null;
}

/** An upper bound on the tick now: a process started by now has a start time no later than this. */
export function ticksSinceBoot(): number {
  const tick = currentTick();
  return tick === null ? Number.POSITIVE_INFINITY : tick + 1;
}

/**
 * A lower bound on the tick now, for a turn's start: every process started from now on has a start time at
 * least this. Unreadable: +Infinity, so that the orphan mark marks nothing rather than every child.
 */
export function turnStartTick(): number {
  return currentTick() ?? Number.POSITIVE_INFINITY;
}

function includes(hay: Uint8Array, needle: Uint8Array): boolean {
  // environ is NUL-separated; the token must be a whole entry, so match it at an entry start.
  const b = Buffer.from(hay.buffer, hay.byteOffset, hay.length);
  for (let at = b.indexOf(needle); at !== -1; at = b.indexOf(needle, at + 1)) {
    if (at === 0 || b[at - 1] === 0) return true;
  }
  return false;
}

/**
 * SIGKILLs every process of the turn, scanning again until none is left (bounded: forks race the kills),
 * then waits (briefly, bounded) until the killed ones are really gone: a dying process no longer shows its
 * environment, so a scan alone could miss it, and the next turn must start with none of them alive.
 */
export function killTurnProcesses(m: TurnMarks, leaderAlive: boolean, before = ticksSinceBoot()): number {
  // The cgroup first: it admits no fork from now on, so the scan below races nothing it holds.
  const inCgroup = m.cgroup?.kill() ?? 0;
  if (leaderAlive) {
    try {
      process.kill(-m.leader, "SIGKILL");
    } catch {
      // the group is gone
    }
  }
  const killed = new Set<number>();
  const orphans = new Set<number>();
  for (let round = 0; round < 20; round++) {
    const pids = findTurnProcesses(m, leaderAlive && round === 0, before);
    if (pids.length === 0) break;
    for (const pid of pids) {
      const ids = statOf(pid);
      if (ids !== null && isOrphanOfTurn(pid, ids, m)) orphans.add(pid);
      try {
        process.kill(pid, "SIGKILL");
        killed.add(pid);
      } catch {
        // exited meanwhile
      }
    }
  }
  for (let wait = 0; wait < 200 && [...killed].some((pid) => statOf(pid) !== null); wait++) Bun.sleepSync(1);
  // Orphans re-parented to the harness are its children now: reaped here, or they would stay zombies (the
  // runtime reaps only what it started). The leader is the runtime's to reap.
  for (const pid of orphans) reapChild(pid);
  return killed.size + inCgroup;
}
