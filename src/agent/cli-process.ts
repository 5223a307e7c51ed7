// Running an external agent program for one turn, shared by the command, Claude Code and Codex backends:
// finding the CLI, its private directories beside the workspace (HOME and the session record), and spawning
// it in its own session so that, at its end or timeout, everything it started is killed (turn-processes.ts). Not here: what the arguments
// mean (each backend's file) and the bubblewrap argv (sandbox.ts).
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import { delimiter, dirname, join, resolve } from "node:path";
import { err, ok, type Result } from "neverthrow";
import * as v from "valibot";
import { prolongError, type ProlongError } from "../errors.ts";
import { FILE_CAPS, readFileIfPresent, writeFileReplacing } from "../safe-file.ts";
import { withLimits, type ProcessLimits } from "./rlimits.ts";
import { becomeSubreaper } from "../libc.ts";
import { killTurnProcesses, pipesOf, ticksSinceBoot, TURN_TOKEN_VAR, turnStartTick, type TurnMarks } from "./turn-processes.ts";
import { makeTurnCgroup, type TurnCgroup } from "./turn-cgroup.ts";
import { terminalLine } from "../terminal-text.ts";

export interface ProcessSpec {
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Text written to stdin, or null for /dev/null (Codex waits for stdin to close otherwise). */
  readonly stdin: string | null;
  readonly timeoutSec: number;
  /**
   * Called with each complete stdout line; JSONL-speaking CLIs are parsed as they go, not buffered whole. A
   * line longer than `lineCap` characters arrives cut to it, with the number of characters dropped.
   */
  readonly onStdoutLine?: (line: string, dropped: number) => void;
  /** The longest line passed to onStdoutLine (default LINE_CAP). */
  readonly lineCap?: number;
  /** Characters of stdout and stderr together after which every process of the turn is killed (default OUTPUT_CAP). */
  readonly outputCap?: number;
  /** Limits on the processes (rlimits.ts): how many the agent's user may have, and each one's memory. */
  readonly limits?: ProcessLimits;
}

export interface ProcessOutcome {
  /** The exit status; 128 + n after signal n; 127 when the program could not be started. */
  readonly exitCode: number;
  readonly timedOut: boolean;
  /** The last 64 KB of each stream, for answers and error messages. */
  readonly stdoutTail: string;
  readonly stderrTail: string;
  /** The whole of stdout's size, in UTF-8 bytes and newline characters (the tail keeps only its end). */
  readonly stdoutBytes: number;
  readonly stdoutNewlines: number;
  readonly wallMs: number;
  /** Why spawning failed (ENOENT, EACCES), when it did. */
  readonly spawnError?: string;
  /** Characters of output read before the processes were killed for passing outputCap; absent when under it. */
  readonly outputCutAt?: number;
}

const TAIL_BYTES = 64 * 1024;
/** The longest stdout line passed on whole (a JSONL event of a coding CLI stays far below it). */
export const LINE_CAP = 16 * 1024 * 1024;
/** Output of one process tree after which it is killed: no agent's turn needs more, and memory stays bounded. */
export const OUTPUT_CAP = 512 * 1024 * 1024;
const SIGNALS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

/** How long the streams may stay open after the agent exited and its strays were killed (a pipe passed on to a process we could not find). */
const DRAIN_MS = 2000;

/**
 * Spawns argv as the leader of a new session and process group. When it exits, or at the timeout, every
 * process of the turn is killed (turn-processes.ts: setsid'd children included); the harness never waits on
 * a pipe that a stray process holds open.
 */
