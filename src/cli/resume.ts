// `prolong resume <run-dir>`: continue a run that was interrupted (Ctrl-C, a crash, kill -9).
import { formatError } from "../errors.ts";
import { ttyProgress } from "../run/progress.ts";
import { resumeRun } from "../run/resume.ts";
import { flag, parseCommandArgs } from "./args.ts";
import type { Command } from "./command.ts";
import { playSession } from "./play.ts";

const usage = `usage: prolong resume <run-dir> [--json] [--quiet]

Continues an interrupted run from its own log: checks every section of the master against the checksums in
index.sqlite, replays every logged action against a fresh game and compares every board, then goes on with
the run's original settings (run.json) — finishing the batch of actions the agent had asked for, if any.
A section cut short by a crash is moved aside to torn-<offset>.bin in the run directory.`;

const flags = { json: flag.bool(), quiet: flag.bool() } as const;

export const resumeCommand: Command = {
  name: "resume",
  summary: "continue an interrupted run from its log",
  usage,
  flags,
  async run(args) {
    const parsed = parseCommandArgs("resume", args, flags);
    if (!parsed) return 2;
    const [dir] = parsed.positionals;
    if (dir === undefined || parsed.positionals.length > 1) {
      console.error(usage);
      return 2;
    }
    const json = parsed.values.json === true;
    const progress = json || parsed.values.quiet ? { update: () => {}, done: () => {} } : ttyProgress();
    const session = await resumeRun(dir, {
      ...(json ? { echo: (l: string) => process.stdout.write(l) } : {}),
      onProgress: (s) => s.config.agent !== "human" && progress.update(s),
    }); // a human run's screen is its progress
    if (session.isErr()) {
      console.error(formatError(session.error));
      return 2;
    }
    return playSession(session.value, json, progress.done);
  },
};
