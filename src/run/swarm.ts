// Many runs (games × repeats) with bounded concurrency. Each run is a child process — `prolong play --run-dir
// DIR --json` — in its own run directory and workspace: nothing is shared between runs but the machine.
// Why processes and not tasks in this one: the built-in explorer is CPU-bound synchronous code, so runs in one
// event loop would only interleave; children use every core, and a crash or hang stays in its own run.
// The children are started in their own process group so that a terminal's Ctrl-C reaches only this parent,
// which then passes exactly one SIGINT to each child: each stops after its current step and records an
// interrupted end, and `prolong resume` continues it (the batch's directory, or the run's). A second Ctrl-C passes a second SIGINT (the
// children quit at once; their logs are still resumable, as after kill -9).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, existsSync } from "node:fs";
import { writeFileReplacing } from "../safe-file.ts";
import type { RunConfig } from "../config/run-config.ts";
import { runPaths } from "../run-files/layout.ts";

export interface PlannedRun {
  /** The run directory relative to the plan's output: "<game>-r<k>" in a batch, "<arm>/<game>-r<k>" in a plan. */
  readonly name: string;
  readonly game: string;
  /** 1-based repeat number. */
  readonly repeat: number;
  readonly dir: string;
  readonly config: RunConfig;
  /** Continue the run already started in `dir` (`prolong resume`) instead of starting it (run-plan). */
  readonly resume?: boolean;
}

/**
 * argv that starts this same prolong: `bun src/main.ts` in a checkout (execPath is bun, Bun.main the script),
 * or the compiled binary alone (execPath is the binary; Bun.main lives in its embedded /$bunfs/ tree).
 */
export function selfCommand(): string[] {
  return selfCommandFor(Bun.main, process.execPath);
}

export function selfCommandFor(main: string, execPath: string): string[] {
  const embedded = main.startsWith("/$bunfs/") || /^[A-Z]:[\\/]~BUN[\\/]/.test(main);
  return embedded ? [execPath] : [execPath, main];
}

/** What the parent knows of one run, updated from the child's event lines. */
export interface RunStatus {
  readonly run: PlannedRun;
  state: "queued" | "running" | "done" | "failed" | "interrupted" | "not-started";
  action: number;
  level: number;
  score: number;
  startedAt: number;
  endedAt: number;
  /** From the child's final summary line. */
  end?: string;
  rhae?: number;
  levelsCompleted?: number;
  winLevels?: number;
  exitCode?: number;
  /** The end of the child's stderr, for failures. */
  stderrTail: string;
}

export interface SwarmOptions {
  readonly parallel: number;
  /** Default selfCommand(); tests pass `[bun, src/main.ts]`. */
  readonly command?: readonly string[];
  /** Each child event line as received (with "\n"), for --json. */
  readonly onLine?: (line: string) => void;
  readonly onChange?: (runs: readonly RunStatus[]) => void;
}

export interface Swarm {
  /** Live: updated as children report. */
  readonly runs: readonly RunStatus[];
  /** Every run's final status, once the last child has exited. */
  readonly done: Promise<RunStatus[]>;
  /** Ctrl-C: start no more runs and pass SIGINT to each running child (again on each further call). */
  interrupt(): void;
}

export function startSwarm(plan: readonly PlannedRun[], o: SwarmOptions): Swarm {
  const status: RunStatus[] = plan.map((run) => ({
    run,
    state: "queued",
    action: 0,
    level: 1,
    score: 0,
    startedAt: 0,
    endedAt: 0,
    stderrTail: "",
  }));
  const command = o.command ?? selfCommand();
  const children = new Set<ChildProcess>();
  let stopping = false;
  let next = 0;
  const worker = async () => {
    while (next < status.length && !stopping) {
      const s = status[next++]!;
      await runOne(s, command, children, () => stopping, o);
    }
  };
  const done = Promise.all(Array.from({ length: Math.max(1, Math.min(o.parallel, status.length)) }, worker)).then(() => {
    for (const s of status) if (s.state === "queued") s.state = "not-started";
    o.onChange?.(status);
    return status;
  });
  return {
    runs: status,
    done,
    interrupt() {
      stopping = true;
      for (const c of children)
        if (c.pid !== undefined && c.exitCode === null && c.signalCode === null) process.kill(c.pid, "SIGINT");
    },
  };
}

async function runOne(
  s: RunStatus,
  command: readonly string[],
  children: Set<ChildProcess>,
  stopping: () => boolean,
  o: SwarmOptions,
): Promise<void> {
  const paths = runPaths(s.run.dir);
  if (!s.run.resume && existsSync(paths.log)) {
    s.state = "failed";
    s.stderrTail = `${s.run.dir} already holds a log; resume it with 'prolong resume ${s.run.dir}'`;
    return;
  }
  try {
    if (!s.run.resume) {
      mkdirSync(paths.workspace, { recursive: true });
      const wrote = writeFileReplacing(paths.config, JSON.stringify(s.run.config, null, 2) + "\n");
      if (wrote.isErr()) throw new Error(wrote.error.message);
    }
  } catch (e) {
    s.state = "failed";
    s.stderrTail = `cannot create ${s.run.dir}: ${(e as Error).message}`;
    return;
  }
  const [exe, ...pre] = command;
  if (exe === undefined) throw new Error("runSwarm: empty command");
  s.state = "running";
  s.startedAt = performance.now();
  o.onChange?.([s]);
  const child = spawn(exe, [...pre, ...(s.run.resume ? ["resume", s.run.dir] : ["play", "--run-dir", s.run.dir]), "--json"], {
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  children.add(child);
  let buffered = "";
  child.stdout!.setEncoding("utf8");
  child.stdout!.on("data", (chunk: string) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, nl + 1);
      buffered = buffered.slice(nl + 1);
      onChildLine(s, line, o);
    }
  });
  child.stderr!.setEncoding("utf8");
  child.stderr!.on("data", (chunk: string) => {
    s.stderrTail = (s.stderrTail + chunk).slice(-2000);
  });
  const code = await new Promise<number>((resolve) => {
    child.on("error", (e) => {
      s.stderrTail += `\ncannot start ${exe}: ${e.message}`;
      resolve(127);
    });
    child.on("close", (c, sig) => resolve(c ?? (sig ? 128 + 2 : 1)));
  });
  children.delete(child);
  s.exitCode = code;
  s.endedAt = performance.now();
  s.state = s.end === "interrupted" || (stopping() && code !== 0) ? "interrupted" : code === 0 ? "done" : "failed";
  o.onChange?.([s]);
}

function onChildLine(s: RunStatus, line: string, o: SwarmOptions): void {
  let e: Record<string, unknown>;
  try {
    e = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return; // not an event line: ignored (the child writes events and its summary only)
  }
  const n = (k: string) => (typeof e[k] === "number" ? (e[k] as number) : undefined);
  if (e.kind === "summary") {
    s.end = typeof e.end === "string" ? e.end : undefined;
    s.rhae = n("rhae");
    s.levelsCompleted = n("levelsCompleted");
    s.winLevels = n("winLevels");
    s.action = n("actions") ?? s.action;
  } else {
    if (e.kind === "action") {
      s.action = n("action") ?? s.action;
      s.level = n("level") ?? s.level;
      s.score = n("score") ?? s.score;
    }
    o.onLine?.(line);
  }
  o.onChange?.([s]);
}