export async function runInGroup(spec: ProcessSpec): Promise<ProcessOutcome> {
  const started = performance.now();
  // Orphans of the turn come back to the harness (libc.ts), however they hid; the start tick tells them apart.
  becomeSubreaper();
  const startedTicks = turnStartTick();
  const [bin, ...args] = spec.limits ? withLimits(spec.argv, spec.limits) : spec.argv;
  if (bin === undefined) throw new Error("runInGroup needs a program");
  const token = `${TURN_TOKEN_VAR}=${randomUUID()}`;
  const env = Object.fromEntries(Object.entries(spec.env).filter((e): e is [string, string] => e[1] !== undefined));
  env[TURN_TOKEN_VAR] = token.slice(TURN_TOKEN_VAR.length + 1);
  // The agent's own pids cgroup where one can be made (turn-cgroup.ts): its processes bounded whoever it runs as.
  const cgroup = spec.limits ? turnCgroup(spec.limits) : null;
  let child: ReturnType<typeof spawn>;
  try {
    const start = () =>
      spawn(bin, args, {
        cwd: spec.cwd,
        detached: true,
        stdio: [spec.stdin === null ? "ignore" : "pipe", "pipe", "pipe"],
        env,
      });
    child = cgroup ? cgroup.spawnInside(start) : start();
  } catch (e) {
    cgroup?.remove();
    // posix_spawn can fail at once (E2BIG for a huge prompt, ENOENT for a cwd that is gone): a failed turn, not a crash.
    return {
      exitCode: 127,
      timedOut: false,
      stdoutTail: "",
      stderrTail: "",
      stdoutBytes: 0,
      stdoutNewlines: 0,
      wallMs: Math.round(performance.now() - started),
      spawnError: (e as Error).message,
    };
  }
  const marks: TurnMarks = {
    leader: child.pid ?? -1,
    token,
    pipes: child.pid === undefined ? [] : pipesOf(child.pid),
    since: startedTicks,
    ...(cgroup ? { cgroup } : {}),
  };
  live.add(marks);
  let stdoutTail = "";
  let stderrTail = "";
  let outputSeen = 0;
  let outputCutAt: number | undefined;
  const outputCap = spec.outputCap ?? OUTPUT_CAP;
  const counted = (n: number) => {
    outputSeen += n;
    if (outputCutAt === undefined && outputSeen > outputCap) {
      outputCutAt = outputSeen;
      if (marks.leader > 0) killTurnProcesses(marks, true);
      child.stdout?.destroy();
      child.stderr?.destroy();
    }
  };
  let stdoutBytes = 0;
  let stdoutNewlines = 0;
  const lines = spec.onStdoutLine ? new LineSplitter(spec.lineCap ?? LINE_CAP, spec.onStdoutLine) : null;
  child.stdout?.setEncoding("utf8").on("data", (d: string) => {
    if (outputCutAt !== undefined) return;
    stdoutTail = tailOfJoin(stdoutTail, d);
    stdoutBytes += Buffer.byteLength(d, "utf8");
    for (let at = d.indexOf("\n"); at !== -1; at = d.indexOf("\n", at + 1)) stdoutNewlines++;
    lines?.push(d);
    counted(d.length);
  });
  child.stderr?.setEncoding("utf8").on("data", (d: string) => {
    if (outputCutAt !== undefined) return;
    stderrTail = tailOfJoin(stderrTail, d);
    counted(d.length);
  });
  if (child.stdin) {
    child.stdin.on("error", () => {}); // a program that never reads stdin closes the pipe early
    child.stdin.end(spec.stdin ?? "");
  }
  const closed = new Promise<void>((res) => child.on("close", () => res()));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    if (marks.leader > 0) killTurnProcesses(marks, true);
  }, spec.timeoutSec * 1000);
  let spawnError: string | undefined;
  let exitedAt = Number.POSITIVE_INFINITY;
  const exitCode: number = await new Promise((res) => {
    child.on("error", (e) => {
      spawnError = e.message;
      res(127);
    });
    child.on("exit", (code, signal) => {
      exitedAt = ticksSinceBoot();
      res(code ?? 128 + (signal ? (SIGNALS[signal] ?? 0) : 0));
    });
  });
  clearTimeout(timer);
  if (marks.leader > 0) killTurnProcesses(marks, false, exitedAt); // whatever it left running in the background goes too
  cgroup?.remove();
  live.delete(marks);
  // The streams end once every holder of the pipes is gone; one we could not find is cut off, not waited for.
  let drain: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    closed,
    new Promise<void>((res) => {
      drain = setTimeout(res, DRAIN_MS);
    }),
  ]);
  clearTimeout(drain);
  child.stdout?.destroy();
  child.stderr?.destroy();
  lines?.end();
  return {
    exitCode,
    timedOut,
    stdoutTail,
    stderrTail,
    stdoutBytes,
    stdoutNewlines,
    wallMs: Math.round(performance.now() - started),
    ...(spawnError ? { spawnError } : {}),
    ...(outputCutAt !== undefined ? { outputCutAt } : {}),
  };
}

