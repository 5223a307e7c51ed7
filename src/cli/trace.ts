// `prolong trace <run-dir>`: what the agent did, turn by turn, from the run's trajectory.jsonl — each model
// step and tool call with its class, command, output size, exit status and time; --json for scripts; filters
// by a turn range and a tool (its name or its class).
import { existsSync } from "node:fs";
import { err, ok, type Result } from "neverthrow";
import { formatError, prolongError, type ProlongError } from "../errors.ts";
import { runPaths } from "../run-files/layout.ts";
import { readTrajectory, type TrajectoryRecord } from "../run-files/trajectory.ts";
import { classifyCall, TOOL_CLASSES } from "../score/tool-classes.ts";
import { classShares, toolUseOf } from "../score/tool-use.ts";
import { flag, operandsFit, parseCommandArgs } from "./args.ts";
import { argumentProblem } from "./argument-problem.ts";
import type { Command } from "./command.ts";
import { groupDigits } from "./log-stats.ts";

const usage = `usage: prolong trace <run-dir> [--turns A-B] [--tool NAME] [--json]

The run's trajectory (trajectory.jsonl): for each agent turn, its model steps and tool calls with the
class of each call (${TOOL_CLASSES.join(", ")}), the command or file, the output's bytes and lines,
the exit status and the time; then the share of calls in each class and the log bytes pulled per turn.

  --turns A-B   only turns A to B (also A, A-, -B)
  --tool NAME   only calls of this tool (Bash, exec_command, bash, command, ...) or this class
  --json        one JSON object per record, tool calls with their class and the rule that decided it`;

const flags = { turns: flag.text(), tool: flag.text(), json: flag.bool() } as const;

const TRACE_OPERAND = { name: "<run-dir>", what: "the run directory whose trajectory.jsonl to show" };

export const traceCommand: Command = {
  name: "trace",
  summary: "what an agent did each turn: model steps and tool calls, classified; --turns, --tool, --json",
  usage,
  flags,
  async run(args) {
    const parsed = parseCommandArgs("trace", args, flags);
    if (!parsed) return 2;
    const [dir] = parsed.positionals;
    // What does not fit is said by operandsFit; the rest only narrows the types.
    if (!operandsFit("trace", parsed.positionals, [TRACE_OPERAND]) || dir === undefined) return 2;
    const range = parseTurns(parsed.values.turns);
    if (range.isErr()) return argumentProblem("trace", range.error.message, "e.g. --turns 3-9");
    const records = loadTrace(dir);
    if (records.isErr()) {
      console.error(formatError(records.error));
      return 2;
    }
    const chosen = filterTrace(records.value, range.value, parsed.values.tool);
    if (parsed.values.json) {
      process.stdout.write(chosen.map((r) => `${JSON.stringify(withClass(r))}\n`).join(""));
      return 0;
    }
    console.log(renderTrace(chosen));
    return 0;
  },
};

export function loadTrace(dir: string): Result<TrajectoryRecord[], ProlongError> {
  const path = runPaths(dir).trajectory;
  if (!existsSync(path))
    return err(
      prolongError("no-trajectory", "this directory has no trajectory.jsonl", {
        path,
        fix: "give a run directory (runs/<stamp>/<game>) played by this prolong; runs from before trajectories have none",
      }),
    );
  return readTrajectory(path);
}

export interface TurnRange {
  readonly from: number;
  readonly to: number;
}

export function parseTurns(text: string | undefined): Result<TurnRange, ProlongError> {
  if (text === undefined) return ok({ from: 1, to: Number.POSITIVE_INFINITY });
  const m = /^(\d*)(-?)(\d*)$/.exec(text.trim());
  const from = m?.[1] ? Number(m[1]) : 1;
  const to = m?.[3] ? Number(m[3]) : m?.[2] ? Number.POSITIVE_INFINITY : from;
  if (!m || (m[1] === "" && m[3] === "") || from > to)
    return err(prolongError("bad-flag", `--turns must be A, A-B, A- or -B with whole numbers A ≤ B, got '${text}'`));
  return ok({ from, to });
}

/** The records of the chosen turns; with a tool, only its calls (and the turn records they belong to). */
export function filterTrace(records: readonly TrajectoryRecord[], range: TurnRange, tool?: string): TrajectoryRecord[] {
  const inRange = records.filter((r) => r.turn >= range.from && r.turn <= range.to);
  if (tool === undefined) return inRange;
  const want = tool.toLowerCase();
  const calls = inRange.filter(
    (r) => r.kind === "tool" && (r.tool.toLowerCase() === want || classifyCall(r).class === want || r.act === want),
  );
  const turns = new Set(calls.map((r) => r.turn));
  return inRange.filter((r) => (r.kind === "turn" && turns.has(r.turn)) || calls.includes(r));
}

function withClass(r: TrajectoryRecord): TrajectoryRecord | (TrajectoryRecord & { class: string; rule: string }) {
  if (r.kind !== "tool") return r;
  const c = classifyCall(r);
  return { ...r, class: c.class, rule: c.rule };
}

/** Control characters (an agent's command may carry escape sequences) shown as \xNN, never sent to the terminal. */
export function printable(s: string): string {
  return s.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}

function oneLine(s: string, width: number): string {
  const flat = printable(s.replace(/\s*\n\s*/g, " ⏎ ").replace(/\t/g, " "));
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

function seconds(ms: number | null): string {
  if (ms === null) return "-";
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export function renderTrace(records: readonly TrajectoryRecord[]): string {
  const out: string[] = [];
  for (const r of records) {
    if (r.kind === "turn") {
      const t = r.tokens ? `  tokens in ${r.tokens.input} (cached ${r.tokens.cached}) out ${r.tokens.output}` : "";
      const failed = r.status === "failed" ? `  FAILED: ${oneLine(r.error ?? "", 100)}` : "";
      out.push(`turn ${r.turn}  ${r.backend}  ${seconds(r.ms)}  log ${groupDigits(r.logBytes)} B${t}${failed}`);
    } else if (r.kind === "model") {
      const t = r.tokens ? `in ${r.tokens.input} out ${r.tokens.output}  ` : "";
      out.push(`  ${String(r.step).padStart(3)} model         ${t}${r.text ? oneLine(r.text.text, 90) : ""}`);
    } else {
      const c = classifyCall(r).class;
      const exit = r.exit === null ? (r.error ? "error" : "") : `exit ${r.exit}`;
      const size = `${groupDigits(r.output.bytes)} B ${r.output.lines} l`;
      out.push(
        `  ${String(r.step).padStart(3)} ${oneLine(r.tool, 13).padEnd(13)} ${c.padEnd(11)} ${oneLine(r.input.text, 70).padEnd(70)} ${exit.padEnd(7)} ${size.padStart(14)} ${seconds(r.ms).padStart(8)}`,
      );
    }
  }
  const use = toolUseOf(records);
  if (use.calls > 0) {
    const shares = classShares(use);
    const parts = TOOL_CLASSES.filter((c) => use.byClass[c] > 0).map(
      (c) => `${c} ${use.byClass[c]} (${Math.round(shares[c] * 100)}%)`,
    );
    out.push("", `${use.calls} tool call(s) over ${use.turns} turn(s): ${parts.join(", ")}`);
    if (use.meanPulledShare !== null)
      out.push(
        `log pulled into context: ${groupDigits(Math.round(use.logBytesPulled / Math.max(1, use.turns)))} B per turn on average, ${(use.meanPulledShare * 100).toFixed(1)}% of the log per turn`,
      );
  } else if (records.length === 0) out.push("no records (the filters matched none, or the run made no agent call)");
  return out.join("\n");
}
