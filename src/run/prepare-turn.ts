// Before every agent call: wipe the workspace in the stateless arm, then bring the agent's copy of the log
// up to date — verified against what the harness last wrote, repaired and recorded if the agent touched it.
import { err, ok, type Result } from "neverthrow";
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { INSTRUCTION_FILES } from "../agent/prompts.ts";
import type { ProlongError } from "../errors.ts";
import { syncAgentCopy } from "../log/sandbox.ts";
import { currentBoardText } from "../log/window.ts";
import type { RunSession } from "./session.ts";
import { writeInstructions } from "./start.ts";

/** Files the stateless arm keeps between turns. */
const KEPT = new Set<string>(["logs.txt", "plans.txt", ...INSTRUCTION_FILES]);

/** Returns the board text for the prompt in the no-log arm, undefined otherwise. */
export function prepareTurn(s: RunSession): Result<string | undefined, ProlongError> {
  if (s.config.workspace === "stateless") wipeWorkspace(s.paths.workspace);
  writeInstructions(s); // restored if the agent removed or edited them; also carries the current action list
  const synced = syncAgentCopy({ master: s.master, copyPath: s.paths.copy, index: s.index, window: s.window, mode: s.config.gridMode });
  if (synced.isErr()) return err(synced.error);
  const tamper = synced.value.tamper;
  if (tamper) {
    s.tally.tamperEvents += 1;
    s.events.emit("tamper", { tamper: tamper.kind, detail: tamper.detail, expectedBytes: tamper.expectedBytes, foundBytes: tamper.foundBytes, ...(tamper.firstDiff !== undefined ? { firstDiff: tamper.firstDiff } : {}), turn: s.tally.agentCalls + 1 });
  }
  if (s.window.kind !== "none") return ok(undefined);
  return currentBoardText(s.master, s.index);
}

function wipeWorkspace(dir: string): void {
  for (const name of readdirSync(dir)) {
    if (!KEPT.has(name)) rmSync(join(dir, name), { recursive: true, force: true });
  }
}
