// The Python bridge as a child process: written out from the embedded source, spawned, spoken to in JSON
// lines, one request at a time. Its stderr is kept as a bounded tail so that when it dies (or a game raises)
// the error carries the last thing Python said. Knows nothing about frames; arc-local.ts decodes replies.
import { err, ok, type Result } from "neverthrow";
import { mkdirSync, renameSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { prolongError, type ProlongError } from "../../errors.ts";
import { BRIDGE_SOURCE } from "./bridge-source.ts";

/** How much of the bridge's stderr an error message carries. */
const STDERR_TAIL = 2000;
/** One game step is milliseconds; this only catches a game stuck in a loop. */
const REPLY_TIMEOUT_MS = 120_000;
/** How long close() waits for the bridge to exit by itself before killing it. */
const CLOSE_GRACE_MS = 2000;

export interface BridgeOptions {
  /** The interpreter: PROLONG_PYTHON, else python3 on PATH. */
  readonly python?: string;
  /** A directory holding the arcengine/ package, put first on PYTHONPATH (PROLONG_ARC_ENGINE). */
  readonly engineDir?: string;
  readonly gameFile: string;
  readonly className: string;
  readonly gameId: string;
  readonly seed: number;
}

const INSTALL_FIX =
  "install Python 3.11+ with ARC's toolkit (pip install arc-agi, which brings arcengine), or set PROLONG_PYTHON to such an interpreter";

/** The bridge script on disk, named by a hash of its text so concurrent runs share one immutable file. */
function bridgeFile(): string {
  const dir = join(tmpdir(), "prolong");
  const file = join(dir, `arc-bridge-${Bun.hash(BRIDGE_SOURCE).toString(16)}.py`);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, BRIDGE_SOURCE);
    renameSync(temp, file); // atomic: another run never reads a half-written script
  }
  return file;
}

// Bun's and Node's stream typings disagree on the reader's type; let the compiler infer it from the call.
function stdoutReader(child: Bun.Subprocess<"pipe", "pipe", "pipe">) {
  return child.stdout.getReader();
}

export class BridgeProcess {
  private readonly child: Bun.Subprocess<"pipe", "pipe", "pipe">;
  private readonly reader: ReturnType<typeof stdoutReader>;
  private readonly decoder = new TextDecoder();
  private buffered = "";
  private stderrTail = "";
  private exitCode: number | null = null;
  private readonly exited: Promise<number>;
  private readonly describe: string;

  private constructor(child: Bun.Subprocess<"pipe", "pipe", "pipe">, describe: string) {
    this.child = child;
    this.describe = describe;
    this.reader = stdoutReader(child);
    this.exited = child.exited.then((code) => (this.exitCode = code));
    void this.drainStderr(child.stderr);
  }

  /** Spawns the bridge. Only a missing interpreter fails here; everything else surfaces on the first reply. */
  static spawn(o: BridgeOptions): Result<BridgeProcess, ProlongError> {
    const python = o.python ?? "python3";
    const pythonPath = [o.engineDir, process.env.PYTHONPATH].filter((p): p is string => !!p).join(delimiter);
    let script: string;
    try {
      script = bridgeFile();
    } catch (e) {
      return err(
        prolongError("bridge", `cannot write the Python bridge to the temporary directory: ${(e as Error).message}`, {
          path: tmpdir(),
          fix: "set TMPDIR to a writable directory",
        }),
      );
    }
    try {
      const child = Bun.spawn([python, "-u", script, o.gameFile, o.className, o.gameId, String(o.seed)], {
        stdin: "pipe",
        stdout: "pipe",
        stderr: "pipe",
        env: { ...process.env, ...(pythonPath ? { PYTHONPATH: pythonPath } : {}), PYTHONDONTWRITEBYTECODE: "1" },
      });
      return ok(new BridgeProcess(child, `${python} (arc-local bridge for ${o.gameId})`));
    } catch (e) {
      return err(
        prolongError(
          "python-missing",
          `cannot start ${python}: ${(e as Error).message}. arc-local runs ARC's games in Python ≥ 3.11 with arcengine importable`,
          { fix: INSTALL_FIX },
        ),
      );
    }
  }

  get pid(): number {
    return this.child.pid;
  }

  private async drainStderr(stream: ReadableStream<Uint8Array>): Promise<void> {
    const dec = new TextDecoder();
    for await (const chunk of stream) {
      this.stderrTail = (this.stderrTail + dec.decode(chunk, { stream: true })).slice(-STDERR_TAIL);
    }
  }

  /** The last lines Python wrote to stderr, for error messages. */
  tail(): string {
    return this.stderrTail.trimEnd();
  }

  /** Reads the next line of stdout, or an error if the process exits or stalls first. */
  async readLine(): Promise<Result<string, ProlongError>> {
    const deadline = Date.now() + REPLY_TIMEOUT_MS;
    for (;;) {
      const nl = this.buffered.indexOf("\n");
      if (nl >= 0) {
        const line = this.buffered.slice(0, nl);
        this.buffered = this.buffered.slice(nl + 1);
        return ok(line);
      }
      const left = deadline - Date.now();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<"timeout">((r) => (timer = setTimeout(() => r("timeout"), Math.max(0, left))));
      const next = await Promise.race([this.reader.read(), timeout]);
      clearTimeout(timer);
      if (next === "timeout") {
        this.kill();
        return err(this.died(`did not answer within ${REPLY_TIMEOUT_MS / 1000}s and was stopped`));
      }
      if (next.done) {
        await Promise.race([this.exited, Bun.sleep(1000)]);
        await Bun.sleep(20); // let the stderr drain catch the last lines
        return err(this.died(`exited${this.exitCode !== null ? ` with status ${this.exitCode}` : ""}`));
      }
      this.buffered += this.decoder.decode(next.value, { stream: true });
    }
  }

  /** Sends one request line. */
  send(obj: unknown): Result<void, ProlongError> {
    if (this.exitCode !== null) return err(this.died(`had already exited with status ${this.exitCode}`));
    try {
      this.child.stdin.write(JSON.stringify(obj) + "\n");
      void this.child.stdin.flush();
      return ok(undefined);
    } catch (e) {
      return err(this.died(`stopped reading requests (${(e as Error).message})`));
    }
  }

  /** The error for a bridge that went away: what happened, and what Python said last. */
  died(what: string): ProlongError {
    const tail = this.tail();
    return prolongError(
      "bridge-died",
      `${this.describe} ${what}${tail ? `; its stderr ends with:\n${tail}` : " (no stderr output)"}`,
      {
        fix: "the run is resumable: fix the cause above, then `prolong resume <run dir>`",
      },
    );
  }

  kill(): void {
    if (this.exitCode === null) this.child.kill();
  }

  async close(): Promise<void> {
    if (this.exitCode !== null) return;
    try {
      this.child.stdin.end();
    } catch {
      // already closed: the process is going away anyway
    }
    // Python exits at once on end of input; the timer only catches a bridge that does not, and is cleared
    // so that it cannot keep this process alive after the bridge has gone.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), CLOSE_GRACE_MS)));
    const done = await Promise.race([this.exited.then(() => true), late]);
    clearTimeout(timer);
    if (!done) this.kill();
  }
}
