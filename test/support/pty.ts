// A prolong process in a real pseudo-terminal (Bun's PTY), its screen kept by a headless xterm, for tests of
// what a person sees and types. Waiting is on the terminal's own output: each chunk re-checks the condition.
import { Terminal } from "@xterm/headless";
import path from "node:path";

const MAIN = path.resolve(import.meta.dir, "../../src/main.ts");

export interface PtyRun {
  /** The visible screen, one string per row (trailing spaces cut). */
  screen(): string[];
  /** Everything the process wrote, as text. */
  output(): string;
  write(text: string): void;
  /** Which screen the terminal shows: "alternate" while a program keeps its own, "normal" otherwise. */
  buffer(): "normal" | "alternate";
  /** Resolves once `pred(screen)` holds (checked after every chunk of output); rejects when the process exits first. */
  waitFor(pred: (screen: string[]) => boolean, what: string): Promise<void>;
  readonly exited: Promise<number>;
}

export function prolongInPty(args: string[], opts: { cols?: number; rows?: number; cwd?: string } = {}): PtyRun {
  const cols = opts.cols ?? 80;
  const rows = opts.rows ?? 24;
  const term = new Terminal({ cols, rows, allowProposedApi: true });
  let text = "";
  const waiters: Array<() => void> = [];
  const check = () => {
    for (const w of waiters.splice(0)) w();
  };
  const proc = Bun.spawn([process.execPath, MAIN, ...args], {
    ...(opts.cwd ? { cwd: opts.cwd } : {}),
    env: { ...process.env, TERM: "xterm-256color" },
    terminal: {
      cols,
      rows,
      data: (_t, bytes) => {
        const chunk = Buffer.from(bytes).toString("utf8");
        text += chunk;
        term.write(chunk, check);
      },
    },
  });
  const screen = () => Array.from({ length: rows }, (_, y) => term.buffer.active.getLine(y)?.translateToString(true) ?? "");
  let done = false;
  const exited = proc.exited.then((code) => {
    done = true;
    // Let the emulator parse what is left before anyone reads the screen.
    return new Promise<number>((resolve) => term.write("", () => resolve(code)));
  });
  const waitFor = (pred: (s: string[]) => boolean, what: string) =>
    new Promise<void>((resolve, reject) => {
      const test = () => {
        if (pred(screen())) resolve();
        else if (done) reject(new Error(`the process exited before: ${what}\n--- screen ---\n${screen().join("\n")}`));
        else waiters.push(test);
      };
      void exited.then(() => waiters.length > 0 && check());
      test();
    });
  return {
    screen,
    output: () => text,
    write: (t) => proc.terminal!.write(t),
    buffer: () => term.buffer.active.type,
    waitFor,
    exited,
  };
}
