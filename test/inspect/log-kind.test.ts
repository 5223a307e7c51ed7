// A log's readers ask the kind its run names first (the run.json beside a logs.txt), and the registry for the
// rest: a bare log (the published ones), a run.json that cannot be read, or a section the named kind refuses.
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { generateLog } from "../../src/bench/gen-log.ts";
import { logKind } from "../../src/inspect/log-kind.ts";
import { readSection } from "../../src/inspect/section-read.ts";
import { loadLog } from "../../src/log/load.ts";

const root = mkdtempSync(path.join(tmpdir(), "prolong-log-kind-"));
const LOG = generateLog({ sections: 4, seed: 3 });

/** A run directory holding the grid log and, when given, this run.json text; the path of its logs.txt. */
function runDir(runJson?: string): string {
  const dir = mkdtempSync(path.join(root, "run-"));
  writeFileSync(path.join(dir, "logs.txt"), LOG);
  if (runJson !== undefined) writeFileSync(path.join(dir, "run.json"), runJson);
  return path.join(dir, "logs.txt");
}

/** The kind whose codec read each section of the log. */
function readers(logPath: string): (string | null)[] {
  const log = loadLog(logPath)._unsafeUnwrap();
  return Array.from({ length: log.table.count }, (_, i) => readSection(log, i, logKind(logPath)).by?.name ?? null);
}

describe("the kind a log's run names", () => {
  test("reads its sections first: a toy run's grid sections are the toy's, a bare log's the first grid kind's", () => {
    expect(logKind(runDir(JSON.stringify({ env: "toy", game: "toy" })))?.name).toBe("toy");
    expect(readers(runDir(JSON.stringify({ env: "toy", game: "toy" })))).toEqual(["toy", "toy", "toy", "toy"]);
    expect(readers(runDir())).toEqual(["local", "local", "local", "local"]);
    // A run.json without env is the default kind's.
    expect(logKind(runDir(JSON.stringify({ game: "glide" })))?.name).toBe("local");
  });

  test("a section the named kind does not read goes to the kind that does", () => {
    const named = runDir(JSON.stringify({ env: "nethack", game: "nethack" }));
    expect(logKind(named)?.name).toBe("nethack");
    expect(readers(named)).toEqual(["local", "local", "local", "local"]);
  });

  test("a run.json that says nothing usable, or is no regular file, names no kind", () => {
    for (const text of ["{", "[]", JSON.stringify({ env: "chess" }), "null"]) expect(logKind(runDir(text))).toBeUndefined();
    const dir = mkdtempSync(path.join(root, "odd-"));
    writeFileSync(path.join(dir, "logs.txt"), LOG);
    mkdirSync(path.join(dir, "run.json"));
    expect(logKind(path.join(dir, "logs.txt"))).toBeUndefined();
    const linked = mkdtempSync(path.join(root, "link-"));
    writeFileSync(path.join(linked, "logs.txt"), LOG);
    symlinkSync("/dev/zero", path.join(linked, "run.json"));
    expect(logKind(path.join(linked, "logs.txt"))).toBeUndefined();
    // Only a run's logs.txt has a run beside it: another file's neighbours are not read.
    const other = path.join(mkdtempSync(path.join(root, "other-")), "mine.txt");
    writeFileSync(other, LOG);
    writeFileSync(path.join(path.dirname(other), "run.json"), JSON.stringify({ env: "toy" }));
    expect(logKind(other)).toBeUndefined();
  });
});
