// Disk full and other I/O failures, wherever they surface: as a Result from our own file code (the run index
// turns what bun:sqlite throws into one: log/run-index.ts), or thrown by node:fs. Either way the run ends
// cleanly as "log-failed" with the reason and the fix — never a stack trace — and stays resumable: the master
// is the truth, and `prolong resume` continues once space is free. Anything thrown that is not an I/O
// failure is a bug and is thrown on.
import { prolongError, type ProlongError } from "../errors.ts";

const FS_CODES: Record<string, string> = {
  ENOSPC: "the disk is full",
  EDQUOT: "the disk quota is used up",
  EIO: "an I/O error",
  EROFS: "the file system is read-only",
  EFBIG: "a file grew past the size limit",
};

/** The error a thrown I/O failure is, or null when `e` is something else (a bug, to be thrown on). */
export function ioFailure(e: unknown, runDir: string): ProlongError | null {
  const code = (e as { code?: unknown })?.code;
  if (typeof code !== "string") return null;
  const what = FS_CODES[code];
  if (what === undefined) return null;
  return prolongError("io-failed", `${what} (${code}: ${(e as Error).message})`, {
    path: runDir,
    fix: `free disk space (or fix the file system), then \`prolong resume ${runDir}\``,
  });
}

/** Runs `fn`; a thrown I/O failure comes back as its error, anything else is thrown on. */
export function guardIo<T>(runDir: string, fn: () => T): { ok: true; value: T } | { ok: false; error: ProlongError } {
  try {
    return { ok: true, value: fn() };
  } catch (e) {
    const f = ioFailure(e, runDir);
    if (f === null) throw e;
    return { ok: false, error: f };
  }
}
