// Logs on disk for the inspection tests: loadLog reads files, so each text goes to a private temp file.
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadLog, type LoadedLog } from "../../src/log/load.ts";

const dir = mkdtempSync(path.join(tmpdir(), "prolong-inspect-test-"));
let n = 0;

export function logFile(text: string | Uint8Array, name = `log-${n++}.txt`): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

export function loaded(text: string | Uint8Array): LoadedLog {
  const r = loadLog(logFile(text));
  if (r.isErr()) throw new Error(`test log did not load: ${r.error.message}`);
  return r.value;
}

/** ../shared/fixtures/prolong-release from the project root, or null (tests then skip with a reason). */
export function fixturesDir(): string | null {
  const d = path.resolve(import.meta.dir, "../..", "..", "shared", "fixtures", "prolong-release");
  return existsSync(d) ? d : null;
}

export const FIXTURE_GAMES = ["ft09", "lp85", "m0r0", "cn04"] as const;
