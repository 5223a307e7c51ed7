// The three kinds of thing prolong installs, and for each: how to put it in place, how to tell whether it
// is still as installed, and how to take it out again. Clients are lists of pieces; this is the one place
// that edits files for them.
import path from "node:path";
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";
import { readTextIfExists, removeFileAndEmptyParents, sha256, writeText } from "./files.ts";
import {
  expectedHooksText,
  formatSettings,
  parseSettings,
  prolongHooksText,
  sameJson,
  withoutProlongHooks,
  withProlongHooks,
  type HookGroups,
} from "./json-settings.ts";
import { blockStyleFor, readBlock, removeBlock, upsertBlock } from "./managed-block.ts";
import type { ManifestEntry, Owner } from "./manifest.ts";

export type Piece =
  | { readonly kind: "file"; readonly path: string; readonly owner: Owner; readonly text: string }
  | { readonly kind: "block"; readonly path: string; readonly owner: Owner; readonly body: string }
  | { readonly kind: "hooks"; readonly path: string; readonly owner: Owner; readonly groups: HookGroups };

/** A write init will make once every piece has been checked (text null: the file already says exactly this). */
export interface PreparedWrite {
  readonly abs: string;
  readonly text: string | null;
  readonly entry: ManifestEntry;
}

export type PieceState = "intact" | "modified" | "missing";

export interface PieceStatus {
  readonly path: string;
  readonly kind: ManifestEntry["kind"];
  readonly state: PieceState;
}

export interface RemoveOutcome {
  readonly path: string;
  /** removed: prolong's part taken out (the file deleted when nothing else was left); kept: changed since init, left alone; absent: already gone. */
  readonly action: "removed" | "kept" | "absent";
}

function ownedSha(piece: Piece): string {
  switch (piece.kind) {
    case "file":
      return sha256(piece.text);
    case "block":
      return sha256(piece.body);
    case "hooks":
      return sha256(expectedHooksText(piece.groups));
  }
}

/** Checks a piece against the project and computes its write; nothing is written here. */
export function preparePiece(
  root: string,
  piece: Piece,
  previous: ManifestEntry | undefined,
  force: boolean,
): Result<PreparedWrite, ProlongError> {
  const abs = path.join(root, piece.path);
  return readTextIfExists(abs).andThen((current): Result<PreparedWrite, ProlongError> => {
    const entry: ManifestEntry = {
      path: piece.path,
      kind: piece.kind,
      owner: piece.owner,
      sha256: ownedSha(piece),
      created: previous?.created ?? current === null,
    };
    const original = previous ? previous.original : piece.kind === "hooks" && current !== null ? current : undefined;
    if (original !== undefined) entry.original = original;
    switch (piece.kind) {
      case "file": {
        if (current === piece.text) return ok({ abs, text: null, entry });
        const ours = current === null || (previous !== undefined && sha256(current) === previous.sha256);
        if (!ours && !force) {
          return err(
            prolongError("not-ours", "exists and was not written by this prolong init (or was edited since)", {
              path: abs,
              fix: "move it away, or run 'prolong init --force' to overwrite it",
            }),
          );
        }
        return ok({ abs, text: piece.text, entry });
      }
      case "block": {
        const next = upsertBlock(current, piece.body, blockStyleFor(piece.path));
        return ok({ abs, text: next === current ? null : next, entry });
      }
      case "hooks":
        return parseSettings(current, abs).map((settings) => {
          const next = withProlongHooks(settings, piece.groups);
          return { abs, text: sameJson(next, settings) && current !== null ? null : formatSettings(next), entry };
        });
    }
  });
}

export function applyWrites(
  writes: readonly { readonly abs: string; readonly text: string | null }[],
): Result<void, ProlongError> {
  for (const w of writes) {
    if (w.text === null) continue;
    const done = writeText(w.abs, w.text);
    if (done.isErr()) return done;
  }
  return ok(undefined);
}

/** What prolong owns at the entry's path, now, in the form its checksum was taken of (null: gone). */
function ownedTextNow(root: string, entry: ManifestEntry): Result<string | null, ProlongError> {
  const abs = path.join(root, entry.path);
  return readTextIfExists(abs).andThen((text): Result<string | null, ProlongError> => {
    if (text === null) return ok(null);
    switch (entry.kind) {
      case "file":
        return ok(text);
      case "block":
        return ok(readBlock(text, blockStyleFor(entry.path)));
      case "hooks":
        return parseSettings(text, abs).map(prolongHooksText);
    }
  });
}

export function pieceStatus(root: string, entry: ManifestEntry): Result<PieceStatus, ProlongError> {
  return ownedTextNow(root, entry).map((owned) => ({
    path: entry.path,
    kind: entry.kind,
    state: owned === null ? "missing" : sha256(owned) === entry.sha256 ? "intact" : "modified",
  }));
}

/** Takes prolong's part out of one file. A whole file changed since init is kept unless force. */
export function removePiece(root: string, entry: ManifestEntry, force: boolean): Result<RemoveOutcome, ProlongError> {
  const abs = path.join(root, entry.path);
  const removed = { path: entry.path, action: "removed" } as const;
  return readTextIfExists(abs).andThen((text): Result<RemoveOutcome, ProlongError> => {
    if (text === null) return ok({ path: entry.path, action: "absent" });
    const finish = (rest: string, empty: boolean): Result<RemoveOutcome, ProlongError> =>
      (empty && entry.created ? removeFileAndEmptyParents(root, abs) : rest === text ? ok(undefined) : writeText(abs, rest)).map(
        () => removed,
      );
    switch (entry.kind) {
      case "file":
        if (sha256(text) !== entry.sha256 && !force) return ok({ path: entry.path, action: "kept" });
        return removeFileAndEmptyParents(root, abs).map(() => removed);
      case "block": {
        const rest = removeBlock(text, blockStyleFor(entry.path));
        return finish(rest, rest.trim() === "");
      }
      case "hooks":
        return parseSettings(text, abs).andThen((settings) => {
          const rest = withoutProlongHooks(settings);
          if (sameJson(rest, settings)) return ok({ path: entry.path, action: "absent" } as const);
          const before = entry.original === undefined ? null : parseSettings(entry.original, abs).unwrapOr(null);
          const restored = before !== null && sameJson(before, rest) ? entry.original! : formatSettings(rest);
          return finish(restored, Object.keys(rest).length === 0);
        });
    }
  });
}
