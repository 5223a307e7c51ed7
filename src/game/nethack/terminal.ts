// NetHack in Bun's own pseudo-terminal, its 80x24 screen kept by @xterm/headless.
//
// KNOWING WHEN THE GAME HAS ANSWERED A KEY. Keys are written one byte at a time. After each, the key counts as
// answered when (1) the game has read it (rchar in /proc/PID/io grew), (2) it is blocked again in read() on
// the terminal (/proc/PID/syscall starts with "0 0x0 ", with the I/O counters the same just before and just
// after that check), and (3) every byte it wrote has reached the emulator
// and been parsed. (3) is known exactly when the terminal bytes received cover what the game wrote (wchar
// grew by no more); when the game also wrote files (level changes, start-up) wchar overshoots and a short
// silence decides instead. Silence alone was fooled by the game's pauses; this matched a slow reference.
import { readFileSync } from "node:fs";
import { Terminal } from "@xterm/headless";
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../../errors.ts";
import { reapChild } from "../../libc.ts";

// The screen's size and colour codes are the log's (colours.ts), which readers load without a terminal.
import { COLOUR_CODES, COLS, DEFAULT_COLOUR, ROWS } from "./colours.ts";
export { COLOUR_CODES, COLS, DEFAULT_COLOUR, ROWS };
const BLANK_ROW = DEFAULT_COLOUR.repeat(COLS);

export interface Screen {
  /** 24 rows of exactly 80 characters. */
  readonly rows: readonly string[];
  /** The cursor: on the hero while the game waits for a command, after the text of a prompt otherwise. */
  readonly cursor: { readonly x: number; readonly y: number };
}

export interface TerminalOptions {
  readonly argv: readonly string[];
  readonly env: Record<string, string>;
  readonly cwd: string;
  /** A key the game has not answered within this time makes the game count as hung. */
  readonly answerTimeoutMs?: number;
  /** Quiet time that ends a wait when the game also wrote files (start-up, level changes, saves). */
  readonly silenceMs?: number;
  /**
   * The game's process name when argv starts a sandbox: the game is then a descendant of the spawned process
   * (bwrap, its pid-namespace init, setpriv's exec), found by this name, and its reads are what is watched.
   */
  readonly gameComm?: string;
}

interface ProcIo {
  readonly rchar: number;
  readonly wchar: number;
}

function readIo(pid: number): ProcIo | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/io`, "latin1");
    const r = /rchar: (\d+)/.exec(text);
    const w = /wchar: (\d+)/.exec(text);
    if (!r || !w) return undefined;
    return { rchar: Number(r[1]), wchar: Number(w[1]) };
  } catch {
    return undefined;
  }
}

/** True while the process sleeps in read(0, ...): waiting for a key. */
function waitingForKey(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/syscall`, "latin1").startsWith("0 0x0 ");
  } catch {
    return false;
  }
}

/** Whether a process still runs: present and not a zombie (a zombie writes nothing; its parent may never reap it). */
/** A process's state letter and parent (/proc/PID/stat), or null when it is gone. */
function stateOf(pid: number): { state: string; parent: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { state: rest[0] ?? "", parent: Number(rest[1]) };
  } catch {
    return null;
  }
}

/** Whether pid's parents lead to this process. */
function belowUs(pid: number): boolean {
  for (let p = stateOf(pid)?.parent ?? 0, hops = 0; p > 1 && hops < 64; p = stateOf(p)?.parent ?? 0, hops++)
    if (p === process.pid) return true;
  return false;
}

const tick = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The first descendant of `pid` (breadth first) named `comm`, or null. */
function descendantNamed(pid: number, comm: string): number | null {
  const queue = [pid];
  for (let seen = 0; queue.length > 0 && seen < 64; seen++) {
    const p = queue.shift()!;
    try {
      if (p !== pid && readFileSync(`/proc/${p}/comm`, "latin1").trimEnd() === comm) return p;
      const kids = readFileSync(`/proc/${p}/task/${p}/children`, "latin1").trim();
      if (kids !== "") queue.push(...kids.split(/\s+/).map(Number));
    } catch {
      // gone meanwhile
    }
  }
  return null;
}

export class GameTerminal {
  private readonly term = new Terminal({ cols: COLS, rows: ROWS, allowProposedApi: true, scrollback: 0 });
  private received = 0;
  private parsed = 0;
  private lastDataAt = 0;
  private exitCode: number | null = null;
  /** The terminal reached end of file: every byte the game wrote has arrived. */
  private eof = false;
  private readonly timeoutMs: number;
  private readonly silenceMs: number;
  private readonly gameComm: string | undefined;
  /** The game's own process once found (a sandboxed game is a descendant of the spawned one). */
  private found: number | undefined;

