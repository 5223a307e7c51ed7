// The real prolong CLI as a child process, for the whole-process trials (kill -9, two resumes at once): started
// from this checkout's src/main.ts with the Bun running the tests, stopped at a point its own event stream names.
import { spawn } from "node:child_process";
import path from "node:path";

export const MAIN = path.resolve(import.meta.dir, "../../src/main.ts");
export const BUN = process.execPath;

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
