// `prolong verify <master> <copy>`: is the copy what the harness could have left in a workspace — a
// non-empty byte-prefix of the master that ends where a section ends? Both files are mapped (no copy in new
// memory) and compared in one pass that stops at the first difference; the master is indexed only when there
// is a difference to place in a section.
import { lstatSync, readlinkSync, statSync } from "node:fs";
import { err, ok, type Result } from "neverthrow";
import type { ProlongError } from "../errors.ts";
import { checkIsLog, lineOfOffset, readLogBytes, sectionAt } from "../log/load.ts";
import { SECTION_JOIN, SEPARATOR } from "../log/format.ts";
import { prefixCheck, sectionIndex } from "../native.ts";

/**
 * ok: a prefix ending at a section boundary. differs: not a prefix. mid-section: a prefix that stops inside a
 * section. empty: no bytes (the harness writes at least the first section). symlink: the copy is a link
 * (the harness replaces one; its target is compared, for information).
 */
export type Verdict = "ok" | "differs" | "mid-section" | "empty" | "symlink";

export interface VerifyReport {
  readonly master: string;
  readonly copy: string;
  readonly verdict: Verdict;
  /** The copy's bytes are a byte-prefix of the master's (true for mid-section and empty too). */
  readonly prefix: boolean;
  readonly masterBytes: number;
  readonly copyBytes: number;
  /** Bytes of the master the copy does not have yet (only when it is a prefix). */
  readonly pendingBytes: number;
  readonly firstDiff: number | null;
  readonly diffLine: number | null;
  /** The action number of the master section holding the first differing byte (null when past the end). */
  readonly diffAction: number | null;
  /** Bytes past the divergence: what the master has there, and what the copy has. */
  readonly masterBytesAfterDiff: number | null;
  readonly copyBytesAfterDiff: number | null;
  /** Where the copy's link points, when it is a symlink. */
  readonly linkTarget: string | null;
  /**
   * The whole "master" is a byte-prefix of the "copy" and ends where one of the copy's sections ends: what
   * `verify <copy> <master>` gives, the arguments in the wrong order (or a copy appended to section by section).
   */
  readonly looksSwapped: boolean;
}

const encoder = new TextEncoder();
/** The master's head checkIsLog reads. */
const HEAD = 1 << 20;
const BOUNDARY = encoder.encode(`${SECTION_JOIN}${SEPARATOR}`);

/** True when `at` is where the harness ends a copy: the master's end, or right before the join and the next separator. */
export function atSectionBoundary(master: Uint8Array, at: number): boolean {
  if (at === master.length) return true;
  if (at + BOUNDARY.length > master.length) return false;
  for (let i = 0; i < BOUNDARY.length; i++) if (master[at + i] !== BOUNDARY[i]) return false;
  const after = at + BOUNDARY.length;
  return after === master.length || master[after] === 10 || (master[after] === 13 && master[after + 1] === 10);
}

/** The action of the master section holding `offset` (null in the preamble, past the end, or an unreadable header). */
function actionAt(master: Uint8Array, offset: number): number | null {
  const table = sectionIndex(master);
  const i = sectionAt(table, offset);
  if (i < 0) return null;
  const action = table.action[i] as number;
  return action >= 0 ? action : null;
}

/** Compares two byte strings as master and copy (pure: no file access). */
/**
 * Compares two byte strings as master and copy (pure: no file access). `master` may be the first part of a
 * longer master of `masterSize` bytes, as long as it reaches past the copy's end (or is the whole master).
 */
export function compareCopy(
  masterPath: string,
  master: Uint8Array,
  copyPath: string,
  copy: Uint8Array,
  linkTarget: string | null = null,
  masterSize = master.length,
): VerifyReport {
  const d = prefixCheck(master, copy);
  const base = { master: masterPath, copy: copyPath, masterBytes: masterSize, copyBytes: copy.length, linkTarget };
  // d === masterSize: the master ran out first, so it is whole here (mapped past the copy's end or entire).
  const looksSwapped = d === masterSize && masterSize > 0 && atSectionBoundary(copy, masterSize);
  if (d === -1) {
    const verdict: Verdict =
      linkTarget !== null
        ? "symlink"
        : copy.length === 0
          ? "empty"
          : atSectionBoundary(master, copy.length)
            ? "ok"
            : "mid-section";
    return {
      ...base,
      verdict,
      prefix: true,
      pendingBytes: masterSize - copy.length,
      firstDiff: null,
      diffLine: null,
      diffAction: null,
      masterBytesAfterDiff: null,
      copyBytesAfterDiff: null,
      looksSwapped,
    };
  }
  return {
    ...base,
    verdict: "differs",
    prefix: false,
    pendingBytes: 0,
    firstDiff: d,
    diffLine: lineOfOffset(copy, d),
    diffAction: d < master.length ? actionAt(master, d) : null,
    masterBytesAfterDiff: masterSize - d,
    copyBytesAfterDiff: copy.length - d,
    looksSwapped,
  };
}

