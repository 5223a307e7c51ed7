// prolong init / status / uninstall for one project: the shared pieces (runtime, skill, AGENTS.md and
// .gitignore blocks, the log) plus each chosen client's pieces, recorded in the manifest.
import path from "node:path";
import { err, ok, Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";
import { prepareAll, statusOf, uninstallOf } from "./client.ts";
import { CLIENTS } from "./clients/index.ts";
import { readTextIfExists, removeFileAndEmptyParents, writeText } from "./files.ts";
import { parseSettings } from "./json-settings.ts";
import {
  AGENTS_MD_PATH,
  AGENTS_SKILL_PATH,
  CLIENT_NAMES,
  GITIGNORE_PATH,
  LOG_PATH,
  MANIFEST_PATH,
  RUNTIME_PATH,
  type ClientName,
} from "./layout.ts";
import { formatManifest, readManifest, type Manifest } from "./manifest.ts";
import { applyWrites, type Piece, type PieceState, type PieceStatus, type RemoveOutcome } from "./pieces.ts";
import { RUNTIME_SOURCE } from "./runtime-source.ts";
import { GITIGNORE_TEXT, INSTRUCTIONS_TEXT, SKILL_TEXT } from "./texts.ts";

/** Installed once for any client: Codex, opencode and pi read AGENTS.md and .agents/skills. */
const SHARED_PIECES: readonly Piece[] = [
  { kind: "file", path: RUNTIME_PATH, owner: "shared", text: RUNTIME_SOURCE },
  { kind: "file", path: AGENTS_SKILL_PATH, owner: "shared", text: SKILL_TEXT },
  { kind: "block", path: AGENTS_MD_PATH, owner: "shared", body: INSTRUCTIONS_TEXT },
  { kind: "block", path: GITIGNORE_PATH, owner: "shared", body: GITIGNORE_TEXT },
];

function ordered(names: Iterable<ClientName>): ClientName[] {
  const set = new Set(names);
  return CLIENT_NAMES.filter((n) => set.has(n));
}

export interface InitReport {
  readonly root: string;
  readonly clients: ClientName[];
  readonly detected: ClientName[];
  /** Files whose bytes changed (empty on a re-run: init is idempotent). */
  readonly written: string[];
}

export function initProject(
  root: string,
  requested: readonly ClientName[] | null,
  force: boolean,
): Result<InitReport, ProlongError> {
  return readManifest(root).andThen((previous) => {
    const detected = CLIENT_NAMES.filter((n) => CLIENTS[n].detect(root));
    const chosen = requested ?? detected;
    if (chosen.length === 0 && !previous) {
      return err(
        prolongError(
          "no-client",
          "found no coding client here (none of claude, codex, opencode, pi on PATH or configured in the project)",
          {
            path: root,
            fix: "name one: prolong init --client claude|codex|opencode|pi|all",
          },
        ),
      );
    }
    const clients = ordered([...(previous?.clients ?? []), ...chosen]);
    const prepared = Result.combine([
      prepareAll(root, SHARED_PIECES, previous, force),
      ...clients.map((c) => CLIENTS[c].install(root, previous, force)),
    ]).map((lists) => lists.flat());
    // Every piece is checked before anything is written: a malformed settings file leaves the project untouched.
    return prepared.andThen((writes) => {
      const manifest: Manifest = { manifestVersion: 1, clients, entries: writes.map((w) => w.entry) };
      const manifestAbs = path.join(root, MANIFEST_PATH);
      const logAbs = path.join(root, LOG_PATH);
      return Result.combine([readTextIfExists(manifestAbs), readTextIfExists(logAbs)]).andThen(([manifestNow, logNow]) => {
        const manifestText = formatManifest(manifest);
        const all = [
          ...writes,
          ...(logNow === null ? [{ abs: logAbs, text: "" }] : []),
          ...(manifestNow === manifestText ? [] : [{ abs: manifestAbs, text: manifestText }]),
        ];
        return applyWrites(all).map(() => ({
          root,
          clients,
          detected,
          written: all.filter((w) => w.text !== null).map((w) => path.relative(root, w.abs)),
        }));
      });
    });
  });
}

export type ClientState = PieceState | "not-installed";

export interface ClientStatusReport {
  readonly name: ClientName | "shared";
  /** The client's command is on PATH (always true for the shared pieces). Its project directory does not count:
   * prolong init creates .claude/ and the like itself, so counting it said "detected" for a CLI that is absent. */
  readonly detected: boolean;
  readonly installed: boolean;
  /** The worst state of its pieces: missing, then modified, then intact. */
  readonly state: ClientState;
  readonly pieces: PieceStatus[];
}

export interface StatusReport {
  readonly root: string;
  readonly initialized: boolean;
  readonly clients: ClientStatusReport[];
  readonly log: { readonly path: string; readonly exists: boolean; readonly bytes: number; readonly events: number };
}

function worst(pieces: readonly PieceStatus[]): PieceState {
  if (pieces.some((p) => p.state === "missing")) return "missing";
  if (pieces.some((p) => p.state === "modified")) return "modified";
  return "intact";
}

export function projectStatus(root: string): Result<StatusReport, ProlongError> {
  return Result.combine([readManifest(root), readTextIfExists(path.join(root, LOG_PATH))]).andThen(([manifest, log]) => {
    const logReport = {
      path: LOG_PATH,
      exists: log !== null,
      bytes: log === null ? 0 : Buffer.byteLength(log),
      events: log === null ? 0 : log.split("\n").filter((l) => l !== "").length,
    };
    const perClient = CLIENT_NAMES.map((name): Result<ClientStatusReport, ProlongError> => {
      const detected = CLIENTS[name].commandFound();
      if (!manifest || !manifest.clients.includes(name))
        return ok({ name, detected, installed: false, state: "not-installed", pieces: [] });
      return CLIENTS[name]
        .status(root, manifest)
        .map((pieces) => ({ name, detected, installed: true, state: worst(pieces), pieces }));
    });
    const shared: Result<ClientStatusReport, ProlongError> = !manifest
      ? ok({ name: "shared", detected: true, installed: false, state: "not-installed", pieces: [] })
      : statusOf(root, "shared", manifest).map((pieces) => ({
          name: "shared" as const,
          detected: true,
          installed: true,
          state: worst(pieces),
          pieces,
        }));
    return Result.combine([...perClient, shared]).map((clients) => ({
      root,
      initialized: manifest !== null,
      clients,
      log: logReport,
    }));
  });
}

export interface UninstallReport {
  readonly root: string;
  readonly clients: ClientName[];
  /** Clients still installed afterwards (the shared pieces stay while any is). */
  readonly remaining: ClientName[];
  readonly outcomes: RemoveOutcome[];
  /** Set when the log was kept because it holds session events (pass removeLog to delete it too). */
  readonly keptLog: string | null;
}

export interface UninstallOptions {
  readonly force: boolean;
  readonly removeLog: boolean;
}

/** Every settings file to be edited must parse before any file is touched. */
function checkSettings(root: string, manifest: Manifest, owners: readonly string[]): Result<void, ProlongError> {
  const hooks = manifest.entries.filter((e) => e.kind === "hooks" && owners.includes(e.owner));
  return Result.combine(
    hooks.map((e) => {
      const abs = path.join(root, e.path);
      return readTextIfExists(abs).andThen((text) => parseSettings(text, abs));
    }),
  ).map(() => undefined);
}

export function uninstallProject(
  root: string,
  requested: readonly ClientName[] | null,
  options: UninstallOptions,
): Result<UninstallReport, ProlongError> {
  return readManifest(root).andThen((manifest) => {
    if (!manifest) {
      return err(
        prolongError("not-initialized", "prolong init has not run here (no manifest)", {
          path: path.join(root, MANIFEST_PATH),
          fix: "nothing to remove; run it in the project root",
        }),
      );
    }
    const targets = ordered(requested ?? manifest.clients).filter((c) => manifest.clients.includes(c));
    const remaining = manifest.clients.filter((c) => !targets.includes(c));
    const owners: string[] = [...targets, ...(remaining.length === 0 ? ["shared"] : [])];
    const logAbs = path.join(root, LOG_PATH);
    return readTextIfExists(logAbs).andThen((log) => {
      // The last client going: the session log stays unless --remove-log, and while it stays so does the
      // .gitignore block that keeps it (prompts, tool output) out of `git add .`.
      const keepLog = remaining.length === 0 && log !== null && log !== "" && !options.removeLog;
      const keepsLog = (e: Manifest["entries"][number]) => keepLog && e.kind === "block" && e.path === GITIGNORE_PATH;
      const removing: Manifest = { ...manifest, entries: manifest.entries.filter((e) => !keepsLog(e)) };
      return checkSettings(root, removing, owners).andThen(() => {
        const removed = Result.combine(
          owners.map((o) =>
            o === "shared"
              ? uninstallOf(root, "shared", removing, options.force)
              : CLIENTS[o as ClientName].uninstall(root, removing, options.force),
          ),
        );
        return removed
          .map((lists) => lists.flat())
          .andThen((outcomes) => {
            if (remaining.length > 0) {
              const next: Manifest = {
                manifestVersion: 1,
                clients: remaining,
                entries: manifest.entries.filter((e) => !owners.includes(e.owner)),
              };
              return writeText(path.join(root, MANIFEST_PATH), formatManifest(next)).map(() => ({
                root,
                clients: targets,
                remaining,
                outcomes,
                keptLog: null,
              }));
            }
            const report = { root, clients: targets, remaining, outcomes, keptLog: keepLog ? LOG_PATH : null };
            // What stays (edited files, the log's .gitignore block) stays in a manifest with no client, so the
            // follow-ups the report suggests (--force, --remove-log) find it.
            const kept = new Set(outcomes.filter((o) => o.action === "kept").map((o) => o.path));
            const left = manifest.entries
              .filter((e) => keepsLog(e) || (owners.includes(e.owner) && kept.has(e.path)))
              .map((e) => ({ ...e, owner: "shared" as const }));
            const dropLog = log === null || keepLog ? ok(undefined) : removeFileAndEmptyParents(root, logAbs);
            if (left.length > 0)
              return dropLog
                .andThen(() =>
                  writeText(path.join(root, MANIFEST_PATH), formatManifest({ manifestVersion: 1, clients: [], entries: left })),
                )
                .map(() => report);
            return dropLog.andThen(() => removeFileAndEmptyParents(root, path.join(root, MANIFEST_PATH))).map(() => report);
          });
      });
    });
  });
}
