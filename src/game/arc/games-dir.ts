// A directory of ARC-AGI-3 game files in the toolkit's layout: <id>/<version>/<id>.py + metadata.json.
// This file reads and validates metadata.json (valibot) and resolves a game name ("ft09" or "ft09-0d8bbf25")
// to one version, as the toolkit does: an exact version when one is named, else the latest downloaded.
// It never runs the game; arc-local.ts does, through the Python bridge.
import { err, ok, type Result } from "neverthrow";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import * as v from "valibot";
import { prolongError, type ProlongError } from "../../errors.ts";

const MetadataSchema = v.looseObject({
  game_id: v.pipe(
    v.string("game_id must be a string"),
    v.regex(/^[a-z0-9]+(-[A-Za-z0-9_.]+)?$/, 'game_id must look like "ft09-0d8bbf25"'),
  ),
  title: v.optional(v.nullable(v.string("title must be a string"))),
  baseline_actions: v.optional(
    v.nullable(
      v.array(
        v.pipe(
          v.number("baseline_actions must hold numbers"),
          v.integer("baseline_actions must hold whole numbers"),
          v.minValue(1, "baseline_actions must be ≥ 1"),
        ),
      ),
    ),
  ),
  tags: v.optional(v.nullable(v.array(v.string("tags must hold strings")))),
  class_name: v.optional(v.nullable(v.string("class_name must be a string"))),
  date_downloaded: v.optional(v.nullable(v.string())),
});

/** One game version found in a games directory. */
export interface ArcGameEntry {
  /** Full id as the API names it, e.g. "ft09-0d8bbf25". */
  readonly gameId: string;
  /** The part before the first '-', e.g. "ft09". */
  readonly baseId: string;
  readonly version: string;
  readonly title: string;
  readonly baselineActions: readonly number[];
  readonly tags: readonly string[];
  /** The Python class the game file defines. */
  readonly className: string;
  readonly dir: string;
  readonly metadataFile: string;
  readonly gameFile: string;
  readonly dateDownloaded: string;
}

const LAYOUT = "<id>/<version>/<id>.py + metadata.json";

/** The toolkit's default class name: the first four characters of the id, first letter upper case. */
export function defaultClassName(gameId: string): string {
  const head = gameId.slice(0, 4);
  return head.charAt(0).toUpperCase() + head.slice(1);
}

/** Reads one version directory: its metadata.json validated, its game file present. */
export function readGameVersion(dir: string): Result<ArcGameEntry, ProlongError> {
  const metadataFile = join(dir, "metadata.json");
  if (!existsSync(metadataFile)) {
    return err(
      prolongError("game-file", "metadata.json is missing", {
        path: metadataFile,
        fix: `every version directory needs metadata.json beside its game file (${LAYOUT}); copy it from the games' source`,
      }),
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(metadataFile, "utf8"));
  } catch (e) {
    return err(
      prolongError("game-file", `metadata.json is not valid JSON: ${(e as Error).message}`, {
        path: metadataFile,
        fix: "restore the file from the games' source",
      }),
    );
  }
  const parsed = v.safeParse(MetadataSchema, json);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const field = issue.path?.map((p) => String(p.key)).join(".") ?? "(file)";
    return err(
      prolongError("game-file", `metadata.json: ${field}: ${issue.message}`, {
        path: metadataFile,
        fix: 'it needs at least {"game_id": "<id>-<version>", "baseline_actions": [..]}; restore it from the games\' source',
      }),
    );
  }
  const m = parsed.output;
  const [baseId = m.game_id, version = ""] = m.game_id.split(/-(.*)/s);
  const className = m.class_name ?? defaultClassName(m.game_id);
  // The toolkit looks for <class>.lower().py, then <class>.py.
  const candidates = [join(dir, `${className.toLowerCase()}.py`), join(dir, `${className}.py`)];
  const gameFile = candidates.find((p) => existsSync(p));
  if (!gameFile) {
    return err(
      prolongError("game-file", `the game file ${className.toLowerCase()}.py is missing`, {
        path: candidates[0]!,
        fix: `put the game's Python file beside metadata.json (${LAYOUT})`,
      }),
    );
  }
  return ok({
    gameId: m.game_id,
    baseId,
    version,
    title: m.title ?? baseId,
    baselineActions: m.baseline_actions ?? [],
    tags: m.tags ?? [],
    className,
    dir,
    metadataFile,
    gameFile,
    dateDownloaded: m.date_downloaded ?? "",
  });
}