  private constructor(
    private readonly proc: Bun.Subprocess,
    opts: TerminalOptions,
  ) {
    this.timeoutMs = opts.answerTimeoutMs ?? 10_000;
    this.silenceMs = opts.silenceMs ?? 150;
    this.gameComm = opts.gameComm;
    void proc.exited.then((code) => {
      this.exitCode = code;
    });
  }

  static async start(opts: TerminalOptions): Promise<Result<GameTerminal, ProlongError>> {
    let self: GameTerminal | undefined;
    const pending: Uint8Array[] = [];
    let proc: Bun.Subprocess;
    try {
      proc = Bun.spawn([...opts.argv], {
        cwd: opts.cwd,
        env: opts.env,
        terminal: {
          cols: COLS,
          rows: ROWS,
          data: (_t, bytes) => {
            const copy = new Uint8Array(bytes);
            if (self) self.feed(copy);
            else pending.push(copy);
          },
          exit: () => {
            if (self) self.eof = true;
          },
        },
      });
    } catch (e) {
      return err(prolongError("nethack-start", `cannot start NetHack: ${(e as Error).message}`, { path: opts.argv[0] }));
    }
    self = new GameTerminal(proc, opts);
    for (const chunk of pending) self.feed(chunk);
    const ready = await self.settle(undefined);
    if (ready.isErr()) {
      self.kill();
      return err(ready.error);
    }
    if (self.exitCode !== null) {
      return err(
        prolongError("nethack-start", `NetHack exited at start-up (code ${self.exitCode}): ${self.text().trim().slice(0, 300)}`, {
          fix: "run the game by hand with the same options file to see its message",
        }),
      );
    }
    return ok(self);
  }

  private feed(bytes: Uint8Array): void {
    this.received += bytes.length;
    this.lastDataAt = performance.now();
    this.term.write(bytes, () => {
      this.parsed += bytes.length;
    });
  }

  /** The game's own process: the spawned one, or in a sandbox its descendant running the game (once started). */
  get pid(): number {
    if (this.gameComm === undefined) return this.proc.pid;
    if (this.found === undefined) {
      const p = descendantNamed(this.proc.pid, this.gameComm);
      if (p !== null) this.found = p;
    }
    return this.found ?? this.proc.pid;
  }

  /** The exit code once the game process has ended (death, quit, crash), else null. */
  get exited(): number | null {
    return this.exitCode;
  }

  /**
   * Sends keys one byte at a time, each answered before the next. Stops early (ok) when the game ends.
   */
  async press(keys: string): Promise<Result<void, ProlongError>> {
    for (const byte of Buffer.from(keys, "latin1")) {
      if (this.exitCode !== null) return ok(undefined);
      const before = readIo(this.pid);
      const receivedBefore = this.received;
      this.proc.terminal?.write(new Uint8Array([byte]));
      const answered = await this.settle(before && { io: before, received: receivedBefore });
      if (answered.isErr()) return answered;
    }
    return ok(undefined);
  }

  /** Waits until the game has answered the last key (or, with no key, finished starting up). */
  private async settle(after: { io: ProcIo; received: number } | undefined): Promise<Result<void, ProlongError>> {
    const start = performance.now();
    let spins = 0;
    for (;;) {
      await tick(spins++ < 4 ? 0 : 1);
      if (this.exitCode !== null || this.proc.killed) {
        // The game has gone: wait for its last bytes (end of file, or a short silence if none is reported).
        const drained = this.eof || performance.now() - this.lastDataAt >= this.silenceMs * 2;
        if (drained && this.parsed === this.received) return ok(undefined);
        if (performance.now() - start <= this.timeoutMs) continue;
      }
      // io read on both sides of the syscall check: equal counters mean the game sat in that read() the
      // whole time, so they hold everything it did for this key (a single sample could catch it mid-write).
      const before = readIo(this.pid);
      const blocked = waitingForKey(this.pid);
      const io = readIo(this.pid);
      const stable = before !== undefined && io !== undefined && before.rchar === io.rchar && before.wchar === io.wchar;
      const quiet = this.parsed === this.received;
      if (io && stable && quiet && blocked) {
        if (after === undefined) {
          if (performance.now() - this.lastDataAt >= this.silenceMs * 2 && this.received > 0) return ok(undefined);
        } else if (io.rchar > after.io.rchar) {
          const wrote = io.wchar - after.io.wchar;
          const got = this.received - after.received;
          if (got >= wrote) {
            // One more turn of the event loop: the last bytes of a burst may still be in flight.
            await tick(0);
            if (this.parsed === this.received && this.received - after.received === got) return ok(undefined);
          } else if (got > 0 && performance.now() - Math.max(this.lastDataAt, start) >= this.silenceMs) {
            // The game wrote more than reached the terminal: files too (a level change, a save). Some of its
            // answer has arrived and then nothing for a while: done. With nothing arrived yet, keep waiting
            // (a loaded machine can hold the game's bytes back for longer than any silence).
            return ok(undefined);
          }
        }
      }
      if (performance.now() - start > this.timeoutMs) {
        return err(
          prolongError("nethack-hung", `NetHack did not answer within ${this.timeoutMs} ms`, {
            fix: "the episode ends here; `prolong resume` replays the log into a fresh game",
          }),
        );
      }
    }
  }

