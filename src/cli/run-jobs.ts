// Runs the jobs a worker has claimed (plan/claim.ts), each a child process, with one live view and one rule
// for Ctrl-C, SIGTERM and SIGHUP: the first stops every run after its current step, the second at once; either
// way each run stays resumable and `again` (the command that continues them) is named. Shared by `run-plan`,
// `play --games … --runs …` and `resume <batch-dir>`: a batch is a plan.
import type { Claimed } from "../plan/claim.ts";
import { startSwarm, type RunStatus, type Swarm } from "../run/swarm.ts";
import { swarmView } from "../run/swarm-view.ts";
import { STOP_SIGNALS } from "./play.ts";

export interface RunJobsOptions {
  readonly parallel: number;
  /** Each run's event lines on stdout. */
  readonly json: boolean;
  /** No live lines. */
  readonly quiet: boolean;
  /** The command that continues the runs after a Ctrl-C, e.g. `prolong resume runs/<stamp>`. */
  readonly again: string;
}

/** Every claimed run to its end (or to Ctrl-C); the claims are released when they have all exited. */
export async function runClaimed(claimed: Claimed, o: RunJobsOptions): Promise<RunStatus[]> {
  let swarm: Swarm | undefined;
  const view = swarmView(() => swarm?.runs ?? [], process.stderr, o.json || o.quiet);
  swarm = startSwarm(claimed.runs, {
    parallel: o.parallel,
    ...(o.json ? { onLine: (line: string) => process.stdout.write(line) } : {}),
    onChange: (changed) => view.update(changed),
  });
  const running = swarm;
  let interrupts = 0;
  // Ctrl-C, SIGTERM and SIGHUP alike: each child run is passed SIGINT (it ends its agent's turn and stops,
  // resumable); a second signal passes a second one, and each child quits at once.
  const onSignal = (signal: (typeof STOP_SIGNALS)[number] = "SIGINT") => {
    interrupts++;
    const what = signal === "SIGINT" ? "Ctrl-C" : signal;
    process.stderr.write(
      interrupts === 1
        ? `\nprolong: ${what}: stopping every run (${what} again to stop them at once); \`${o.again}\` continues them\n`
        : "\nprolong: stopping at once\n",
    );
    running.interrupt();
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  try {
    return await running.done;
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
    for (const l of claimed.locks) l.release();
    view.done();
  }
}