/** The last TAIL_BYTES characters of a + b, without copying more than that of a big chunk. */
function tailOfJoin(a: string, b: string): string {
  if (b.length >= TAIL_BYTES) return b.slice(-TAIL_BYTES);
  return (a.slice(-(TAIL_BYTES - b.length)) + b).slice(-TAIL_BYTES);
}

/**
 * Splits a stream into lines in time linear in its length: the partial line is kept as a list of pieces and
 * joined once, at its newline (re-joining it on every chunk was quadratic: one endless line pinned a core
 * and gigabytes). A line longer than `cap` keeps its first `cap` characters; the rest is counted, not kept.
 */
export class LineSplitter {
  private pieces: string[] = [];
  private kept = 0;
  private dropped = 0;
  constructor(
    private readonly cap: number,
    private readonly onLine: (line: string, dropped: number) => void,
  ) {}
  push(chunk: string): void {
    let at = 0;
    for (;;) {
      const nl = chunk.indexOf("\n", at);
      this.keep(chunk, at, nl === -1 ? chunk.length : nl);
      if (nl === -1) return;
      this.emit();
      at = nl + 1;
    }
  }
  /** The last line, if the stream did not end with a newline. */
  end(): void {
    if (this.kept > 0 || this.dropped > 0) this.emit();
  }
  private keep(chunk: string, from: number, to: number): void {
    const room = Math.max(0, this.cap - this.kept);
    const take = Math.min(room, to - from);
    if (take > 0) this.pieces.push(chunk.slice(from, from + take)), (this.kept += take);
    this.dropped += to - from - take;
  }
  private emit(): void {
    const line = this.pieces.join("");
    const dropped = this.dropped;
    this.pieces = [];
    this.kept = 0;
    this.dropped = 0;
    this.onLine(line, dropped);
  }
}

let saidNoCgroup = false;

/**
 * A pids cgroup for one agent process run, holding as many tasks as its limits allow; null when none can be
 * made, said once when that leaves the agent unbounded in processes (it runs as root: NPROC does not bind).
 */
function turnCgroup(limits: ProcessLimits): TurnCgroup | null {
  const made = makeTurnCgroup(limits.processes);
  if (typeof made !== "string") return made;
  if (limits.uid === 0 && !saidNoCgroup) {
    saidNoCgroup = true;
    process.stderr.write(
      `prolong: no pids cgroup can be made for the agent's turns (${terminalLine(made)}); as root its processes are bounded only by the turn's deadline (run with --sandbox bwrap, or as a user, to bound them)\n`,
    );
  }
  return null;
}

/** The turns whose processes are running now, so that a signal to the harness can end them first. */
const live = new Set<TurnMarks>();

/**
 * Kills every process of every running turn (the agent, its children, its daemons), synchronously: called
 * when the harness itself is told to stop (SIGTERM, SIGHUP, a second Ctrl-C) and on its way out, so nothing
 * it started goes on writing into a workspace after it is gone. Returns how many processes were killed.
 */
export function killRunningTurns(): number {
  let n = 0;
  for (const m of live) {
    if (m.leader > 0) n += killTurnProcesses(m, true);
    m.cgroup?.remove();
  }
  live.clear();
  return n;
}

/** The failure of a turn that did not end normally: timed out, not started, or a non-zero exit. Null if it exited 0. */
export function processFailure(what: string, o: ProcessOutcome, timeoutSec: number): ProlongError | null {
  if (o.timedOut) {
    return prolongError(
      "agent-timeout",
      `${what} did not finish within ${timeoutSec}s (after ${o.wallMs} ms); every process it started was killed`,
      { fix: "raise --agent-timeout, or check that the agent's model API answers" },
    );
  }
  if (o.spawnError) return prolongError("agent-exit", `${what} could not be started: ${o.spawnError}`);
  if (o.outputCutAt !== undefined)
    return prolongError(
      "agent-exit",
      `${what} wrote more output than the limit of one call (${o.outputCutAt} characters read); every process it started was killed`,
      { fix: "an agent's answer goes to actions.json and a short text: check what it prints" },
    );
  if (o.exitCode === 0) return null;
  return prolongError("agent-exit", `${what} exited with status ${o.exitCode}${tailOf(o.stderrTail || o.stdoutTail)}`);
}

