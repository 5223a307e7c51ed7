// One writer per run: `play`, `play --run-dir` and `resume` hold an exclusive flock on <run>/run.lock for as
// long as they write the run. A second process refuses at once, naming the holder's pid (written into the
// file by the holder). The kernel drops the lock when the holder exits or is killed, so a crashed run never
// stays locked; the file itself is left in place (removing it would let two processes lock two files).
import { closeSync, constants, ftruncateSync, openSync, readFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";
import { tryLockExclusive } from "../libc.ts";

export const LOCK_FILE = "run.lock";

export interface RunLock {
  readonly path: string;
  release(): void;
}

/** `file`: another lock in the same directory (run-plan claims a job with job.lock while its run holds run.lock). */
export function lockRun(runDir: string, file = LOCK_FILE): Result<RunLock, ProlongError> {
  const path = join(runDir, file);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW, 0o644);
  } catch (e) {
    return err(prolongError("run-lock", `cannot open the run's lock file: ${(e as Error).message}`, { path, fix: "check that the run directory exists and is writable" }));
  }
  const got = tryLockExclusive(fd);
  if (got === "busy") {
    closeSync(fd);
    // The holder writes its pid just after taking the lock: give it a moment (bounded) when the file is still empty.
    let pid = holderPid(path);
    for (let tries = 0; pid === null && tries < 100; tries++) {
      Bun.sleepSync(2);
      pid = holderPid(path);
    }
    const who = pid === null ? "another prolong" : `another prolong (pid ${pid})`;
    return err(prolongError("run-locked", `${who} is running this run`, { path: runDir, fix: `wait for it to end${pid === null ? "" : `, or stop it (kill ${pid})`}, then \`prolong resume ${runDir}\`` }));
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

function holderPid(path: string): number | null {
  try {
    const n = Number.parseInt(readFileSync(path, "utf8").trim(), 10);
    return Number.isInteger(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}
