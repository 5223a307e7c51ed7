// .prolong/manifest.json: what init installed, for whom, and a checksum of each piece, so that status can
// say intact or modified and uninstall can take out exactly what init put in.
import path from "node:path";
import { err, ok, type Result } from "neverthrow";
import * as v from "valibot";
import { prolongError, type ProlongError } from "../errors.ts";
import { readTextIfExists } from "./files.ts";
import { CLIENT_NAMES, MANIFEST_PATH } from "./layout.ts";

const OwnerSchema = v.picklist(["shared", ...CLIENT_NAMES]);

const EntrySchema = v.object({
  /** Project-relative path, with forward slashes. */
  path: v.string(),
  /** file: prolong owns the whole file; block: a managed block in a user's file; hooks: prolong's groups in a JSON settings file. */
  kind: v.picklist(["file", "block", "hooks"]),
  owner: OwnerSchema,
  /** sha256 of what prolong owns there: the file, the block's body, or the canonical text of its hook groups. */
  sha256: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
  /** Whether init created the file (then uninstall removes it once nothing else is left in it). */
  created: v.boolean(),
  /** For a settings file that existed before init: its text then, restored byte for byte by uninstall when
   * nothing but prolong's hooks changed in it (JSON is rewritten formatted, which would otherwise stay). */
  original: v.optional(v.string()),
});

const ManifestSchema = v.object({
  manifestVersion: v.literal(1),
  clients: v.array(v.picklist(CLIENT_NAMES)),
  entries: v.array(EntrySchema),
});

export type ManifestEntry = v.InferOutput<typeof EntrySchema>;
export type Manifest = v.InferOutput<typeof ManifestSchema>;
export type Owner = ManifestEntry["owner"];

/** The project's manifest, or null when prolong init has not run there. */
export function readManifest(root: string): Result<Manifest | null, ProlongError> {
  const abs = path.join(root, MANIFEST_PATH);
  return readTextIfExists(abs).andThen((text) => {
    if (text === null) return ok(null);
    const fix = "run 'prolong init' again to rewrite it (it only records what prolong installed)";
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      return err(prolongError("bad-manifest", `not valid JSON (${(e as Error).message})`, { path: abs, fix }));
    }
    const parsed = v.safeParse(ManifestSchema, json);
    if (!parsed.success) {
      const issue = parsed.issues[0];
      const where = issue ? (v.getDotPath(issue) ?? "(top level)") : "(top level)";
      return err(prolongError("bad-manifest", `field ${where}: ${issue?.message ?? "invalid"}`, { path: abs, fix }));
    }
    return ok(parsed.output);
  });
}

export function formatManifest(m: Manifest): string {
  return JSON.stringify(m, null, 2) + "\n";
}