/** Every game version under `root` (<id>/<version>/metadata.json), sorted by id. Any broken one is an error. */
export function listArcGames(root: string): Result<ArcGameEntry[], ProlongError> {
  const dir = resolve(root);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    return err(
      prolongError("no-games-dir", "the ARC games directory does not exist", {
        path: dir,
        fix: `pass --arc-games DIR with ARC's game files laid out as ${LAYOUT}`,
      }),
    );
  }
  const out: ArcGameEntry[] = [];
  for (const id of readdirSync(dir).sort()) {
    const idDir = join(dir, id);
    if (id.startsWith(".") || !statSync(idDir).isDirectory()) continue;
    for (const version of readdirSync(idDir).sort()) {
      const versionDir = join(idDir, version);
      if (version.startsWith(".") || !statSync(versionDir).isDirectory()) continue;
      const entry = readGameVersion(versionDir);
      if (entry.isErr()) return err(entry.error);
      out.push(entry.value);
    }
  }
  if (out.length === 0) {
    return err(
      prolongError("no-games", "no ARC games found (no <id>/<version>/metadata.json)", {
        path: dir,
        fix: `lay the game files out as ${LAYOUT}`,
      }),
    );
  }
  return ok(out.sort((a, b) => a.gameId.localeCompare(b.gameId)));
}

/**
 * The version a name means: "ft09-0d8bbf25" exactly, or "ft09" = the latest downloaded version (the
 * toolkit's rule). Only the named game's directories are read, so one broken game does not block another.
 */
export function findArcGame(root: string, name: string): Result<ArcGameEntry, ProlongError> {
  const dir = resolve(root);
  const [baseId = name, version] = name.split(/-(.*)/s);
  const idDir = join(dir, baseId);
  if (!existsSync(dir)) {
    return err(
      prolongError("no-games-dir", "the ARC games directory does not exist", {
        path: dir,
        fix: `pass --arc-games DIR with ARC's game files laid out as ${LAYOUT}`,
      }),
    );
  }
  if (!existsSync(idDir) || !statSync(idDir).isDirectory()) {
    const known = readdirSync(dir).filter((d) => !d.startsWith(".") && statSync(join(dir, d)).isDirectory());
    return err(
      prolongError("unknown-game", `no ARC game "${baseId}" in the games directory`, {
        path: dir,
        fix: `\`prolong games --arc-games ${root}\` lists them (${known.slice(0, 8).join(", ")}${known.length > 8 ? ", ..." : ""})`,
      }),
    );
  }
  const versions = readdirSync(idDir)
    .filter((d) => !d.startsWith(".") && statSync(join(idDir, d)).isDirectory())
    .sort();
  if (version !== undefined) {
    if (!versions.includes(version)) {
      return err(
        prolongError("unknown-game", `game ${baseId} has no version "${version}" (it has: ${versions.join(", ") || "none"})`, {
          path: idDir,
          fix: `name one of the versions, e.g. ${baseId}-${versions[0] ?? "<version>"}`,
        }),
      );
    }
    return readGameVersion(join(idDir, version));
  }
  const entries: ArcGameEntry[] = [];
  for (const ver of versions) {
    const entry = readGameVersion(join(idDir, ver));
    if (entry.isErr()) return err(entry.error);
    entries.push(entry.value);
  }
  const latest = entries.sort((a, b) => b.dateDownloaded.localeCompare(a.dateDownloaded))[0];
  if (!latest)
    return err(
      prolongError("unknown-game", `game ${baseId} has no version directory`, {
        path: idDir,
        fix: `lay the game files out as ${LAYOUT}`,
      }),
    );
  return ok(latest);
}
