// How a run's agent used its tools, from trajectory.jsonl: how many calls fell in each class (tool-classes.ts)
// and how much of the log each turn pulled into the agent's context (the output bytes of the calls that read,
// search or analyse the log) against the size of the log it had then. Pooled per arm by adding the runs' counts.
import { join } from "node:path";
import { RUN_FILES } from "../run-files/layout.ts";
import { readTrajectory, type TrajectoryRecord } from "../run-files/trajectory.ts";
import { classifyCall, LOG_CLASSES, TOOL_CLASSES, type ToolClass } from "./tool-classes.ts";

export interface ToolUse {
  /** Agent calls (turns) with a record, and tool calls over them. */
  readonly turns: number;
  readonly calls: number;
  readonly byClass: Readonly<Record<ToolClass, number>>;
  /** Output bytes of the log-class calls, summed over the turns. */
  readonly logBytesPulled: number;
  /** Bytes of logs.txt the agent had, summed over the turns (so pulled/given is the pooled share). */
  readonly logBytesGiven: number;
  /** Mean over turns with a log of (bytes pulled ÷ log size); null when no turn had one. */
  readonly meanPulledShare: number | null;
  /** Turns that had a log (logBytes > 0), the denominator of meanPulledShare. */
  readonly turnsWithLog: number;
  /** Sum of per-turn shares (for pooling means across runs). */
  readonly pulledShareSum: number;
}

export function emptyByClass(): Record<ToolClass, number> {
  return Object.fromEntries(TOOL_CLASSES.map((c) => [c, 0])) as Record<ToolClass, number>;
}

/** The tool use of one run's trajectory. */
export function toolUseOf(records: readonly TrajectoryRecord[]): ToolUse {
  const byClass = emptyByClass();
  const pulledByTurn = new Map<number, number>();
  const givenByTurn = new Map<number, number>();
  let calls = 0;
  for (const r of records) {
    if (r.kind === "turn") givenByTurn.set(r.turn, r.logBytes);
    if (r.kind !== "tool") continue;
    calls++;
    const c = classifyCall(r).class;
    byClass[c]++;
    if (LOG_CLASSES.has(c)) pulledByTurn.set(r.turn, (pulledByTurn.get(r.turn) ?? 0) + r.output.bytes);
  }
  let pulled = 0;
  let given = 0;
  let shareSum = 0;
  let withLog = 0;
  for (const [turn, logBytes] of givenByTurn) {
    const p = pulledByTurn.get(turn) ?? 0;
    pulled += p;
    given += logBytes;
    if (logBytes > 0) {
      withLog++;
      shareSum += p / logBytes;
    }
  }
  return {
    turns: givenByTurn.size,
    calls,
    byClass,
    logBytesPulled: pulled,
    logBytesGiven: given,
    meanPulledShare: withLog > 0 ? shareSum / withLog : null,
    turnsWithLog: withLog,
    pulledShareSum: shareSum,
  };
}

/** Several runs' tool use as one (an arm): counts added, the per-turn share averaged over all their turns. */
export function poolToolUse(runs: readonly ToolUse[]): ToolUse {
  const byClass = emptyByClass();
  for (const r of runs) for (const c of TOOL_CLASSES) byClass[c] += r.byClass[c];
  const sum = (f: (r: ToolUse) => number) => runs.reduce((a, r) => a + f(r), 0);
  const withLog = sum((r) => r.turnsWithLog);
  const shareSum = sum((r) => r.pulledShareSum);
  return {
    turns: sum((r) => r.turns),
    calls: sum((r) => r.calls),
    byClass,
    logBytesPulled: sum((r) => r.logBytesPulled),
    logBytesGiven: sum((r) => r.logBytesGiven),
    meanPulledShare: withLog > 0 ? shareSum / withLog : null,
    turnsWithLog: withLog,
    pulledShareSum: shareSum,
  };
}

/** Each class's share of the calls (0 when there were none). */
export function classShares(u: ToolUse): Record<ToolClass, number> {
  const out = emptyByClass();
  for (const c of TOOL_CLASSES) out[c] = u.calls > 0 ? u.byClass[c] / u.calls : 0;
  return out;
}

/** What `score --json` gives per run and per arm: the counts, each class's share, the log pulled per turn. */
export interface ToolUseSummary {
  readonly turns: number;
  readonly calls: number;
  readonly byClass: Readonly<Record<ToolClass, number>>;
  readonly shares: Readonly<Record<ToolClass, number>>;
  readonly logBytesPulledPerTurn: number | null;
  readonly logBytesGivenPerTurn: number | null;
  readonly meanPulledShare: number | null;
}

export function summarizeToolUse(u: ToolUse): ToolUseSummary {
  return {
    turns: u.turns,
    calls: u.calls,
    byClass: u.byClass,
    shares: classShares(u),
    logBytesPulledPerTurn: u.turns > 0 ? u.logBytesPulled / u.turns : null,
    logBytesGivenPerTurn: u.turns > 0 ? u.logBytesGiven / u.turns : null,
    meanPulledShare: u.meanPulledShare,
  };
}

const byDir = new Map<string, ToolUse | null>();

/**
 * The tool use of the run in `dir`, from its trajectory.jsonl; null when it has none (a run from before
 * trajectories) or it cannot be read (the score is still given; the trace command names the problem).
 * Read once per process: the per-run rows and the arm tables both ask.
 */
export function runToolUse(dir: string): ToolUse | null {
  const known = byDir.get(dir);
  if (known !== undefined) return known;
  const read = readTrajectory(join(dir, RUN_FILES.trajectory));
  const use = read.isOk() && read.value.length > 0 ? toolUseOf(read.value) : null;
  byDir.set(dir, use);
  return use;
}
