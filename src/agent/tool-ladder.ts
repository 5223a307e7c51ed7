// The tool ladder of the ablation arms (--tools read | read,grep | read,grep,python | all, and --no-write):
// what each level means, and how it becomes each backend's own controls — the mini agent's command check
// (mini/shell-check.ts), Claude Code's --tools/--allowedTools, and what Codex's configuration can express.
// One definition, so the docs, the run's settings and the CLIs' arguments cannot drift apart.
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";

// The levels themselves, and --tools as typed, are a setting of the run (config/tool-level.ts); this file says
// what they mean.
import { parseToolLevel, TOOL_LEVELS, type ToolLevel } from "../config/tool-level.ts";
export { parseToolLevel, TOOL_LEVELS, type ToolLevel };

export interface ToolPolicy {
  readonly level: ToolLevel;
  /** No file is created or changed except actions.json (the answer channel is always open). */
  readonly noWrite: boolean;
}

export const ALL_TOOLS: ToolPolicy = { level: "all", noWrite: false };

/** A run's policy from its settings (older runs, and runs without the flags, have every tool). */
export function policyOf(settings: {
  readonly tools?: ToolLevel | undefined;
  readonly noWrite?: boolean | undefined;
}): ToolPolicy {
  return { level: settings.tools ?? "all", noWrite: settings.noWrite === true };
}

export function isRestricted(p: ToolPolicy): boolean {
  return p.level !== "all" || p.noWrite;
}

/** Whether this level may write files other than actions.json (python and all may, unless --no-write). */
export function writesAllowed(p: ToolPolicy): boolean {
  return !p.noWrite && (p.level === "read,grep,python" || p.level === "all");
}

/**
 * Why a restricted level cannot run without a sandbox: a level is what exists in the agent's sandbox
 * (tool-tree.ts); without one the agent's shell (or a python it may run) can start any program and write
 * any file, so the arm would not be what it says.
 */
export function levelNeedsSandbox(p: ToolPolicy): ProlongError {
  return prolongError(
    "bad-config",
    `--tools ${p.level}${p.noWrite ? " --no-write" : ""} needs bubblewrap: without a sandbox the agent's shell can run any program and write any file, so the arm would not be what it says`,
    { fix: "install bubblewrap (apt-get install bubblewrap) and pass --sandbox bwrap (or auto), or run with --tools all" },
  );
}

export function describePolicy(p: ToolPolicy): string {
  return `${p.level}${p.noWrite ? ", no writes" : ""}`;
}

// ---- Claude Code ----

/**
 * Claude Code's arguments for a level. `--tools` is the set the model is offered (what it does not see it
 * cannot try); `--allowedTools` is what runs without a permission prompt (in -p mode anything else is
 * denied). `Edit(./actions.json)` is the one-file write grant: Claude Code applies Edit rules to every
 * file-editing tool, Write included. Bash rules are prefix matches on the command, which Claude Code itself
 * splits at && ; | — but they cannot stop a Python program from doing anything Python can.
 */
export function claudeToolArgs(p: ToolPolicy): string[] {
  const offered: string[] = ["Read", "Write"];
  const allowed: string[] = ["Read", "Edit(./actions.json)"];
  if (p.level !== "read") {
    offered.push("Grep", "Glob");
    allowed.push("Grep", "Glob");
  }
  if (p.level === "read,grep,python") {
    offered.push("Bash");
    allowed.push("Bash(python3:*)", "Bash(python:*)");
  }
  if (p.level === "all") {
    offered.push("Bash", "Edit");
    allowed.push("Bash");
  }
  if (writesAllowed(p)) {
    if (!offered.includes("Edit")) offered.push("Edit");
    allowed.splice(allowed.indexOf("Edit(./actions.json)"), 1, "Write", "Edit");
  }
  return ["--tools", offered.join(","), "--allowedTools", allowed.join(",")];
}

// ---- Codex ----

/**
 * Codex's arguments for a level, or an error when Codex cannot express it. Codex gives the model one shell
 * tool (plus apply_patch for edits); its configuration can switch the shell off but cannot limit which
 * programs the shell runs, so read and read,grep cannot be enforced and are refused rather than run
 * unenforced. read,grep,python likewise. --no-write maps to Codex's own read-only sandbox … which would
 * also forbid actions.json, so it is refused too; see docs/ablations.md.
 */
export function codexToolArgs(p: ToolPolicy): Result<string[], ProlongError> {
  if (p.level === "all" && !p.noWrite) return ok([]);
  const what = p.noWrite ? "--no-write" : `--tools ${p.level}`;
  return err(
    prolongError(
      "bad-config",
      `${what} cannot be enforced for Codex: its shell tool runs any program and its read-only sandbox would also forbid writing actions.json`,
      { fix: "run this arm with --agent mini or --agent claude, or use --tools all with Codex (see docs/ablations.md)" },
    ),
  );
}
