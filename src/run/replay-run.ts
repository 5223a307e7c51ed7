// A prolong run's own master log replayed against the real game: every section read back by its environment kind
// (a grid game's boards, or a terminal game's screen compared byte for byte as the section would be written again),
// each Tool Call stepped through the shared replay engine (replay.ts), each header checked against the tally.
// `prolong resume` replays a run before it plays on; `prolong replay <run-dir>` of a terminal game replays it alone.
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";
import type { SectionCodec, SectionRead, StepRule } from "../game/kinds.ts";
import type { GameEnv } from "../game/env.ts";
import { readLogBytes } from "../log/load.ts";
import { sectionIndex } from "../native.ts";
import { replay, SectionReplayer } from "./replay.ts";
import { newTally } from "./tally.ts";

/** A section of the master read back for the replay (replay.ts), with its bytes. */
export interface RecoveredSection extends SectionRead {
  /** The section's bytes as the master holds them. */
  readonly text: string;
  /** Set for a complete section the index had not recorded yet (a crash between append and index). */
  readonly unindexed: { start: number; end: number } | null;
}

/** One section of the master read back by its environment kind's codec, with its bytes. */
export function recoverSection(text: string, codec: SectionCodec): Result<Omit<RecoveredSection, "unindexed">, ProlongError> {
  return codec
    .read(text)
    .map((read) => ({ ...read, text }))
    .mapErr((why) => prolongError("bad-section", why));
}

export function replayError(path: string, action: number, what: string): ProlongError {
  return prolongError("replay-mismatch", `replaying the log diverges at Action ${action}: ${what}`, {
    path,
    fix: "the game or its version differs from the one that wrote this log; resume with the same prolong version",
  });
}

/** One section of a log's bytes, as the addon splits them: where it lies (without the join) and its text. */
export interface SectionBytes {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** Whether it ends as a written section does (a torn tail does not). */
  readonly complete: boolean;
}

/** A log's bytes split into its sections, in order: the one walk resume and the replay of a finished log share. */
export function* sectionSpans(bytes: Uint8Array): Iterable<SectionBytes> {
  const table = sectionIndex(bytes);
  const decoder = new TextDecoder();
  for (let i = 0; i < table.count; i++) {
    const start = table.start[i] as number;
    const end = i + 1 < table.count ? (table.start[i + 1] as number) - 1 : bytes.length; // minus the join "\n"
    yield { start, end, text: decoder.decode(bytes.subarray(start, end)), complete: table.complete[i] === 1 };
  }
}

/** A finished log's sections, each read back by its environment kind. */
export function logSections(bytes: Uint8Array, codec: SectionCodec, logPath: string): Result<RecoveredSection[], ProlongError> {
  const out: RecoveredSection[] = [];
  let i = -1;
  for (const span of sectionSpans(bytes)) {
    i++;
    const parsed = recoverSection(span.text, codec);
    if (parsed.isErr())
      return err(prolongError("bad-log", `section ${i} of the log does not parse: ${parsed.error.message}`, { path: logPath }));
    out.push({ ...parsed.value, unindexed: null });
  }
  return ok(out);
}

/**
 * A log replayed against a fresh game (`open` gives it with the run's seed and the kind's settings), each
 * section checked by its kind's codec (a terminal game's screen byte for byte), the first divergence an error of
 * kind replay-mismatch: the replay of a kind whose codec says a log cannot match past one (`replay:
 * "first-difference"`).
 */
export async function replayToFirstDifference(
  logPath: string,
  codec: SectionCodec,
  rule: StepRule,
  open: () => Result<GameEnv, ProlongError>,
): Promise<Result<{ sections: number; actions: number }, ProlongError>> {
  const bytes = readLogBytes(logPath);
  if (bytes.isErr()) return err(bytes.error);
  const sections = logSections(bytes.value, codec, logPath);
  if (sections.isErr()) return err(sections.error);
  if (sections.value.length === 0)
    return err(
      prolongError("not-a-log", "the log holds no section", { path: logPath, fix: "pass the logs.txt of a prolong run" }),
    );
  // The replayer closes each game it replaces; the last one opened is the one still running.
  const opened: GameEnv[] = [];
  const openGame = () => open().map((env) => (opened.push(env), env));
  try {
    const env = openGame();
    if (env.isErr()) return err(env.error);
    const first = await env.value.reset();
    if (first.isErr()) return err(first.error);
    const tally = newTally(first.value, rule);
    const replayer = new SectionReplayer(openGame);
    replayer.adopt(env.value);
    const replayed = await replay(sections.value, replayer, { stopAtFirst: true, first: first.value, tally });
    if (replayed.isErr()) return err(replayed.error);
    const d = replayed.value.differences[0];
    return d
      ? err(replayError(logPath, d.action, d.what.join("; ")))
      : ok({ sections: sections.value.length, actions: tally.action });
  } finally {
    await opened.at(-1)?.close();
  }
}
