// Every command that reads a log, given what is not a regular file: an error naming the path and what it is,
// exit 2, never a wait for input (a FIFO with no writer, /dev/zero that never ends).
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { generateLog } from "../../src/bench/gen-log.ts";
import { prolong } from "../support/prolong-process.ts";

const dir = mkdtempSync(path.join(tmpdir(), "prolong-bad-files-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const good = path.join(dir, "good.txt");
writeFileSync(good, generateLog({ sections: 5, seed: 1 }));
const fifo = path.join(dir, "fifo");
Bun.spawnSync(["mkfifo", fifo]);
const emptyDir = path.join(dir, "empty-dir");
mkdirSync(emptyDir);
// A sparse 8 GiB file (an agent's copy grown past anything a run writes): refused by its size, never a
// JavaScript buffer error (ERR_BUFFER_TOO_LARGE) and never read.
const huge = path.join(dir, "huge.txt");
writeFileSync(huge, "");
truncateSync(huge, 8 * 2 ** 30);

const BAD: Array<[string, string, RegExp]> = [
  ["a FIFO", fifo, /FIFO/],
  ["/dev/zero", "/dev/zero", /character device/],
  ["a directory without logs.txt", emptyDir, /directory/],
  // verify's master is mapped only up to the copy's length, so it meets the file's first bytes (NUL) instead.
  ["a sparse 8 GiB file", huge, /4 GiB|NUL bytes/],
];

const COMMANDS: Array<[string, (f: string) => string[]]> = [
  ["log stats", (f) => ["log", "stats", f]],
  ["log sections", (f) => ["log", "sections", f]],
  ["log show", (f) => ["log", "show", f, "0"]],
  ["log grep", (f) => ["log", "grep", f, "Action"]],
  ["log diff", (f) => ["log", "diff", f, "0", "1"]],
  ["verify (master)", (f) => ["verify", f, good]],
  ["verify (copy)", (f) => ["verify", good, f]],
  ["replay", (f) => ["replay", f, "--game", "glide"]],
];

describe("a log that is not a regular file", () => {
  for (const [what, file, says] of BAD) {
    for (const [name, argv] of COMMANDS) {
      test(`${name} on ${what}: exit 2 naming it`, () => {
        // The bound only keeps a regression from hanging the suite (a killed command has code null); the
        // assertion is on the exit status.
        const r = prolong(argv(file), { timeoutMs: 20_000 });
        expect(r.err).toContain(file);
        expect(r.err).toMatch(says);
        expect(r.code).toBe(2);
      });
    }
  }
});
