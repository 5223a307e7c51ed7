// Reads only what was appended to the log since the last read. The explorer's knowledge is a fold over the
// log's sections; this module hands it the sections it has not folded yet, and says when it must start over
// (the file shrank, or the bytes it already read are not what they were: a log window rewritten, another
// run's log). A read of the whole log and reads of its prefixes therefore give the same sections in the
// same order, which is what makes incremental decisions equal to decisions from a whole read.
import { err, ok, type Result } from "neverthrow";
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { prolongError, type ProlongError } from "../../errors.ts";
import { checkRegularFile } from "../../safe-file.ts";
import { readLog, type LoggedStep, type ReadContext } from "./read-log.ts";

/** Bytes hashed at the head of the log and just before the read offset to recognise the same log. */
const PROBE = 4096;

export interface Cursor {
  /** Bytes folded so far: every section starting before this offset has been handed out. */
  readonly offset: number;
  /** Where the last folded section starts: the tail probe covers it whole, header and all. */
  readonly lastStart: number;
  /** xxHash3 of the first min(PROBE, offset) bytes, and of the bytes from `lastStart` (at most PROBE
   * before it, for a section with many frames: its header is what tells one section from another) to `offset`. */
  readonly head: bigint;
  readonly tail: bigint;
  readonly context: ReadContext;
}

/** A settled board as the explorer keeps it: colours only, the log's text is not held. */
export interface Step {
  readonly kind: LoggedStep["kind"];
  readonly actionNumber: number;
  readonly level: number;
  readonly attempt: number;
  readonly score: number;
  readonly action?: LoggedStep["action"];
  readonly cells?: Uint8Array;
  /** Cells an animation frame of the section showed otherwise than its settled board (see read-log.ts). */
  readonly between?: Int32Array;
}

/** A logged section as the fold keeps it: its fields and colours, not the log's text. */
export function foldStep(s: LoggedStep): Step {
  return {
    kind: s.kind,
    actionNumber: s.actionNumber,
    level: s.level,
    attempt: s.attempt,
    score: s.score,
    ...(s.action ? { action: s.action } : {}),
    ...(s.board ? { cells: s.board.cells } : {}),
    ...(s.between ? { between: s.between } : {}),
  };
}

export interface NewSections {
  readonly steps: Step[];
  /** undefined when nothing is folded yet (no board seen). */
  readonly cursor?: Cursor;
  /** True when the earlier fold no longer applies and `steps` start from the log's first section. */
  readonly restart: boolean;
  readonly width: number;
  readonly height: number;
}

/**
 * The sections after `cursor` (all of them when it is undefined or no longer matches). A last section
 * without a complete board is left for the next read: the harness appends whole sections, so a torn one
 * is a log cut short and is read again once it is whole.
 */
/** What stands at the log's name when it is no regular file (a FIFO, a symlink, a device), as an error naming it. */
function notRegular(path: string): ProlongError | null {
  const there = checkRegularFile(path, "the log");
  return there.isErr() ? { ...there.error, code: "explorer-read" } : null;
}

export function readNewSections(path: string, cursor: Cursor | undefined): Result<NewSections, ProlongError> {
  let fd: number;
  try {
    // Non-blocking, no link followed, a regular file only: a FIFO or /dev/zero at the name is named, never waited on.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW | constants.O_NOCTTY);
  } catch (e) {
    return err(notRegular(path) ?? prolongError("explorer-read", `cannot read the log: ${(e as Error).message}`, { path }));
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile())
      return err(notRegular(path) ?? prolongError("explorer-read", "cannot read the log: not a regular file", { path }));
    const size = st.size;
    const from = cursor !== undefined && matches(fd, size, cursor) ? cursor : undefined;
    const start = from?.offset ?? 0;
    const bytes = readRange(fd, start, size);
    const read = readLog(bytes, path, from?.context);
    if (read.isErr()) {
      // A continuation holding only a torn section has no board yet: nothing new.
      if (from !== undefined)
        return ok({ steps: [], cursor: from, restart: false, width: from.context.width, height: from.context.height });
      return err(read.error);
    }
    const run = read.value;
    let steps = run.steps;
    let end = size;
    const last = steps[steps.length - 1];
    if (last !== undefined && last.board === undefined && last.kind !== "other") {
      steps = steps.slice(0, -1);
      end = start + last.start;
    }
    const out: Step[] = steps.map(foldStep);
    const context: ReadContext = { decoder: run.decoder, width: run.width, height: run.height };
    const lastFolded = steps[steps.length - 1];
    const lastStart = lastFolded !== undefined ? start + lastFolded.start : (from?.lastStart ?? 0);
    const next = run.width > 0 ? makeCursor(fd, end, lastStart, context) : undefined;
    return ok({
      steps: out,
      ...(next ? { cursor: next } : {}),
      restart: from === undefined,
      width: run.width,
      height: run.height,
    });
  } catch (e) {
    return err(prolongError("explorer-read", `cannot read the log: ${(e as Error).message}`, { path }));
  } finally {
    closeSync(fd);
  }
}

function matches(fd: number, size: number, c: Cursor): boolean {
  if (size < c.offset) return false;
  const probe = probes(fd, c.offset, c.lastStart);
  return probe.head === c.head && probe.tail === c.tail;
}

function makeCursor(fd: number, offset: number, lastStart: number, context: ReadContext): Cursor {
  return { offset, lastStart, ...probes(fd, offset, lastStart), context };
}

function probes(fd: number, offset: number, lastStart: number): { head: bigint; tail: bigint } {
  const head = Bun.hash.xxHash3(readRange(fd, 0, Math.min(PROBE, offset)));
  const tail = Bun.hash.xxHash3(readRange(fd, Math.max(0, Math.min(lastStart, offset - PROBE)), offset));
  return { head, tail };
}

function readRange(fd: number, from: number, to: number): Uint8Array {
  const buf = Buffer.allocUnsafe(Math.max(0, to - from));
  let got = 0;
  while (got < buf.length) {
    const n = readSync(fd, buf, got, buf.length - got, from + got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}