/** The last few lines of a stream, for an error message. */
export function tailOf(text: string, lines = 5): string {
  const t = text.trim().split("\n").slice(-lines).join("\n");
  return t ? `: ${t}` : "";
}

/**
 * A coding CLI's executable: ./node_modules/.bin first (npm install --no-save puts it there), then the
 * node_modules/.bin of the prolong checkout, then PATH. Null when none has it.
 */
export function findCli(name: string, opts: { dirs?: readonly string[]; path?: string } = {}): string | null {
  const dirs = opts.dirs ?? [join(process.cwd(), "node_modules/.bin"), resolve(import.meta.dir, "../../node_modules/.bin")];
  for (const d of dirs) {
    const candidate = join(d, name);
    if (existsSync(candidate)) return candidate;
  }
  for (const d of (opts.path ?? process.env["PATH"] ?? "").split(delimiter)) {
    if (d === "") continue;
    const candidate = join(d, name);
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

export function cliMissing(name: string, npmPackage: string): ProlongError {
  return prolongError("cli-missing", `the ${name} CLI was found neither in ./node_modules/.bin nor on PATH`, {
    fix: `install it: npm install ${npmPackage} (or npm install -g ${npmPackage})`,
  });
}

// ---- the files a CLI backend keeps beside the workspace, in the run directory the agent cannot see ----

/** HOME for the CLI: fixed per workspace, so its sessions and settings survive between turns and resumes. */
export function agentHome(workspace: string): string {
  const home = join(dirname(workspace), "agent-home");
  mkdirSync(home, { recursive: true });
  return home;
}

const SessionRecordSchema = v.object({
  backend: v.picklist(["claude", "codex"]),
  /** Claude's session id or Codex's thread id. */
  sessionId: v.string(),
  /** True once the CLI confirmed the session exists (so the next turn resumes it rather than creating it). */
  confirmed: v.boolean(),
  /** Codex reports usage summed over the thread: the figures after the last turn, to take deltas from. */
  cumulative: v.optional(v.object({ input: v.number(), cached: v.number(), output: v.number() })),
});
export type SessionRecord = v.InferOutput<typeof SessionRecordSchema>;

/** The session record's file: in the run directory, so `prolong resume` continues the same session. */
export function sessionRecordPath(workspace: string): string {
  return join(dirname(workspace), "agent-session.json");
}

/** The saved session of this workspace; ok(null) when there is none yet. */
export function readSessionRecord(workspace: string): Result<SessionRecord | null, ProlongError> {
  const path = sessionRecordPath(workspace);
  // The run directory is input like any other: a FIFO, a link or /dev/zero at the name is refused, never read.
  const read = readFileIfPresent(path, FILE_CAPS.settings, "the agent's session record");
  if (read.isErr())
    return err({ ...read.error, code: "bad-session", fix: "delete what stands there to start a fresh agent session" });
  if (read.value === null) return ok(null);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(read.value));
  } catch (e) {
    return err(
      prolongError("bad-session", `cannot read the agent's session record: ${(e as Error).message}`, {
        path,
        fix: "delete the file to start a fresh agent session",
      }),
    );
  }
  const parsed = v.safeParse(SessionRecordSchema, json);
  if (!parsed.success)
    return err(
      prolongError("bad-session", `the agent's session record is malformed: ${parsed.issues[0].message}`, {
        path,
        fix: "delete the file to start a fresh agent session",
      }),
    );
  return ok(parsed.output);
}

/** Saved whole and renamed over the name: a crash mid-write leaves the old record, never half a file. */
export function writeSessionRecord(workspace: string, record: SessionRecord): Result<void, ProlongError> {
  return writeFileReplacing(sessionRecordPath(workspace), JSON.stringify(record) + "\n");
}

/** Parses one JSONL line; null for blank or non-JSON lines (CLIs print the odd warning to stdout). */
export function jsonLine(line: string): Record<string, unknown> | null {
  const t = line.trim();
  if (!t.startsWith("{")) return null;
  try {
    const value: unknown = JSON.parse(t);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A JSON value as an object, or null when it is not one (CLI events are read field by field, never trusted). */
export function asRecord(x: unknown): Record<string, unknown> | null {
  return typeof x === "object" && x !== null && !Array.isArray(x) ? (x as Record<string, unknown>) : null;
}
