// `prolong verify <run-dir>` and `prolong verify <master> <copy>`: is the agent's copy what the harness wrote?
import { statSync } from "node:fs";
import { formatError } from "../errors.ts";
import { describeReport, verifyFiles } from "../verify/two-files.ts";
import { flag, operandsFit, parseCommandArgs } from "./args.ts";
import { argumentProblem } from "./argument-problem.ts";
import type { Command } from "./command.ts";

const usage = `usage: prolong verify <run-dir> [--json]
       prolong verify <master-log> <copy> [--json]

With a run directory: checks that workspace/logs.txt is exactly what the harness last wrote there, as the
run's index records it — the full log: the master's bytes up to the offset the harness owns; a window
(--log-window N or 0): exactly the window last written; no log (-1): no file at all. A difference is named
as the tamper kind the harness records (edited, appended, truncated, deleted, symlink, directory, fifo,
device, read-only, hardlink, unexpected); nothing is repaired.

With two files: checks that <copy> is a byte-prefix of <master-log> that ends where a section ends, and
says when it is not: the first differing byte (offset, line, action section), a copy that ends mid-section,
an empty copy, a copy that is a symlink.

Both files are mapped, not read into memory, and compared up to the first difference.
Exit 0 when the copy is as the harness left it; 1 when it is not; 2 on unreadable input (missing files, a
FIFO, a device, not a run directory).`;

const flags = { json: flag.bool() } as const;

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

const VERIFY_OPERANDS = [
  { name: "<run-dir|master-log>", what: "a run directory, or the master log the harness wrote" },
  { name: "<copy>", what: "the agent's copy of the master log" },
];

export const verifyCommand: Command = {
  name: "verify",
  summary: "check that an agent's copy of the log is what the harness wrote (a run dir, or master + copy)",
  usage,
  flags,
  async run(args) {
    const parsed = parseCommandArgs("verify", args, flags);
    if (!parsed) return 2;
    const [first, second] = parsed.positionals;
    if (!operandsFit("verify", parsed.positionals, VERIFY_OPERANDS, { required: 1 }) || first === undefined) return 2;
    if (second === undefined && !isDirectory(first))
      return argumentProblem(
        "verify",
        `missing <copy>: '${first}' is not a run directory, so it is the master log and needs the agent's copy beside it`,
        "prolong verify <run-dir>, or prolong verify <master-log> <copy>",
      );
    if (second === undefined) {
      // Loaded only here: the run directory's check reads the run's config and index (schemas and all), and
      // the two-file check, which a script may run on every turn, should not pay for loading them.
      const { describeRunDir, verifyRunDir } = await import("../verify/run-dir.ts");
      const r = verifyRunDir(first);
      if (r.isErr()) {
        console.error(formatError(r.error));
        return 2;
      }
      console.log(parsed.values.json ? JSON.stringify(r.value) : describeRunDir(r.value));
      return r.value.ok ? 0 : 1;
    }
    const r = verifyFiles(first, second);
    if (r.isErr()) {
      console.error(formatError(r.error));
      return 2;
    }
    console.log(parsed.values.json ? JSON.stringify(r.value) : describeReport(r.value));
    return r.value.verdict === "ok" ? 0 : 1;
  },
};
