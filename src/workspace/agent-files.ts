// The files the harness itself reads or writes in the workspace besides the copy of the log: the
// instruction files, actions.json, plans.txt (stateless arm), and the stateless wipe. Each goes through the
// held directory (dir.ts); what the agent left in a file's place is returned as a WorkspaceTamper for the
// caller to record, and the file is repaired (written afresh) or refused (actions.json), never followed.
import { err, ok, type Result } from "neverthrow";
import type { ProlongError } from "../errors.ts";
import type { WorkspaceDir, WorkspaceTamper } from "./dir.ts";

export const PLANS_FILE = "plans.txt";
/** plans.txt is kept below this size: the oldest plans give way (one line says so). */
export const PLANS_MAX_BYTES = 4 * 1024 * 1024;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Writes the instruction text under each name. A name that is not the regular, singly-linked file the
 * harness wrote last (`previous`; null when this process wrote none yet) is a tamper: deleted, edited, or
 * replaced by a link, a directory, a FIFO... It is written afresh either way.
 */
export function writeInstructionFiles(
  ws: WorkspaceDir,
  names: readonly string[],
  text: string,
  previous: string | null,
): Result<WorkspaceTamper[], ProlongError> {
  const want = encoder.encode(text);
  const last = previous === null ? null : encoder.encode(previous);
  // An edited file is read to tell "edited" from the harness's own last text; past this it is "oversized".
  const cap = Math.max(want.length, last?.length ?? 0, 1024 * 1024);
  const tampers: WorkspaceTamper[] = [];
  for (const name of names) {
    const seen = ws.read(name, cap);
    if (seen.isErr()) return err(seen.error);
    const o = seen.value;
    if (o.kind === "read" && equal(o.bytes, want)) continue;
    if (o.kind === "tamper") tampers.push(o.tamper);
    else if (last !== null && o.kind === "missing") tampers.push({ file: name, kind: "deleted", detail: `${name} was deleted` });
    else if (last !== null && o.kind === "read" && !equal(o.bytes, last))
      tampers.push({ file: name, kind: "edited", detail: `${name} was edited` });
    const written = ws.replace(name, want);
    if (written.isErr()) return err(written.error);
  }
  return ok(tampers);
}

/** What the agent left as actions.json. */
export type ActionsFile =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "missing" }
  /** Not a regular file, a hard link, or over the cap: not read at all. */
  | { readonly kind: "unusable"; readonly tamper: WorkspaceTamper };

/** Reads actions.json when it is a regular file of at most `cap` bytes. */
export function readActionsFile(ws: WorkspaceDir, name: string, cap: number): Result<ActionsFile, ProlongError> {
  return ws.read(name, cap).map((o): ActionsFile => {
    if (o.kind === "read") return { kind: "text", text: decoder.decode(o.bytes) };
    if (o.kind === "missing") return { kind: "missing" };
    return { kind: "unusable", tamper: o.tamper };
  });
}

/** Removes the last turn's actions.json (whatever it is), so a turn that writes none is seen as such. */
export function clearActionsFile(ws: WorkspaceDir, name: string): Result<void, ProlongError> {
  return ws.remove(name).map(() => undefined);
}

/**
 * Stateless arm: what plans.txt holds after one more entry, from the harness's own copy (kept outside the
 * workspace: the agent's plans reach plans.txt only through its answer, never by writing the file).
 */
export function plansWith(kept: Uint8Array, entry: string): Uint8Array {
  return keepUnder(kept, encoder.encode(entry), PLANS_MAX_BYTES);
}

/**
 * Stateless arm, before each turn: plans.txt made exactly what the harness last wrote (`want`, empty before
 * the first plan). Anything else there — edited, appended, removed, replaced — is a tamper, and is replaced.
 */
export function restorePlans(ws: WorkspaceDir, want: Uint8Array): Result<WorkspaceTamper | null, ProlongError> {
  const seen = ws.read(PLANS_FILE, PLANS_MAX_BYTES);
  if (seen.isErr()) return err(seen.error);
  const o = seen.value;
  if (o.kind === "read" && equal(o.bytes, want)) return ok(null);
  if (o.kind === "missing" && want.length === 0) return ok(null);
  const tamper: WorkspaceTamper =
    o.kind === "tamper"
      ? o.tamper
      : {
          file: PLANS_FILE,
          kind: o.kind === "missing" ? "deleted" : "edited",
          detail: `${PLANS_FILE} is not what the harness wrote (plans reach it only through the answer's [PLAN])`,
        };
  const fixed = want.length === 0 ? ws.remove(PLANS_FILE).map(() => undefined) : ws.replace(PLANS_FILE, want);
  return fixed.map(() => tamper);
}

const DROPPED_NOTE = encoder.encode("--- (older plans dropped: plans.txt is kept under its size limit)\n");

/** old + add, the oldest whole lines of `old` dropped when that would exceed `max`. */
function keepUnder(old: Uint8Array, add: Uint8Array, max: number): Uint8Array {
  if (old.length + add.length <= max) return concat(old, add);
  const room = Math.max(0, max - add.length - DROPPED_NOTE.length);
  let from = old.length - room;
  while (from < old.length && old[from - 1] !== 10) from++;
  return concat(concat(DROPPED_NOTE, old.subarray(from)), add);
}

/** Stateless arm: removes everything in the workspace but the names kept. */
export function wipeWorkspace(ws: WorkspaceDir, kept: ReadonlySet<string>): Result<void, ProlongError> {
  const names = ws.list();
  if (names.isErr()) return err(names.error);
  for (const name of names.value) {
    if (kept.has(name)) continue;
    const removed = ws.remove(name);
    if (removed.isErr()) return err(removed.error);
  }
  return ok(undefined);
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.length).equals(b);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
