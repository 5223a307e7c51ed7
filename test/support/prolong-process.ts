// The real prolong CLI as a child process, started from this checkout's src/main.ts with the Bun running the
// tests: run to its end (`prolong`, or `prolongAsync` for several at once), or, for the whole-process trials
// (kill -9, two resumes at once), stopped at a point its own event stream names.
import { spawn } from "node:child_process";
import path from "node:path";

export const MAIN = path.resolve(import.meta.dir, "../../src/main.ts");
export const BUN = process.execPath;

/** How a `prolong` process ended: its exit code (null when the bound killed it) and what it printed. */
export interface Exited {
  readonly code: number | null;
  readonly out: string;
  readonly err: string;
}

export interface ProlongOptions {
  readonly cwd?: string;
  /** Variables added to (or, undefined, removed from) this process's environment. */
  readonly env?: Record<string, string | undefined>;
  /**
   * The bound: past it the process is killed with SIGKILL (a command blocked opening a FIFO may never run a
   * SIGTERM handler) and ends with code null, so a hang fails the test's assertion instead of the suite.
   */
  readonly timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;

function spawnOptions(opts: ProlongOptions) {
  return {
    cwd: opts.cwd,
    env: opts.env === undefined ? process.env : { ...process.env, ...opts.env },
    stdin: "ignore" as const,
    stdout: "pipe" as const,
    stderr: "pipe" as const,
    timeout: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    killSignal: "SIGKILL" as const,
  };
}

/** `prolong ARGS`, waited for. */
export function prolong(args: readonly string[], opts: ProlongOptions = {}): Exited {
  const p = Bun.spawnSync([BUN, MAIN, ...args], spawnOptions(opts));
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

/** `prolong ARGS`, not blocking this process: several run at once (each command its own process, as in use). */
export async function prolongAsync(args: readonly string[], opts: ProlongOptions = {}): Promise<Exited> {
  const p = Bun.spawn([BUN, MAIN, ...args], spawnOptions(opts));
  const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()]);
  await p.exited;
  return { code: p.signalCode === null ? p.exitCode : null, out, err };
}

/**
 * Each argv's `prolong`, a few at a time (each its own process, independent of the others), in the order given.
 * Two at once by default: the machine has few cores and may be busy with other tests.
 */
export async function prolongEach(
  argvs: readonly (readonly string[])[],
  opts: ProlongOptions & { readonly atOnce?: number } = {},
): Promise<Exited[]> {
  const out: Exited[] = new Array(argvs.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < argvs.length; i = next++) out[i] = await prolongAsync(argvs[i]!, opts);
  };
  await Promise.all(Array.from({ length: Math.min(opts.atOnce ?? 2, argvs.length) }, worker));
  return out;
}

/** `prolong resume DIR --quiet`, not waited for: resolves with its exit status and stderr once it ends. */
export function resumeProcess(dir: string): Promise<{ status: number | null; stderr: string }> {
  return new Promise((res) => {
    const child = spawn(BUN, [MAIN, "resume", dir, "--quiet"], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
    });
    child.on("close", (status) => res({ status, stderr }));
  });
}

/**
 * Runs `prolong ARGS --json` and SIGKILLs it at the first event of its own stream for which `at` holds, so where
 * the kill lands depends on the run, not on this machine's speed. Says whether the kill came before the process
 * ended by itself (under load it can run ahead of this reader: its events wait in the pipe's buffer).
 */
export async function playAndKill(args: readonly string[], at: (event: Record<string, unknown>) => boolean): Promise<boolean> {
  const child = Bun.spawn([BUN, MAIN, ...args, "--json"], { stdout: "pipe", stderr: "ignore" });
  const reader = child.stdout.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let killed = false;
  while (!killed) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    for (const line of text.split("\n").slice(0, -1)) {
      if (line.startsWith('{"') && at(JSON.parse(line) as Record<string, unknown>)) {
        child.kill("SIGKILL");
        killed = true;
        break;
      }
    }
    text = text.slice(text.lastIndexOf("\n") + 1);
  }
  await child.exited;
  return killed && child.signalCode === "SIGKILL";
}
