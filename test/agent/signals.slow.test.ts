// SIGHUP and SIGINT to `prolong play` during an agent's turn: the trial of signal-trial.ts, beside SIGTERM's in
// the fast tier (signals.test.ts).
import { defineSignalTrials } from "./signal-trial.ts";

defineSignalTrials(["SIGHUP", "SIGINT"]);
