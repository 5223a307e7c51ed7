// `prolong resume <run-dir>`: continue a run that was interrupted (Ctrl-C, a crash, kill -9); or a whole batch.
import os from "node:os";
import { formatError } from "../errors.ts";
import { MAX_BILLED_TOKENS_FLAG } from "../config/run-config.ts";
import { ttyProgress } from "../run/progress.ts";
import { resumeRun } from "../run/resume.ts";
import { flag, operandsFit, parseCommandArgs } from "./args.ts";
import type { Command } from "./command.ts";
import { isBatchDir, resumeBatch } from "./batch.ts";
import { playSession } from "./play.ts";

const usage = `usage: prolong resume <run-dir> [--max-billed-tokens N] [--allow-mixed-builds] [--json] [--quiet]
       prolong resume <batch-dir> [--parallel P] [--json] [--quiet]

Continues an interrupted run from its own log: checks every section of the master against the checksums in
index.sqlite, replays every logged action against a fresh game and compares every board, then goes on with
the run's original settings (run.json) — finishing the batch of actions the agent had asked for, if any.
A section cut short by a crash is moved aside to torn-<offset>.bin in the run directory. --max-billed-tokens N
sets a new spend guard (a run stopped by its budget goes on with a larger one), kept in run.json.
A run started by another build of prolong (or with another CLI version, NetHack binary, ARC engine) is
refused, naming the difference; --allow-mixed-builds goes on with this one, and the scorecard names both. A
game whose content changed since the run started is always refused.

A batch's directory (\`play --games … --runs …\`: runs/<time>/, holding the batch's plan.json) is finished as a
whole: started runs are resumed, runs that never started are started, finished ones are left; --parallel P
runs at most P at once (default this machine's cores).`;

const flags = {
  json: flag.bool(),
  quiet: flag.bool(),
  parallel: flag.int(1, 4096),
  "max-billed-tokens": MAX_BILLED_TOKENS_FLAG,
  "allow-mixed-builds": flag.bool(),
} as const;

const RESUME_OPERAND = { name: "<run-dir|batch-dir>", what: "the directory of the interrupted run or batch" };

export const resumeCommand: Command = {
  name: "resume",
  summary: "continue an interrupted run from its log",
  usage,
  flags,
  async run(args) {
    const parsed = parseCommandArgs("resume", args, flags);
    if (!parsed) return 2;
    const [dir] = parsed.positionals;
    // What does not fit is said by operandsFit; the rest only narrows the types.
    if (!operandsFit("resume", parsed.positionals, [RESUME_OPERAND]) || dir === undefined) return 2;
    const json = parsed.values.json === true;
    if (isBatchDir(dir) && parsed.values["max-billed-tokens"] !== undefined) {
      console.error(
        `prolong resume: --max-billed-tokens changes one run's guard; a batch's runs keep their plan's\n  fix: resume each run: prolong resume ${dir}/<game>-r<k> --max-billed-tokens N`,
      );
      return 2;
    }
    if (isBatchDir(dir) && parsed.values["allow-mixed-builds"] === true) {
      // A batch's runs are resumed by their own processes, each checking its build; none is waived for all.
      console.error(
        `prolong resume: --allow-mixed-builds waives one run's build check; a batch's runs are each checked\n  fix: resume the run that was refused: prolong resume ${dir}/<game>-r<k> --allow-mixed-builds`,
      );
      return 2;
    }
    if (isBatchDir(dir))
      return resumeBatch(dir, {
        parallel: parsed.values.parallel ?? os.availableParallelism(),
        json,
        quiet: parsed.values.quiet === true,
      });
    if (parsed.values.parallel !== undefined) {
      console.error(`prolong resume: --parallel is for a batch's directory; ${dir} holds no batch plan (plan.json)`);
      return 2;
    }
    const progress = json || parsed.values.quiet ? { update: () => {}, done: () => {} } : ttyProgress();
    const budget = parsed.values["max-billed-tokens"];
    const session = await resumeRun(dir, {
      ...(budget !== undefined ? { maxBilledTokens: budget } : {}),
      ...(parsed.values["allow-mixed-builds"] === true ? { allowMixedBuilds: true } : {}),
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
