// What produced a run (score/provenance.ts has the record and its comparison): this process's build, what the
// environment kind says decides its runs (NetHack: the binary and options hashes; ARC: the engine), a coding
// CLI's `--version`, and the model asked for. Recorded in run.json with the game's content hash once the game
// is open; resume compares its own with it; the scorecard carries the starting build's.
import { spawnSync } from "node:child_process";
import { findCli } from "../agent/cli-process.ts";
import { buildId } from "../build-id.ts";
import type { RunConfig } from "../config/run-config.ts";
import { envKind } from "../game/kinds.ts";
import { err, ok, type Result } from "neverthrow";
import * as v from "valibot";
import { prolongError, type ProlongError } from "../errors.ts";
import type { GameInfo } from "../game-model.ts";
import { gameVersionOf } from "../game/version.ts";
import { FILE_CAPS, readRegularText, writeFileReplacing } from "../safe-file.ts";
import { provenanceDifferences, RunProvenanceSchema, type Provenance, type RunProvenance } from "../score/provenance.ts";

// A CLI does not change while a process runs: asked once per process.
const versions = new Map<string, string | null>();

/** The first line a CLI prints for --version, or null when it cannot be run. */
function cliVersion(name: string): string | null {
  if (!versions.has(name)) {
    const bin = findCli(name);
    const r = bin ? spawnSync(bin, ["--version"], { encoding: "utf8", timeout: 20_000 }) : null;
    const line = (r?.stdout ?? "").trim().split("\n")[0]?.trim() ?? "";
    versions.set(name, r?.status === 0 && line !== "" ? line.slice(0, 100) : null);
  }
  return versions.get(name) ?? null;
}

export function runProvenance(config: RunConfig): Provenance {
  const parts: Record<string, string> = { ...envKind(config.env).provenance?.(config) };
  if (config.agent === "claude" || config.agent === "codex") {
    const version = cliVersion(config.agent);
    if (version) parts[`${config.agent} CLI`] = version;
  }
  if (config.model !== undefined) parts.model = config.model;
  return { build: { ...buildId() }, parts };
}

/** What run.json records when the game is open: this process's provenance and the game's content hash. */
export function startProvenance(config: RunConfig, game: GameInfo): RunProvenance {
  return { ...runProvenance(config), game: gameVersionOf(game) };
}

/** run.json: the run's settings, then `provenance` (readers of the settings drop the extra key). */
export function writeRunJson(path: string, config: RunConfig, provenance: RunProvenance | null): Result<void, ProlongError> {
  const json = provenance ? { ...config, provenance } : config;
  return writeFileReplacing(path, JSON.stringify(json, null, 2) + "\n");
}

const RunJsonProvenance = v.object({ provenance: v.optional(RunProvenanceSchema) });

/** The provenance run.json holds; null for a run started before it was recorded ("unknown build"). */
export function readRunProvenance(path: string): Result<RunProvenance | null, ProlongError> {
  return readRegularText(path, FILE_CAPS.settings, "the run's settings (run.json)").andThen((text) => {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      return err(prolongError("bad-config", `cannot read the run's settings: ${(e as Error).message}`, { path }));
    }
    const parsed = v.safeParse(RunJsonProvenance, json);
    if (parsed.success) return ok(parsed.output.provenance ?? null);
    const issue = parsed.issues[0];
    const field = issue.path?.map((p) => String(p.key)).join(".") ?? "provenance";
    return err(
      prolongError("bad-config", `${field}: ${issue.message}`, {
        path,
        fix: "run.json's provenance is written by prolong when the run starts; restore it, or remove the provenance key (the run is then an unknown build)",
      }),
    );
  });
}

/**
 * Why this process may not resume a run started as `started` records: every way its build and outside parts
 * differ from this process's (empty: the same, or a run from before provenance was recorded). A run is one
 * build's result; --allow-mixed-builds continues it anyway and its scorecard then names both (finalProvenance).
 */
export function resumeDifferences(started: RunProvenance | null, config: RunConfig): string[] {
  if (!started) return [];
  const { game: _, ...start } = started;
  return provenanceDifferences(start, runProvenance(config));
}

/**
 * The scorecard's provenance: the build that started the run (run.json), with a "resumed by" part naming how
 * the finishing process differed when a resume was allowed to mix builds; this process's own for a run from
 * before run.json held it.
 */
export function finalProvenance(runJson: string, config: RunConfig): Provenance {
  const now = runProvenance(config);
  const started = readRunProvenance(runJson);
  if (started.isErr() || started.value === null) return now;
  const { game: _, ...start } = started.value;
  const differs = provenanceDifferences(start, now);
  if (differs.length === 0) return start;
  return { ...start, parts: { ...start.parts, "resumed by": differs.join("; ").slice(0, 200) } };
}
