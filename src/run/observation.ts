// The --observe arm's observation: before each agent call the harness writes, outside the workspace, what the
// `observe` tool returns — the current board (as the no-log arm's prompt would show it) and the sections of the
// batch just played (each action, its animation frames, the board after it). `prolong mcp-observe` serves that
// file read-only over MCP; the mini agent reads it in-process. Nothing the agent writes is ever in it.
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";
import type { RunSession } from "./session.ts";

/** Most bytes of the last batch's sections put in an observation (the newest kept, the cut said). */
export const OBSERVATION_BATCH_BYTES = 256 * 1024;

/** Writes the observation; the batch in it is what was played since the turn's last one (TurnState.observedAt). */
export function writeObservation(s: RunSession, board: string): Result<void, ProlongError> {
  const since = s.turn.observedAt;
  s.turn.observedAt = s.tally.action;
  // After a resume the previous call is unknown: the newest section stands for the batch.
  const count = since === null ? 1 : Math.max(0, s.tally.action - since);
  const lookup = s.index.lookup({ actions: count });
  if (lookup.isErr()) return err(lookup.error);
  const sections = lookup.value;
  const pieces: string[] = [];
  let bytes = 0;
  let cut = 0;
  for (let n = 1; n <= count; n++) {
    const span = sections.nthLastAction(n);
    if (!span) break;
    if (bytes + (span.end - span.start) > OBSERVATION_BATCH_BYTES) {
      cut = count - n + 1;
      break;
    }
    const read = s.master.read(span.start, span.end);
    if (read.isErr()) return err(read.error);
    pieces.unshift(new TextDecoder().decode(read.value));
    bytes += span.end - span.start;
  }
  const batch =
    pieces.length === 0
      ? "[LAST BATCH]\n(no action yet)"
      : `[LAST BATCH: ${pieces.length} section(s)${cut > 0 ? `; ${cut} older one(s) left out to stay within ${OBSERVATION_BATCH_BYTES} bytes` : ""}]\n${pieces.join("\n")}`;
  const path = s.paths.observation;
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(`${path}.tmp`, `${board}\n\n${batch}\n`);
    renameSync(`${path}.tmp`, path); // the server never reads half an observation
    return ok(undefined);
  } catch (e) {
    return err(
      prolongError("observation-write", `cannot write the observation: ${(e as Error).message}`, {
        path,
        fix: "check that the run directory is writable and the disk has room; `prolong resume` continues the run",
      }),
    );
  }
}
