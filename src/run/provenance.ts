// What produced a run, gathered when it finishes (score/provenance.ts has the record and its comparison): this
// process's build, what the environment kind says decides its runs (NetHack: the binary and options hashes),
// a coding CLI's `--version`, and the model asked for.
import { spawnSync } from "node:child_process";
import { findCli } from "../agent/cli-process.ts";
import { buildId } from "../build-id.ts";
import type { RunConfig } from "../config/run-config.ts";
import { envKind } from "../game/kinds.ts";
import type { Provenance } from "../score/provenance.ts";

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
