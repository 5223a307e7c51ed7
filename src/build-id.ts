// Which build of prolong is running, so every run can name what produced it and `score` can refuse to pool
// runs of two builds: the version, the git commit of the source tree (when there is one), and a hash of the
// code actually running — the TypeScript, the committed games and the native addon of a source tree, or the
// single binary's own bytes — so a dirty tree or a different binary shows even under one commit.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { blake3, mapFile, treeHash } from "./native.ts";
import { VERSION } from "./version.ts";

export interface BuildId {
  /** package.json's version. */
  readonly version: string;
  /** The source tree's git commit (40 hex digits); null when unknown (a binary, a tree without git). */
  readonly commit: string | null;
  /** 16 hex digits over the code that runs: equal code, equal hash, on any machine. */
  readonly code: string;
}

/** What a run without provenance (written before it was recorded) is shown as. */
export const UNKNOWN_BUILD = "unknown build";

// The source root, two levels above a file of src/ (a compiled binary serves its files from /$bunfs/).
const ROOT = join(import.meta.dir, "..");
const COMPILED = import.meta.dir.startsWith("/$bunfs") || import.meta.dir.startsWith("B:\\~BUN");

/** The parts of a source tree that decide what a run does: code, committed games and data, the addon. */
const CODE_PARTS = ["src", "data", "native/prolong-native.node", "package.json"] as const;

/** The source tree's files, hashed in one native call (native.ts treeHash says the order and framing). */
function sourceTreeHash(): string {
  return treeHash(ROOT, CODE_PARTS).slice(0, 16);
}

function binaryHash(): string {
  const mapped = mapFile(process.execPath);
  if (mapped instanceof Uint8Array) return blake3(mapped).slice(0, 16);
  return createHash("sha256").update(readFileSync(process.execPath)).digest("hex").slice(0, 16);
}

function gitCommit(): string | null {
  if (COMPILED || !existsSync(join(ROOT, ".git"))) return null;
  return headCommit(ROOT) ?? gitRevParse(ROOT);
}

const COMMIT = /^[0-9a-f]{40}$/;

/** A small text file of the git directory, trimmed; null when it is not there. */
function gitText(path: string): string | null {
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    return null;
  }
}

/**
 * The commit a work tree's HEAD names, read from the git directory's files as git writes them (HEAD, a loose
 * ref, packed-refs; a linked work tree's `.git` file and its `commondir`), so that starting a run spawns no
 * git (a spawn was a third of the build id's cost). Null when the files say something this does not read
 * (another ref format, a symbolic ref chain): then git is asked.
 */
export function headCommit(root: string): string | null {
  const dotGit = join(root, ".git");
  const link = /^gitdir: (.+)$/.exec(gitText(dotGit) ?? "")?.[1];
  const gitDir = link === undefined ? dotGit : resolve(root, link);
  const common = gitText(join(gitDir, "commondir"));
  const commonDir = common === null ? gitDir : resolve(gitDir, common);
  const head = gitText(join(gitDir, "HEAD"));
  if (head === null) return null;
  if (COMMIT.test(head)) return head;
  const ref = /^ref: (refs\/[^\s]+)$/.exec(head)?.[1];
  if (ref === undefined || ref.split("/").includes("..")) return null;
  for (const dir of [gitDir, commonDir]) {
    const loose = gitText(join(dir, ref));
    if (loose !== null) return COMMIT.test(loose) ? loose : null;
  }
  for (const line of (gitText(join(commonDir, "packed-refs")) ?? "").split("\n")) {
    const [commit, name] = line.split(" ");
    if (name === ref && commit !== undefined && COMMIT.test(commit)) return commit;
  }
  return null;
}

function gitRevParse(root: string): string | null {
  const r = spawnSync("git", ["-C", root, "rev-parse", "HEAD"], { encoding: "utf8", timeout: 5_000 });
  const out = (r.stdout ?? "").trim();
  return r.status === 0 && COMMIT.test(out) ? out : null;
}

let cached: BuildId | undefined;

/** This process's build (computed once: a few milliseconds over the source tree). */
export function buildId(): BuildId {
  cached ??= { version: VERSION, commit: gitCommit(), code: COMPILED ? binaryHash() : sourceTreeHash() };
  return cached;
}

/** A build as one short line: "0.1.0 at 1a2b3c4, code 0f1e2d3c4b5a6978". */
export function buildText(b: BuildId | undefined): string {
  if (!b) return UNKNOWN_BUILD;
  return `${b.version}${b.commit ? ` at ${b.commit.slice(0, 7)}` : ""}, code ${b.code}`;
}
