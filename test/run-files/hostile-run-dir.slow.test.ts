// A symlink to /dev/zero at each of a run directory's three files the readers open: view, report, score, replay,
// resume and verify each end, none reads it. The FIFO at the same names, and the rest of the run-directory
// surface, are in the fast tier (hostile-run-dir.test.ts).
import { describe } from "bun:test";
import { defineNotRegularFiles, useBaseRuns } from "./base-runs.ts";

useBaseRuns();

describe("a run directory's files that are not regular files", () => {
  defineNotRegularFiles(["a symlink to /dev/zero"]);
});