  screen(): Screen {
    const buf = this.term.buffer.active;
    const rows: string[] = [];
    for (let y = 0; y < ROWS; y++) rows.push((buf.getLine(y)?.translateToString(false) ?? "").padEnd(COLS).slice(0, COLS));
    return { rows, cursor: { x: buf.cursorX, y: buf.cursorY } };
  }

  /**
   * The screen's foreground colours, one code per cell (COLOUR_CODES), in the same 24 rows of 80 as `screen`
   * (taken from the same moment). NetHack draws its bright colours as bold + the base colour, so bold lifts a
   * palette colour 0..7 to 8..15.
   */
  colours(screen: Screen = this.screen()): string[] {
    const buf = this.term.buffer.active;
    const cell = buf.getNullCell();
    const rows: string[] = [];
    for (let y = 0; y < ROWS; y++) {
      const text = screen.rows[y] ?? "";
      // Most of a screen is blank, and a blank shows no colour: only the drawn cells are asked.
      if (text.trim() === "") {
        rows.push(BLANK_ROW);
        continue;
      }
      const line = buf.getLine(y);
      let row = "";
      for (let x = 0; x < COLS; x++) {
        const c = text[x] === " " ? undefined : line?.getCell(x, cell);
        if (!c || !c.isFgPalette()) {
          row += DEFAULT_COLOUR;
          continue;
        }
        const base = c.getFgColor();
        row += COLOUR_CODES[base < 8 && c.isBold() ? base + 8 : base] ?? DEFAULT_COLOUR;
      }
      rows.push(row);
    }
    return rows;
  }

  text(): string {
    return this.screen()
      .rows.map((r) => r.trimEnd())
      .join("\n");
  }

  /**
   * SIGKILL to the game itself first, then to what started it. In a sandbox the spawned process is bwrap: killing
   * only that closes the game's session, the kernel sends the game SIGHUP, and NetHack's hangup handler saves the
   * game before the namespace's SIGKILL lands. That save then reached the next episode's freshly wiped folder
   * and was restored ("Restoring save file..." as an episode's first screen).
   */
  kill(): number | null {
    if (this.exitCode !== null) return null;
    const game = this.gameComm === undefined ? this.proc.pid : descendantNamed(this.proc.pid, this.gameComm);
    if (game !== null && game !== this.proc.pid) {
      try {
        process.kill(game, "SIGKILL");
      } catch {
        // already gone
      }
    }
    this.proc.kill("SIGKILL");
    return game;
  }

  /** Ends the game process (no save: a run resumes by replaying its log) and waits for it, and for the game itself. */
  async close(): Promise<void> {
    const game = this.kill();
    await this.proc.exited;
    // bwrap can exit before the kernel has reaped the game in its namespace: the folder is not free until then.
    // When the harness is the child subreaper (libc.ts: an agent's turn made it one), the dead game is
    // re-parented here and nobody else reaps it: a zombie per episode. So it is reaped here; a dead game that
    // another parent holds is waited for while that parent is below us (bwrap's own init, about to go).
    if (game !== null && game !== this.proc.pid) {
      for (let waited = 0; waited < 5_000; waited += 5) {
        const s = stateOf(game);
        if (s === null) break;
        if (s.state === "Z" && s.parent === process.pid) reapChild(game);
        else if (s.state === "Z" && !belowUs(game)) break;
        await tick(5);
      }
    }
    this.term.dispose();
  }
}
