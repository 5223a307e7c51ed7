// What produced a run, as its scorecard records it: the build of prolong (version, commit, a hash of the code
// that ran) and each outside part that decides what the run does — the NetHack binary and its options, the
// coding CLI's version, the model. `score` refuses to pool runs of one arm whose provenance differs, naming
// the part, unless told --allow-mixed-builds. Runs written before provenance was recorded have none: they are
// an "unknown build", which pools with other unknown builds only.
import * as v from "valibot";
import { buildText, UNKNOWN_BUILD, type BuildId } from "../build-id.ts";

const Text = v.pipe(v.string(), v.maxLength(200));

export const ProvenanceSchema = v.object({
  build: v.object({
    version: Text,
    commit: v.nullable(v.pipe(v.string(), v.regex(/^[0-9a-f]{40}$/))),
    code: v.pipe(v.string(), v.regex(/^[0-9a-f]{16}$/)),
  }),
  /** Each other part by name ("nethack binary", "claude CLI", "model"…): a version or a content hash. */
  parts: v.pipe(
    v.record(Text, Text),
    v.check((r) => Object.keys(r).length <= 20, "at most 20 parts"),
  ),
});

export type Provenance = v.InferOutput<typeof ProvenanceSchema>;

/**
 * What run.json records of the process that started the run: its provenance and the game's content hash (its
 * version, as the scorecard's game_version: a local game's file hash). Resume compares both with its own.
 */
export const RunProvenanceSchema = v.object({
  ...ProvenanceSchema.entries,
  game: v.optional(Text),
});

export type RunProvenance = v.InferOutput<typeof RunProvenanceSchema>;

/** Every way two runs' provenance differs, as `part: A vs B` lines (empty: the same). */
export function provenanceDifferences(a: Provenance | undefined, b: Provenance | undefined): string[] {
  const out: string[] = [];
  const ba = a ? buildText(a.build as BuildId) : UNKNOWN_BUILD;
  const bb = b ? buildText(b.build as BuildId) : UNKNOWN_BUILD;
  if ((a?.build.code ?? null) !== (b?.build.code ?? null)) out.push(`build: ${ba} vs ${bb}`);
  const pa = a?.parts ?? {};
  const pb = b?.parts ?? {};
  for (const key of [...new Set([...Object.keys(pa), ...Object.keys(pb)])].sort()) {
    if (pa[key] !== pb[key]) out.push(`${key}: ${pa[key] ?? "unknown"} vs ${pb[key] ?? "unknown"}`);
  }
  return out;
}

/** One line naming what produced a run: the build and each part. */
export function provenanceText(p: Provenance | undefined): string {
  if (!p) return UNKNOWN_BUILD;
  const parts = Object.entries(p.parts).map(([k, x]) => `${k} ${x}`);
  return [buildText(p.build as BuildId), ...parts].join("; ");
}
