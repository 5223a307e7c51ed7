// A pids cgroup per agent process run, when one can be made: RLIMIT_NPROC (rlimits.ts) does not bind root, so
// an agent left as root (--sandbox none run by root) could fork without bound until the turn's deadline —
// enough to take the harness down with it. In a cgroup of its own with pids.max set, the turn's every process
// and thread counts against one limit whoever it runs as, and at the turn's end the cgroup is emptied (no new
// fork admitted, then every member killed) and removed.
//
// cgroup v2 when its pids controller can be enabled below the harness's own cgroup, else the v1 pids
// hierarchy. The agent is in it from its first instruction: the harness steps into the cgroup, starts the
// agent (a child starts in its parent's cgroup) and steps back out at once, so nothing the agent forks is
// outside. When none can be made (no controller, a read-only /sys/fs/cgroup, no permission) prolong says so.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface TurnCgroup {
  /** The cgroup's directory. */
  readonly dir: string;
  readonly version: 1 | 2;
  /** What `start` returns, started inside the cgroup: the harness is in it only while `start` runs. */
  spawnInside<T>(start: () => T): T;
  /** The pids in it now. */
  members(): number[];
  /** Admits no new process, kills every member (again until none is left); how many were killed. */
  kill(): number;
  /** Empties the cgroup and removes it (best effort: a member the kernel has not yet released keeps it a moment). */
  remove(): void;
}

interface Mount {
  readonly point: string;
  readonly version: 1 | 2;
}

/** The cgroup file systems that can hold a pids cgroup: cgroup2 mounts, and cgroup v1 mounts of `pids`. */
function pidsMounts(): Mount[] {
  let text: string;
  try {
    text = readFileSync("/proc/self/mountinfo", "utf8");
  } catch {
    return [];
  }
  const out: Mount[] = [];
  for (const line of text.split("\n")) {
    // ... mount point (5th field) ... " - " fstype source super-options
    const [left, right] = line.split(" - ");
    if (!left || !right) continue;
    const point = left.split(" ")[4];
    const [fstype, , options] = right.split(" ");
    if (point === undefined) continue;
    if (fstype === "cgroup2") out.push({ point: unescapeMount(point), version: 2 });
    else if (fstype === "cgroup" && (options ?? "").split(",").includes("pids"))
      out.push({ point: unescapeMount(point), version: 1 });
  }
  // v2 first: one hierarchy for everything, and cgroup.kill where the kernel has it.
  return out.sort((a, b) => b.version - a.version);
}

/** mountinfo writes space, tab, newline and backslash in octal (\040). */
function unescapeMount(s: string): string {
  return s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(Number.parseInt(o, 8)));
}

/** This process's cgroup in a hierarchy: "0::/path" for v2, "N:...pids...:/path" for v1. */
function ownPath(version: 1 | 2): string | null {
  let text: string;
  try {
    text = readFileSync("/proc/self/cgroup", "utf8");
  } catch {
    return null;
  }
  for (const line of text.split("\n")) {
    const m = /^(\d+):([^:]*):(.*)$/.exec(line);
    if (!m) continue;
    if (version === 2 && m[1] === "0" && m[2] === "") return m[3]!;
    if (version === 1 && m[2]!.split(",").includes("pids")) return m[3]!;
  }
  return null;
}

let made = 0;

/** A fresh pids cgroup holding at most `maxPids` tasks, or why none can be made here. */
export function makeTurnCgroup(maxPids: number): TurnCgroup | string {
  const why: string[] = [];
  for (const mount of pidsMounts()) {
    const own = ownPath(mount.version);
    if (own === null) continue;
    const parent = join(mount.point, own);
    const dir = join(parent, `prolong-${process.pid}-${++made}`);
    try {
      if (mount.version === 2) {
        const controllers = readFileSync(join(parent, "cgroup.controllers"), "utf8").split(/\s+/);
        if (!controllers.includes("pids")) {
          why.push(`cgroup2 at ${mount.point} has no pids controller`);
          continue;
        }
        // Enabling pids for the children of a cgroup that holds processes is refused (but at the root).
        const enabled = readFileSync(join(parent, "cgroup.subtree_control"), "utf8").split(/\s+/);
        if (!enabled.includes("pids")) writeFileSync(join(parent, "cgroup.subtree_control"), "+pids");
      }
      mkdirSync(dir);
      try {
        writeFileSync(join(dir, "pids.max"), String(maxPids));
      } catch (e) {
        rmdirSync(dir);
        throw e;
      }
      return cgroupAt(dir, parent, mount.version, maxPids);
    } catch (e) {
      why.push(`${mount.version === 2 ? "cgroup2" : "the pids hierarchy"} at ${mount.point}: ${(e as Error).message}`);
    }
  }
  return why.length > 0 ? why.join("; ") : "no cgroup file system with a pids controller is mounted";
}

function cgroupAt(dir: string, parent: string, version: 1 | 2, maxPids: number): TurnCgroup {
  const procs = join(dir, "cgroup.procs");
  const members = (): number[] => {
    try {
      return readFileSync(procs, "utf8")
        .split("\n")
        .filter((l) => l !== "")
        .map(Number);
    } catch {
      return [];
    }
  };
  const kill = (): number => {
    // No fork admitted from here on (a limit below the count is allowed and stops every fork), then the kills
    // — unless the harness is in it (a move back that failed): its own threads must still start.
    if (!members().includes(process.pid)) {
      try {
        writeFileSync(join(dir, "pids.max"), "0");
      } catch {
        // removed already
      }
    }
    if (version === 2 && existsSync(join(dir, "cgroup.kill"))) {
      try {
        writeFileSync(join(dir, "cgroup.kill"), "1");
      } catch {
        // fall through to the kills one by one
      }
    }
    const killed = new Set<number>();
    for (let round = 0; round < 50; round++) {
      const now = members().filter((pid) => pid !== process.pid);
      if (now.length === 0) break;
      for (const pid of now) {
        // Never the harness itself (in it only while a start runs; this guards a move back that failed).
        if (pid === process.pid) continue;
        try {
          process.kill(pid, "SIGKILL");
          killed.add(pid);
        } catch {
          // gone meanwhile
        }
      }
      Bun.sleepSync(1);
    }
    return killed.size;
  };
  return {
    dir,
    version,
    spawnInside: (start) => {
      let inside = false;
      try {
        // While the harness is inside, its own threads count too: the limit makes room for them until it leaves.
        writeFileSync(join(dir, "pids.max"), String(maxPids + readdirSync("/proc/self/task").length + 8));
        writeFileSync(procs, String(process.pid));
        inside = true;
      } catch {
        // not movable (the cgroup is gone): the agent starts where the harness is, bounded as without one
      }
      try {
        return start();
      } finally {
        if (inside) {
          try {
            writeFileSync(join(parent, "cgroup.procs"), String(process.pid));
            writeFileSync(join(dir, "pids.max"), String(maxPids));
          } catch {
            // kill() leaves the harness alone and its forks admitted; remove() then cannot remove the cgroup
          }
        }
      }
    },
    members,
    kill,
    remove: () => {
      kill();
      // A killed task leaves the cgroup when the kernel has released it (and, a zombie, when it is reaped).
      for (let tries = 0; tries < 200; tries++) {
        try {
          rmdirSync(dir);
          return;
        } catch {
          Bun.sleepSync(5);
        }
      }
    },
  };
}
