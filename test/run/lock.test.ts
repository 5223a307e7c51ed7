// One writer per run: the lock refuses a second holder at once, names the first one's pid, and is gone the
// moment its holder dies (even by SIGKILL), so a crashed run can always be resumed.
import { describe, expect, test } from "bun:test";
import { closeSync, mkdtempSync, openSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { tryLockExclusive } from "../../src/libc.ts";
import { LOCK_FILE, lockRun } from "../../src/run/lock.ts";

const LOCK_MODULE = resolve(import.meta.dir, "../../src/run/lock.ts");

/** A second process that takes the lock and says so, then holds it until killed. */
async function holder(dir: string) {
  const child = Bun.spawn(
    [
      process.execPath,
      "-e",
      `
    const { lockRun } = await import(${JSON.stringify(LOCK_MODULE)});
    const l = lockRun(${JSON.stringify(dir)});
    console.log(l.isOk() ? "locked" : "refused");
    await new Promise(() => {});
  `,
    ],
    { stdout: "pipe", stderr: "inherit" },
  );
  const reader = child.stdout.getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  return { child, said: first.trim() };
}

describe("the run lock", () => {
  test("a second lock in the same process is refused; released, it can be taken again", () => {
    const dir = mkdtempSync(join(tmpdir(), "prolong-lock-"));
    const a = lockRun(dir)._unsafeUnwrap();
    const e = lockRun(dir)._unsafeUnwrapErr();
    expect(e.code).toBe("run-locked");
    expect(e.message).toBe(`another prolong (pid ${process.pid}) is running this run`);
    expect(e.fix).toContain(`prolong resume ${dir}`);
    a.release();
    lockRun(dir)._unsafeUnwrap().release();
  });

  test("a holder that has not written its pid yet (starved right after taking the lock) is still named, from the kernel's lock table", () => {
    const dir = mkdtempSync(join(tmpdir(), "prolong-lock-"));
    const fd = openSync(join(dir, LOCK_FILE), "w");
    try {
      expect(tryLockExclusive(fd)).toBe("locked"); // the lock, and an empty file: the moment before the pid is written
      const e = lockRun(dir)._unsafeUnwrapErr();
      expect(e.message).toBe(`another prolong (pid ${process.pid}) is running this run`);
    } finally {
      closeSync(fd);
    }
  });

  test("another process holding it: refused with its pid; killed with SIGKILL, the lock is free at once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "prolong-lock-"));
    const { child, said } = await holder(dir);
    expect(said).toBe("locked");
    const e = lockRun(dir)._unsafeUnwrapErr();
    expect(e.message).toBe(`another prolong (pid ${child.pid}) is running this run`);
    child.kill(9);
    await child.exited;
    const mine = lockRun(dir);
    expect(mine.isOk()).toBe(true);
    mine._unsafeUnwrap().release();
  });
});
