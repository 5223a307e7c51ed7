// Timings of the inspection commands (`prolong log sections|show|diff|grep|stats`, `prolong view`) on one
// log, for `prolong bench`: in process (read + index + answer rendered to a string, what the command does
// minus writing to stdout) and as a whole process (start-up included, output discarded).
import path from "node:path";
import { replayHtml } from "../view/html.ts";
import { buildReplay } from "../view/replay.ts";
import { loadLog, loadLogBytes, type LoadedLog } from "../log/load.ts";
import { sectionRowsText } from "../native.ts";
import { logStats } from "../log/stats.ts";
import { logGridMode } from "../inspect/board.ts";
import { diffSections, formatDiff } from "../inspect/diff.ts";
import { formatGrep, grepLog } from "../inspect/grep.ts";
import { renderShown } from "../inspect/show.ts";
import { parseTarget, resolveOne, resolveTarget } from "../inspect/target.ts";

export interface CommandTiming {
  /** The command line, with LOG for the log file. */
  readonly command: string;
  /** Best in-process time, ms. */
  readonly inProcessMs: number;
  /** Best whole-process wall time, ms (null when not measured). */
  readonly processMs: number | null;
  /** Whether this command has the 100 ms target (view is reported, not targeted). */
  readonly targeted: boolean;
}

/** Runs f (after a warm-up) and returns its best wall time in ms; given by the caller so bench has one timer. */
export type Measure = (f: () => unknown) => number;

function load(file: string): LoadedLog {
  const r = loadLog(file);
  if (r.isErr()) throw new Error(`bench: ${r.error.message}`);
  return r.value;
}

/** argv that starts prolong itself: the compiled binary is its own entry; under bun, src/main.ts. */
export function prolongArgv(): string[] {
  const compiled = import.meta.path.startsWith("/$bunfs") || import.meta.path.startsWith("B:\\~BUN");
  return compiled ? [process.execPath] : [process.execPath, path.resolve(import.meta.dir, "../main.ts")];
}

export function benchLogCommands(file: string, measure: Measure, processes: boolean): CommandTiming[] {
  const probe = load(file);
  const last = probe.table.count - 1;
  const mid = Math.floor(last / 2);
  const a = String(Math.max(1, mid - 5));
  const b = String(mid + 5);
  const cases: Array<{ command: string; argv: string[]; run: () => unknown; targeted: boolean }> = [
    { command: "log stats LOG", argv: ["log", "stats", file], targeted: true, run: () => JSON.stringify(logStats(load(file))) },
    {
      command: "log sections LOG",
      argv: ["log", "sections", file],
      targeted: true,
      run: () => sectionRowsText(loadLogBytes(file)._unsafeUnwrap()),
    },
    {
      command: `log show LOG ${a}..${b} --color always`,
      argv: ["log", "show", file, `${a}..${b}`, "--color", "always"],
      targeted: true,
      run: () => {
        const log = load(file);
        const ids = resolveTarget(log.table, parseTarget(`${a}..${b}`)._unsafeUnwrap())._unsafeUnwrap();
        const opts = { colour: true, frames: false, mode: logGridMode(log) };
        return ids.map((i) => renderShown(log, i, opts)).join("\n\n");
      },
    },
    {
      command: `log diff LOG 1 ${mid}`,
      argv: ["log", "diff", file, "1", String(mid)],
      targeted: true,
      run: () => {
        const log = load(file);
        const mode = logGridMode(log);
        return formatDiff(
          diffSections(
            log,
            resolveOne(log.table, "1")._unsafeUnwrap(),
            resolveOne(log.table, String(mid))._unsafeUnwrap(),
            mode,
          )._unsafeUnwrap(),
          mode,
        );
      },
    },
    {
      command: "log grep LOG 'Tool Call: ACTION6'",
      argv: ["log", "grep", file, "Tool Call: ACTION6"],
      targeted: true,
      run: () =>
        formatGrep(grepLog(load(file), "Tool Call: ACTION6", { fixed: false, ignoreCase: false, max: 1000 })._unsafeUnwrap()),
    },
    {
      command: "log grep LOG -F 'Tool Call: ACTION6'",
      argv: ["log", "grep", file, "-F", "Tool Call: ACTION6"],
      targeted: true,
      run: () =>
        formatGrep(grepLog(load(file), "Tool Call: ACTION6", { fixed: true, ignoreCase: false, max: 1000 })._unsafeUnwrap()),
    },
    {
      command: "log grep LOG -i 'level'",
      argv: ["log", "grep", file, "-i", "level"],
      targeted: true,
      run: () => formatGrep(grepLog(load(file), "level", { fixed: false, ignoreCase: true, max: 1000 })._unsafeUnwrap()),
    },
    {
      command: "view LOG (HTML replay)",
      argv: [],
      targeted: false,
      run: () =>
        replayHtml(
          buildReplay(load(file), {
            logPath: file,
            runDir: null,
            title: "bench",
            events: [],
            trajectory: [],
            scorecard: null,
            warnings: [],
          }),
        ),
    },
  ];
  const base = prolongArgv();
  return cases.map((c) => ({
    command: c.command,
    inProcessMs: measure(c.run),
    processMs:
      processes && c.argv.length > 0
        ? measure(() => Bun.spawnSync([...base, ...c.argv], { stdout: "ignore", stderr: "ignore" }))
        : null,
    targeted: c.targeted,
  }));
}
