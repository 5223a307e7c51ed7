// Every harness access to the agent's directory, behind a few named functions: prepare it for a turn (the
// workspace itself, the stateless wipe, the instruction files, the verified copy of the log), clear and read
// actions.json, append to plans.txt. The loop calls only these; all of them go through the held directory
// (workspace/dir.ts), so nothing the agent leaves there is ever followed, blocked on or read unbounded. What
// it left in a file's place comes back as tampers for the loop to record; the run goes on.
import { err, ok, type Result } from "neverthrow";
import { ACTIONS_FILE, ACTIONS_MAX_BYTES, parseActions, type ActionBatch } from "../agent/actions.ts";
import { quote } from "../action-text.ts";
import { INSTRUCTION_FILES, instructionsText, toolsText, workspaceText, type PromptContext } from "../agent/prompts.ts";
import type { ActionId } from "../game-model.ts";
import { prolongError, type ProlongError } from "../errors.ts";
import { verifyMasterTail } from "../log/run-index.ts";
import type { SectionLookup } from "../log/window.ts";
import { join } from "node:path";
import { RUN_FILES } from "../run-files/layout.ts";
import { FILE_CAPS, readFileIfPresent, writeFileReplacing } from "../safe-file.ts";
import {
  clearActionsFile,
  PLANS_FILE,
  plansWith,
  restorePlans,
  readActionsFile,
  wipeWorkspace,
  writeInstructionFiles,
} from "../workspace/agent-files.ts";
import { COPY_FILE, syncAgentCopy, type TamperEvent } from "../workspace/copy.ts";
import type { WorkspaceTamper } from "../workspace/dir.ts";
import { writeObservation } from "./observation.ts";
import { promptContext, type RunSession } from "./session.ts";

/** Files the stateless arm keeps between turns. */
const KEPT = new Set<string>([COPY_FILE, PLANS_FILE, ...INSTRUCTION_FILES]);

export interface PreparedTurn {
  /** What the instructions and the prompt say about the game and the arm this turn (made once, here). */
  readonly context: PromptContext;
  /** The current board for the prompt, in the no-log arm only. */
  readonly board: string | undefined;
  /** Bytes of logs.txt the agent is given for this turn (0 in the no-log arm). */
  readonly logBytes: number;
  /** What the agent did to its directory since the last turn, repaired by now. */
  readonly tampers: readonly (TamperEvent | WorkspaceTamper)[];
}

/**
 * Before every agent call: check that the master still ends as the index says (an edit by any means is
 * caught during the run), re-make a removed or replaced workspace, wipe it (stateless arm), restore the
 * instructions, bring the copy of the log up to date.
 */
export function prepareTurn(s: RunSession): Result<PreparedTurn, ProlongError> {
  const tail = verifyMasterTail(s.master, s.index);
  if (tail.isErr()) return err(tail.error);
  const tampers: (TamperEvent | WorkspaceTamper)[] = [];
  const dir = s.workspace.reattach();
  if (dir.isErr()) return err(dir.error);
  if (dir.value) tampers.push(dir.value);
  if (s.config.workspace === "stateless") {
    const wiped = wipeWorkspace(s.workspace, KEPT);
    if (wiped.isErr()) return err(wiped.error);
    const kept = readKeptPlans(s);
    if (kept.isErr()) return err(kept.error);
    const plans = restorePlans(s.workspace, kept.value);
    if (plans.isErr()) return err(plans.error);
    if (plans.value) tampers.push(plans.value);
  }
  const context = promptContext(s);
  const instructions = writeInstructions(s, context); // also carries the current action list
  if (instructions.isErr()) return err(instructions.error);
  tampers.push(...instructions.value);
  const synced = syncAgentCopy({
    master: s.master,
    workspace: s.workspace,
    index: s.index,
    window: s.window,
    mode: s.config.gridMode,
    windowing: s.kind.codec,
  });
  if (synced.isErr()) return err(synced.error);
  if (synced.value.tamper) tampers.push(synced.value.tamper);
  const logBytes = synced.value.copyBytes;
  if (s.window.kind !== "none" && !s.config.observe) return ok({ context, board: undefined, logBytes, tampers });
  return s.index.lookup().andThen((sections) =>
    currentObservation(s, sections).andThen((board) =>
      // --observe: the board goes to the observe tool, never into the prompt.
      s.config.observe
        ? writeObservation(s, board).map(() => ({ context, board: undefined, logBytes, tampers }))
        : ok({ context, board, logBytes, tampers }),
    ),
  );
}

/** The no-log arm's prompt text: its kind's codec's view of the newest section (a board, a whole screen). */
function currentObservation(s: RunSession, sections: SectionLookup): Result<string, ProlongError> {
  const last = sections.last();
  const fix = "the runner must end every turn on an action or INITIAL STATE section";
  if (!last) return err(prolongError("empty-log", "the master log has no section yet, so there is nothing to show", { fix }));
  return s.master
    .read(last.start, last.end)
    .andThen((bytes) =>
      s.kind.codec
        .current(new TextDecoder().decode(bytes), s.turn.frame)
        .mapErr((why) => prolongError("no-board", `the newest section (bytes ${last.start}..${last.end}): ${why}`, { fix })),
    );
}

