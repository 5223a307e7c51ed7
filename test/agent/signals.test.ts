// SIGTERM, SIGHUP and SIGINT to `prolong play` during an agent's turn end the turn's whole process tree and
// leave a run that `prolong resume` finishes (the trial and what it proves: signal-trial.ts). SIGTERM here, in
// the fast tier; SIGHUP and SIGINT, the same trial, in signals.slow.test.ts.
import { defineSignalTrials } from "./signal-trial.ts";

defineSignalTrials(["SIGTERM"]);
