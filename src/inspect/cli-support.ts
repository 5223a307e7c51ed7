// What every inspection command does after parsing argv: open the log — a run directory means its logs.txt.
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { formatError } from "../errors.ts";
import { loadLog, loadLogBytes, type LoadedLog } from "../log/load.ts";
import { RUN_FILES } from "../run-files/layout.ts";

/** A run directory (or any directory holding logs.txt) stands for its logs.txt. */
export function logPathOf(given: string): string {
  try {
    if (statSync(given).isDirectory() && existsSync(path.join(given, RUN_FILES.log))) return path.join(given, RUN_FILES.log);
  } catch {
    // A missing path is loadLog's to report, with its fix.
  }
  return given;
}

/** The loaded log, or null after printing loadLog's error (the caller exits 2). */
export function openLogOrReport(given: string): LoadedLog | null {
  const log = loadLog(logPathOf(given));
  if (log.isErr()) {
    console.error(formatError(log.error));
    return null;
  }
  return log.value;
}

/** The log's bytes (refused as loadLog refuses), or null after printing the error (the caller exits 2). */
export function openLogBytesOrReport(given: string): Uint8Array | null {
  const bytes = loadLogBytes(logPathOf(given));
  if (bytes.isErr()) {
    console.error(formatError(bytes.error));
    return null;
  }
  return bytes.value;
}