/** The instructions file, under each name the coding CLIs look for. */
export function writeInstructions(s: RunSession, c: PromptContext): Result<WorkspaceTamper[], ProlongError> {
  const own = s.kind.instructions;
  const text = own
    ? own(
        {
          actionCap: c.actionCap,
          maxActions: c.maxActions,
          episodes: c.episodes,
          window: c.window,
          stateless: c.stateless,
          ...(c.observe ? { observe: c.observe } : {}),
          tools: toolsText(c),
          workspace: workspaceText(c),
        },
        s.config,
      )
    : instructionsText(c);
  const written = writeInstructionFiles(s.workspace, INSTRUCTION_FILES, text, s.turn.instructions);
  if (written.isOk()) s.turn.instructions = text;
  return written;
}

/** Removes the last turn's actions.json, so a turn that writes none is seen as such. */
export function clearActions(s: RunSession): Result<void, ProlongError> {
  return clearActionsFile(s.workspace, ACTIONS_FILE);
}

/** What reading actions.json gave: the batch, or why there is none (and the tamper, when it was not a file). */
export interface ActionsRead {
  readonly batch: Result<ActionBatch, ProlongError>;
  readonly tamper: WorkspaceTamper | null;
}

/** The agent's actions.json, read only as a regular file of at most ACTIONS_MAX_BYTES, parsed against the cap and the actions the game offers now. */
export function readActions(s: RunSession, available: readonly ActionId[]): Result<ActionsRead, ProlongError> {
  const path = s.workspace.shown(ACTIONS_FILE);
  const read = readActionsFile(s.workspace, ACTIONS_FILE, ACTIONS_MAX_BYTES);
  if (read.isErr()) return err(read.error);
  const f = read.value;
  if (f.kind === "missing") {
    return ok({
      tamper: null,
      batch: err(
        prolongError("no-actions-json", "the agent left no actions.json", {
          path,
          fix: 'write {"actions": ["ACTION1"]} in the workspace before ending the turn',
        }),
      ),
    });
  }
  if (f.kind === "unusable") {
    const fix = `write actions.json as a regular file of at most ${ACTIONS_MAX_BYTES} bytes`;
    return ok({
      tamper: f.tamper,
      batch: err(prolongError("unusable-actions-json", `actions.json was not read: ${f.tamper.detail}`, { path, fix })),
    });
  }
  const entry = s.kind.actionEntry;
  return ok({
    tamper: null,
    batch: parseActions(f.text, {
      cap: s.config.actionCap,
      available,
      path,
      ...(entry ? { entry: (e: string) => entry(e, s.config) } : {}),
    }),
  });
}

/** Stateless arm: the agent's plan goes to plans.txt in the workspace instead of the log. */
export function appendPlan(
  s: RunSession,
  turn: number,
  fromAction: number,
  plan: string,
): Result<WorkspaceTamper | null, ProlongError> {
  const kept = readKeptPlans(s);
  if (kept.isErr()) return err(kept.error);
  // What the agent did to plans.txt during its turn is seen (and recorded) before the next entry replaces it.
  const found = restorePlans(s.workspace, kept.value);
  if (found.isErr()) return err(found.error);
  const next = plansWith(kept.value, `--- turn ${turn} (from action ${fromAction})\n${plan}\n`);
  // The harness's copy first (temp + rename: a crash leaves the old one whole), then the agent's.
  const wrote = writeFileReplacing(join(s.paths.dir, RUN_FILES.plans), next);
  if (wrote.isErr()) return err(wrote.error);
  return s.workspace.replace(PLANS_FILE, next).map(() => found.value);
}

/** The harness's own copy of plans.txt, in the run directory (empty before the first plan). */
function readKeptPlans(s: RunSession): Result<Uint8Array, ProlongError> {
  // In the run directory, so input like any other: a FIFO, a link or /dev/zero there is refused, never read.
  return readFileIfPresent(join(s.paths.dir, RUN_FILES.plans), FILE_CAPS.keptPlans, "the harness's copy of plans.txt").map(
    (b) => b ?? new Uint8Array(0),
  );
}

/** One or two lines for the next prompt about the last actions.json: what was dropped, or why it was not used. Null when all was well. */
export function actionsNotice(batch: Result<ActionBatch, ProlongError>): string | null {
  if (batch.isErr())
    return `Your last actions.json could not be used: ${quote(batch.error.message)}.${batch.error.fix ? ` Fix: ${batch.error.fix}.` : ""}`;
  const w = batch.value.warnings;
  if (w.length === 0) return null;
  const shown = w.slice(0, 3).join("; ");
  return `From your last actions.json: ${quote(shown, 400)}${w.length > 3 ? ` (and ${w.length - 3} more)` : ""}.`;
}
