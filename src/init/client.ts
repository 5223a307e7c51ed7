// The one shape every client installer has (src/init/clients/<client>.ts): detect, install, status,
// uninstall. A client is a list of pieces (see pieces.ts); the helpers here do the work for all of them.
import { accessSync, constants, existsSync } from "node:fs";
import path from "node:path";
import { ok, Result } from "neverthrow";
import type { ProlongError } from "../errors.ts";
import type { ClientName } from "./layout.ts";
import type { Manifest, Owner } from "./manifest.ts";
import {
  pieceStatus,
  preparePiece,
  removePiece,
  type Piece,
  type PieceStatus,
  type PreparedWrite,
  type RemoveOutcome,
} from "./pieces.ts";

export interface ClientInstaller {
  readonly name: ClientName;
  /** Whether the client seems to be in use here: its command on PATH or its directory in the project. */
  detect(root: string): boolean;
  /** Whether the client's own command is on PATH. A project directory does not count: init creates it itself. */
  commandFound(): boolean;
  /** Checks every piece and returns the writes to make; nothing is written until all clients' checks pass. */
  install(root: string, previous: Manifest | null, force: boolean): Result<PreparedWrite[], ProlongError>;
  status(root: string, manifest: Manifest): Result<PieceStatus[], ProlongError>;
  uninstall(root: string, manifest: Manifest, force: boolean): Result<RemoveOutcome[], ProlongError>;
}

export function commandOnPath(command: string, envPath = process.env["PATH"] ?? ""): boolean {
  return envPath.split(path.delimiter).some((dir) => {
    if (dir === "") return false;
    try {
      accessSync(path.join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

export function prepareAll(
  root: string,
  pieces: readonly Piece[],
  previous: Manifest | null,
  force: boolean,
): Result<PreparedWrite[], ProlongError> {
  return Result.combine(
    pieces.map((p) =>
      preparePiece(
        root,
        p,
        previous?.entries.find((e) => e.path === p.path && e.owner === p.owner),
        force,
      ),
    ),
  );
}

export function statusOf(root: string, owner: Owner, manifest: Manifest): Result<PieceStatus[], ProlongError> {
  return Result.combine(manifest.entries.filter((e) => e.owner === owner).map((e) => pieceStatus(root, e)));
}

export function uninstallOf(
  root: string,
  owner: Owner,
  manifest: Manifest,
  force: boolean,
): Result<RemoveOutcome[], ProlongError> {
  const outcomes: RemoveOutcome[] = [];
  for (const entry of manifest.entries.filter((e) => e.owner === owner)) {
    const r = removePiece(root, entry, force);
    if (r.isErr()) return r.map(() => outcomes);
    outcomes.push(r.value);
  }
  return ok(outcomes);
}

/** The usual shape: detected by command name or project directory, installed as a fixed list of pieces. */
export function clientOf(name: ClientName, command: string, projectDir: string, pieces: readonly Piece[]): ClientInstaller {
  return {
    name,
    detect: (root) => commandOnPath(command) || existsSync(path.join(root, projectDir)),
    commandFound: () => commandOnPath(command),
    install: (root, previous, force) => prepareAll(root, pieces, previous, force),
    status: (root, manifest) => statusOf(root, name, manifest),
    uninstall: (root, manifest, force) => uninstallOf(root, name, manifest, force),
  };
}
