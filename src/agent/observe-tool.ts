// The `observe` tool of the --observe arm, as every backend offers it: its name and description, the file it
// reads (written by the harness outside the workspace, run/observation.ts), and one bounded, link-refusing read
// of it. `prolong mcp-observe` serves it to Claude Code and Codex over MCP; the mini agent calls it in-process.
import { readFileIfPresent } from "../safe-file.ts";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { RUN_FILES } from "../run-files/layout.ts";

export const OBSERVE_TOOL = {
  name: "observe",
  description:
    "Return the current board of the game ([CURRENT BOARD STATE]) and the sections of the last batch of actions (each action, its animation frames, the board after it). Read-only; takes no arguments.",
} as const;

/** The MCP server's name in the CLIs' configuration: Claude Code calls the tool mcp__prolong__observe. */
export const OBSERVE_SERVER = "prolong";

/** Most bytes of an observation returned (the harness writes far less: a board and a capped batch). */
export const OBSERVATION_MAX_BYTES = 1024 * 1024;

/** The observation file of a workspace's run (beside the workspace, where the agent cannot write). */
export function observationFileOf(workspace: string): string {
  return join(dirname(workspace), RUN_FILES.observe, "observation.txt");
}

/** The observation's text, or why there is none (said to the model as the tool's error). */
export function readObservation(path: string): { ok: true; text: string } | { ok: false; why: string } {
  // The one safe reader of run files: a regular file only, no link followed, never blocking, size-capped.
  const read = readFileIfPresent(path, OBSERVATION_MAX_BYTES, "the observation");
  if (read.isErr()) return { ok: false, why: read.error.message };
  if (read.value === null) return { ok: false, why: "no observation yet (the harness writes one before each turn)" };
  return { ok: true, text: new TextDecoder().decode(read.value) };
}

/** This code's main.ts, and whether it runs from the compiled single binary. */
function running(): { main: string; compiled: boolean } {
  const main = join(import.meta.dir, "..", "main.ts");
  return { main, compiled: main.startsWith("/$bunfs/") || /^[A-Z]:[\\/]~BUN[\\/]/.test(main) };
}

/**
 * What a restricted level's tree must hold for `prolong mcp-observe` to start in it, file by file (never a
 * directory of programs, such as the one the binary lies in, or node_modules/.bin): the binary itself; or Bun
 * and this checkout's code, its native addon and its runtime dependencies. The observation's own directory
 * is added per turn (observeServer's first keep).
 */
export function observeServerFiles(): { from: string; to: string }[] {
  const { main, compiled } = running();
  const files = [process.execPath];
  if (!compiled) {
    const checkout = dirname(dirname(main));
    const deps = Object.keys(
      (JSON.parse(readFileSync(join(checkout, "package.json"), "utf8")) as { dependencies?: Record<string, string> })
        .dependencies ?? {},
    );
    files.push(
      ...["src", "native", "package.json"].map((p) => join(checkout, p)),
      ...deps.map((d) => join(checkout, "node_modules", d)),
    );
  }
  return files.filter((f) => existsSync(f)).map((f) => ({ from: f, to: f }));
}

/**
 * How to start `prolong mcp-observe` from inside the agent's sandbox: the compiled binary alone, or Bun with
 * this checkout's main.ts; and the paths that must stay visible there for it to start.
 */
export function observeServer(workspace: string): { argv: string[]; keep: string[]; observationDir: string } {
  const { main, compiled } = running();
  const file = observationFileOf(workspace);
  const self = compiled ? [process.execPath] : [process.execPath, main];
  return {
    argv: [...self, "mcp-observe", "--file", file],
    keep: [dirname(file), dirname(process.execPath), ...(compiled ? [] : [dirname(dirname(main))])],
    observationDir: dirname(file),
  };
}
