// Reading a log file from disk for inspection commands, with the checks that turn "not a log" into a
// clear error instead of garbage output. The bytes are mapped, not read: no copy of the log is made in new
// memory, whatever its size (the pages are the kernel's file cache). Harness-internal reads of the master
// use log/master.ts.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";
import { lineCount, mapFile, sectionIndex, type SectionTable } from "../native.ts";

const FIXES: Record<string, (path: string) => string> = {
  "missing-file": () => "check the path (a run directory holds logs.txt)",
  "is-directory": directoryFix,
  "not-a-file": () => "give the path of a log file (logs.txt in a run directory); save a stream to a file first",
  "too-big": () => "this is not a log a run wrote (a run's log stays far below 4 GiB); inspect a part of it cut with head -c",
};

/**
 * What to give instead of a directory: its logs.txt when it is a run's, else the logs of the runs in it (a
 * batch's or a plan's directory), else where logs are.
 */
function directoryFix(path: string): string {
  const dir = path.replace(/\/+$/, "") || "/";
  if (existsSync(join(dir, "logs.txt"))) return `did you mean ${join(dir, "logs.txt")}?`;
  let runs: string[] = [];
  try {
    const names = readdirSync(dir).sort();
    runs = names.filter((n) => existsSync(join(dir, n, "logs.txt")));
    if (runs.length === 0)
      runs = names.flatMap((n) => {
        try {
          return readdirSync(join(dir, n))
            .sort()
            .filter((m) => existsSync(join(dir, n, m, "logs.txt")))
            .map((m) => join(n, m));
        } catch {
          return [];
        }
      });
  } catch {
    // unreadable: the generic hint below
  }
  if (runs.length === 0) return "give a log file: a run directory's logs.txt";
  const shown = runs.slice(0, 3).map((r) => join(dir, r, "logs.txt"));
  return `this directory holds ${runs.length} run(s); give one run's log, e.g. ${shown.join(", ")}${runs.length > 3 ? ", …" : ""}`;
}

/**
 * The file's bytes, mapped read-only, up to its size when opened (a log still being written is read up to
 * there). A FIFO, device, socket or directory is an error naming it, never a wait for input that never ends.
 */
export function readLogBytes(path: string, limit?: number): Result<Uint8Array, ProlongError> {
  const mapped = mapFile(path, limit);
  if (mapped instanceof Uint8Array) return ok(mapped);
  const fix = FIXES[mapped.kind]?.(path);
  return err(prolongError(mapped.kind, mapped.message, { path, ...(fix ? { fix } : {}) }));
}

export interface LoadedLog {
  readonly path: string;
  readonly bytes: Uint8Array;
  readonly table: SectionTable;
}

const EXPECTED =
  "expected a prolong log: sections that start with a line of exactly 80 '=' followed by a header such as 'Action 0 | Level 1 | Attempt 1 | INITIAL STATE | Score: 0'";

/** Why bytes are not a log (empty, binary, no separator, no valid header), or null; `table` indexes all of them. */
function notALog(path: string, bytes: Uint8Array, table: () => SectionTable): ProlongError | null {
  if (bytes.length === 0) return prolongError("not-a-log", `the file is empty; ${EXPECTED}`, { path });
  const probe = bytes.subarray(0, Math.min(bytes.length, 65536));
  if (probe.includes(0)) return prolongError("not-a-log", `the file is binary (it holds NUL bytes); ${EXPECTED}`, { path });
  const t = table();
  if (t.count === 0) return prolongError("not-a-log", `no section separator found; ${EXPECTED}`, { path });
  for (let i = 0; i < t.count; i++) if (t.kind[i] !== 2) return null;
  return prolongError("not-a-log", `no section has a valid header; ${EXPECTED}`, { path });
}

/** Reads a log and indexes it; empty, binary and header-less files are errors naming what was expected. */
export function loadLog(path: string): Result<LoadedLog, ProlongError> {
  return readLogBytes(path).andThen((bytes) => {
    const table = sectionIndex(bytes);
    const bad = notALog(path, bytes, () => table);
    return bad ? err(bad) : ok({ path, bytes, table });
  });
}

/**
 * The same refusals as loadLog without indexing the whole log: a real log shows a valid header within its
 * first megabyte, so only a file that does not is scanned to the end before it is refused.
 */
export function checkIsLog(path: string, bytes: Uint8Array): Result<void, ProlongError> {
  const head = bytes.subarray(0, Math.min(bytes.length, 1 << 20));
  const headBad = notALog(path, head, () => sectionIndex(head));
  if (headBad === null) return ok(undefined);
  if (head.length === bytes.length) return err(headBad);
  const bad = notALog(path, bytes, () => sectionIndex(bytes));
  return bad ? err(bad) : ok(undefined);
}

/** A log's bytes with loadLog's refusals, for a command that never needs the section table in JavaScript. */
export function loadLogBytes(path: string): Result<Uint8Array, ProlongError> {
  return readLogBytes(path).andThen((bytes) => checkIsLog(path, bytes).map(() => bytes));
}

/** 1-based line number of a byte offset (counts '\n' before it, natively). */
export function lineOfOffset(bytes: Uint8Array, offset: number): number {
  return lineCount(bytes, 0, Math.min(Math.max(0, offset), bytes.length)) + 1;
}

/** Index of the section holding a byte offset, or -1 when it falls in the preamble or past the end. */
export function sectionAt(table: SectionTable, offset: number): number {
  let lo = 0;
  let hi = table.count - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((table.start[mid] as number) <= offset) lo = mid + 1;
    else hi = mid - 1;
  }
  const i = lo - 1;
  if (i < 0) return -1;
  return offset < (table.end[i] as number) || (i === table.count - 1 && offset === table.end[i]) ? i : -1;
}
