// One writer per run: `play`, `play --run-dir` and `resume` hold an exclusive flock on <run>/run.lock for as
// long as they write the run. A second process refuses at once, naming the holder's pid (written into the
// file by the holder). The kernel drops the lock when the holder exits or is killed, so a crashed run never
// stays locked; the file itself is left in place (removing it would let two processes lock two files).
import { closeSync, constants, fstatSync, ftruncateSync, openSync, readFileSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";
import { tryLockExclusive } from "../libc.ts";
import { checkRegularFile, readRegularText } from "../safe-file.ts";

export const LOCK_FILE = "run.lock";
/** A pid and its newline; a lock file holding more was not written by prolong. */
const PID_BYTES = 64;

export interface RunLock {
  readonly path: string;
  release(): void;
}

/** `file`: another lock in the same directory (run-plan claims a job with job.lock while its run holds run.lock). */
export function lockRun(runDir: string, file = LOCK_FILE): Result<RunLock, ProlongError> {
  const path = join(runDir, file);
  let fd: number;
  try {
    // Non-blocking and no link followed: the run directory is input, and anything may stand at the name.
    fd = openSync(
      path,
      constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY,
      0o644,
    );
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ELOOP")
      return err(
        prolongError("run-lock", `the run's lock file (${file}) is a symlink; prolong follows no link in a run directory`, {
          path,
          fix: "remove the link; prolong makes the lock file itself",
        }),
      );
    return err(
      prolongError("run-lock", `cannot open the run's lock file: ${(e as Error).message}`, {
        path,
        fix: "check that the run directory exists and is writable",
      }),
    );
  }
  // A FIFO there would take the lock and the pid, and hang the next process reading the pid back.
  const regular = checkRegularFile(path, `the run's lock file (${file})`);
  if (regular.isErr() || !fstatSync(fd).isFile()) {
    closeSync(fd);
    return err(
      regular.isErr()
        ? { ...regular.error, code: "run-lock" }
        : prolongError("run-lock", `the run's lock file (${file}) is not a regular file`, { path }),
    );
  }
  const got = tryLockExclusive(fd);
  if (got === "busy") {
    closeSync(fd);
    // The kernel knows the holder from the moment it took the lock; the pid it writes into the file just after
    // may not be there yet when the holder is starved of CPU. The file (waited for, bounded) is the fallback
    // where /proc/locks cannot be read.
    let pid = kernelHolderPid(path) ?? holderPid(path);
    for (let tries = 0; pid === null && tries < 100; tries++) {
      Bun.sleepSync(2);
      pid = holderPid(path);
    }
    const who = pid === null ? "another prolong" : `another prolong (pid ${pid})`;
    return err(
      prolongError("run-locked", `${who} is running this run`, {
        path: runDir,
        fix: `wait for it to end${pid === null ? "" : `, or stop it (kill ${pid})`}, then \`prolong resume ${runDir}\``,
      }),
    );
  }
  // "unavailable" (no libc to call): the run goes on unlocked rather than not at all.
  try {
    ftruncateSync(fd, 0);
    writeSync(fd, `${process.pid}\n`, 0);
  } catch {
    // the pid is only for the message; the lock is what counts
  }
  let held = true;
  return ok({
    path,
    release() {
      if (!held) return;
      held = false;
      closeSync(fd);
    },
  });
}

/**
 * The pid holding the flock on `path`, from /proc/locks: a line "N: FLOCK  ADVISORY  WRITE <pid> <major>:<minor>:<inode> 0 EOF"
 * (hex device numbers) whose device and inode are the file's. Waiters ("N: -> FLOCK …") are not holders.
 */
function kernelHolderPid(path: string): number | null {
  let dev: bigint;
  let ino: bigint;
  let locks: string;
  try {
    const st = statSync(path, { bigint: true });
    dev = st.dev;
    ino = st.ino;
    locks = readFileSync("/proc/locks", "latin1");
  } catch {
    return null;
  }
  const major = ((dev >> 8n) & 0xfffn) | ((dev >> 32n) & ~0xfffn);
  const minor = (dev & 0xffn) | ((dev >> 12n) & ~0xffn);
  for (const line of locks.split("\n")) {
    const m = /^\d+:\s+FLOCK\s+\S+\s+WRITE\s+(\d+)\s+([0-9a-f]+):([0-9a-f]+):(\d+)\s/.exec(line);
    if (!m || BigInt(`0x${m[2]}`) !== major || BigInt(`0x${m[3]}`) !== minor || BigInt(m[4]!) !== ino) continue;
    const pid = Number(m[1]);
    if (pid > 0) return pid;
  }
  return null;
}

function holderPid(path: string): number | null {
  const read = readRegularText(path, PID_BYTES, "the run's lock file");
  if (read.isErr()) return null;
  const n = Number.parseInt(read.value.trim(), 10);
  return Number.isInteger(n) && n > 0 ? n : null;
}
