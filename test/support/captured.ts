// A command run in this process, what it prints kept instead of shown: the exit code, stdout (console.log and
// process.stdout.write) and stderr (console.error), for tests that read a command's output without a process.
import type { Command } from "../../src/cli/command.ts";

export interface Captured {
  readonly code: number;
  readonly out: string;
  readonly errText: string;
}

export async function runCaptured(command: Pick<Command, "run">, args: string[]): Promise<Captured> {
  const out: string[] = [];
  const errs: string[] = [];
  const log = console.log;
  const error = console.error;
  const write = process.stdout.write.bind(process.stdout);
  console.log = (...a: unknown[]) => void out.push(a.join(" "));
  console.error = (...a: unknown[]) => void errs.push(a.join(" "));
  process.stdout.write = ((s: string) => (out.push(s), true)) as typeof process.stdout.write;
  try {
    return { code: await command.run(args), out: out.join("\n"), errText: errs.join("\n") };
  } finally {
    console.log = log;
    console.error = error;
    process.stdout.write = write;
  }
}