function linkOf(path: string): string | null {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : null;
  } catch {
    return null; // a missing copy is readLogBytes's to report
  }
}

/** The master's size when it is a file (0 otherwise: readLogBytes then names what it is). */
function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/**
 * Maps both files and compares them; unreadable input (missing, a FIFO, a device, a directory) is an error.
 * Only as much of the master is mapped as the copy can be compared with (plus the next separator line, to
 * see whether the copy ends at a section boundary, and at least its first megabyte, to see that it is a log):
 * the rest of it is never read.
 */
export function verifyFiles(masterPath: string, copyPath: string): Result<VerifyReport, ProlongError> {
  const masterSize = sizeOf(masterPath);
  const link = linkOf(copyPath);
  const copy = readLogBytes(copyPath);
  const master = readLogBytes(
    masterPath,
    copy.isOk() ? Math.min(masterSize, Math.max(copy.value.length + BOUNDARY.length + 2, HEAD)) : undefined,
  );
  if (master.isErr()) return err(master.error);
  if (copy.isErr()) return err(copy.error);
  const isLog = checkIsLog(masterPath, master.value);
  if (isLog.isErr()) return err(isLog.error);
  return ok(compareCopy(masterPath, master.value, copyPath, copy.value, link, Math.max(masterSize, master.value.length)));
}

export function describeReport(r: VerifyReport): string {
  const sizes = `${r.copyBytes} of ${r.masterBytes} bytes`;
  switch (r.verdict) {
    case "ok": {
      const pending =
        r.pendingBytes === 0 ? "identical to the master" : `${r.pendingBytes} byte(s) behind the master, at a section boundary`;
      return `ok: ${r.copy} is a byte-prefix of ${r.master} (${sizes}; ${pending})`;
    }
    case "empty":
      return `EMPTY: ${r.copy} has no bytes; the harness always writes at least the first section of ${r.master}`;
    case "mid-section":
      return `MID-SECTION: ${r.copy} is a byte-prefix of ${r.master} (${sizes}) but ends inside a section; the harness only ever ends a copy where a section ends (a cut copy)`;
    case "symlink":
      return `SYMLINK: ${r.copy} is a symbolic link to ${JSON.stringify(r.linkTarget)}, not a file the harness wrote (it replaces a link with a fresh copy); the link's target ${r.prefix ? "is" : "is not"} a byte-prefix of the master`;
    case "differs": {
      const where = r.diffAction === null ? "past the master's last section" : `in the section of Action ${r.diffAction}`;
      const after =
        r.masterBytesAfterDiff === 0
          ? `the copy has ${r.copyBytesAfterDiff} extra byte(s) past the end of the master`
          : r.copyBytesAfterDiff === 0
            ? `the copy is missing ${r.masterBytesAfterDiff} byte(s)`
            : `from there the master has ${r.masterBytesAfterDiff} byte(s) and the copy ${r.copyBytesAfterDiff}`;
      const head = `DIFFERS: ${r.copy} is not a byte-prefix of ${r.master}: first differing byte at offset ${r.firstDiff} (line ${r.diffLine} of the copy, ${where}); ${after}`;
      if (r.looksSwapped)
        return `${head}\n  (the arguments look swapped: ${r.master} is a byte-prefix of ${r.copy} ending where a section ends, as a copy is of its master; the master log goes first: prolong verify ${r.copy} ${r.master})`;
      return `${head}\n  (a --log-window copy is not a prefix by design: \`prolong verify <run-dir>\` checks it against the window the harness wrote)`;
    }
  }
}
