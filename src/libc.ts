// The libc calls Bun has no API for, through bun:ffi (part of Bun; no addon needed): flock(2), for the
// one-writer-per-run lock; prctl(PR_SET_PDEATHSIG), so a swarm's child runs die with their parent;
// prctl(PR_SET_CHILD_SUBREAPER), so whatever an agent starts and orphans is re-parented to the harness (and
// found at the turn's end however it hid), and waitpid(WNOHANG) to reap those orphans once killed.
// Linux only; where libc cannot be loaded each reports that it is unavailable instead of failing.
import { dlopen, FFIType } from "bun:ffi";

const LOCK_EX = 2;
const LOCK_NB = 4;
const PR_SET_PDEATHSIG = 1;
const PR_SET_CHILD_SUBREAPER = 36;
const WNOHANG = 1;

type Libc = {
  flock: (fd: number, op: number) => number;
  prctl: (option: number, a: number, b: number, c: number, d: number) => number;
  waitpid: (pid: number, status: null, options: number) => number;
};

let libc: Libc | null | undefined;

function load(): Libc | null {
  if (libc !== undefined) return libc;
  libc = null;
  for (const name of ["libc.so.6", "libc.so"]) {
    try {
      const lib = dlopen(name, {
        flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
        prctl: { args: [FFIType.i32, FFIType.u64, FFIType.u64, FFIType.u64, FFIType.u64], returns: FFIType.i32 },
        waitpid: { args: [FFIType.i32, FFIType.ptr, FFIType.i32], returns: FFIType.i32 },
      });
      libc = {
        flock: (fd, op) => lib.symbols.flock(fd, op),
        prctl: (o, a, b, c, d) => lib.symbols.prctl(o, a, b, c, d),
        waitpid: (pid, status, options) => lib.symbols.waitpid(pid, status, options),
      };
      break;
    } catch {
      // try the next name
    }
  }
  return libc;
}

/** Takes an exclusive flock on fd without waiting: "locked", "busy" (another holder), or "unavailable". */
export function tryLockExclusive(fd: number): "locked" | "busy" | "unavailable" {
  const c = load();
  if (c === null) return "unavailable";
  return c.flock(fd, LOCK_EX | LOCK_NB) === 0 ? "locked" : "busy";
}

/** Asks the kernel to send this process `signal` when its parent dies. False when that is unavailable. */
export function dieWithParent(signal = 9): boolean {
  const c = load();
  return c !== null && c.prctl(PR_SET_PDEATHSIG, signal, 0, 0, 0) === 0;
}

let subreaper: boolean | undefined;

/**
 * Makes this process the reaper of its orphaned descendants (once; later calls report the first answer): a
 * process whose parent exits is re-parented here instead of to init, so a double-forked daemon with a clean
 * environment and closed pipes still has a parent the harness can recognise. False when unavailable.
 */
export function becomeSubreaper(): boolean {
  if (subreaper !== undefined) return subreaper;
  const c = load();
  subreaper = c !== null && c.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) === 0;
  return subreaper;
}

/** Whether becomeSubreaper succeeded in this process. */
export function isSubreaper(): boolean {
  return subreaper === true;
}

/** Reaps `pid` if it is a dead child of this process (an orphan re-parented here); never waits. */
export function reapChild(pid: number): void {
  load()?.waitpid(pid, null, WNOHANG);
}
