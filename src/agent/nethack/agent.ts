// The built-in NetHack agent: plays through the same contract as any agent and keeps nothing between turns.
// Each call reads workspace/logs.txt back (this level's sections, the inventory, the episode's start, and the
// earlier episodes of a lifetime: lifetime.ts), applies the rules of policy.ts and writes
// workspace/actions.json. Deterministic for a given log.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../../errors.ts";
import { ACTIONS_FILE } from "../actions.ts";
import { NO_TOKENS, type Agent, type TurnInput, type TurnReply } from "../agent.ts";
import { decide, type Decision } from "./policy.ts";
import { readLifetime } from "./lifetime.ts";
import { readLevelHistory } from "./read-log.ts";
import { sectionIndex } from "../../native.ts";
import { readLogBytes } from "../../log/load.ts";

export const LOG_FILE = "logs.txt";

export function createNethackAgent(): Agent {
  return { name: "nethack-bot", turn: nethackTurn };
}

export function thinkFromLog(bytes: Uint8Array): Decision {
  const table = sectionIndex(bytes);
  const lifetime = readLifetime(bytes, table);
  if (lifetime.replay) return lifetime.replay;
  const history = readLevelHistory(bytes, table, {
    caution: lifetime.deaths,
    variant: lifetime.earlier.length,
    ...(lifetime.avoid ? { avoid: lifetime.avoid } : {}),
  });
  if (!history) return { actions: ["esc"], reason: "no readable NetHack section in the log yet" };
  return decide(history);
}

export async function nethackTurn(input: TurnInput): Promise<Result<TurnReply, ProlongError>> {
  const started = performance.now();
  const logPath = join(input.workspace, LOG_FILE);
  // Mapped, not copied (a 20,000-action log is read each turn); a FIFO or /dev/zero there is refused by name.
  const read = readLogBytes(logPath);
  if (read.isErr())
    return err(
      prolongError("nethack-agent-read", `cannot read the log: ${read.error.message}`, {
        path: logPath,
        fix: "the built-in NetHack agent needs the log (it does not play the --log-window -1 arm)",
      }),
    );
  const decision = thinkFromLog(read.value);
  const path = join(input.workspace, ACTIONS_FILE);
  try {
    writeFileSync(path, `${JSON.stringify({ actions: decision.actions.slice(0, input.actionCap) })}\n`);
  } catch (e) {
    return err(
      prolongError("nethack-agent-write", `cannot write actions: ${(e as Error).message}`, {
        path,
        fix: "check that the workspace is writable",
      }),
    );
  }
  return ok({
    text: `Next: ${decision.reason}.`,
    toolCalls: 0,
    tokens: NO_TOKENS,
    wallMs: performance.now() - started,
    exitCode: 0,
  });
}
