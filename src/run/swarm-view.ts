// What people see of a swarm: on a terminal, one live line per running run under a counts line, redrawn in
// place (at most 10 times a second), with each finished run printed once above it; elsewhere, one line per
// finished run. Then the overall summary: every run's end, levels, actions, score and time. The score is named
// by what it measures (RHAE for grid games, progression % for NetHack).
import { terminalLine } from "../terminal-text.ts";
import { configMetric, metricLabel } from "../score/scorecard.ts";
import type { RunStatus } from "./swarm.ts";

/** The score column's name for these runs: the metric's, or "score" when a swarm mixes metrics. */
function scoreName(runs: readonly RunStatus[]): string {
  const names = new Set(runs.map((s) => metricLabel(configMetric(s.run.config))));
  return names.size === 1 ? [...names][0]! : "score";
}

export interface SwarmView {
  update(changed: readonly RunStatus[]): void;
  done(): void;
}

export function finishedLine(s: RunStatus): string {
  const secs = ((s.endedAt - s.startedAt) / 1000).toFixed(1);
  if (s.state === "failed" && s.end === undefined)
    return `${s.run.name}: failed (exit ${s.exitCode ?? "?"}) ${lastLine(s.stderrTail)}`;
  const levels = s.levelsCompleted !== undefined ? `${s.levelsCompleted}/${s.winLevels ?? "?"} levels` : `score ${s.score}`;
  return `${s.run.name}: ${s.end ?? s.state}, ${levels}, ${s.action} actions, ${scoreName([s])} ${(s.rhae ?? 0).toFixed(2)}, ${secs}s`;
}

/** The last line of a child's stderr, made safe for the terminal it is drawn on. */
function lastLine(text: string): string {
  const lines = text.trim().split("\n");
  return terminalLine(lines[lines.length - 1] ?? "");
}

function liveLine(s: RunStatus, now: number): string {
  const c = s.run.config;
  return `  ${s.run.name.padEnd(16)} action ${String(s.action).padStart(5)}/${c.maxActions * c.episodes}  level ${s.level}  score ${s.score}  ${((now - s.startedAt) / 1000).toFixed(1)}s`;
}

export function swarmView(
  list: () => readonly RunStatus[],
  stream: NodeJS.WriteStream = process.stderr,
  quiet = false,
): SwarmView {
  const printed = new Set<RunStatus>();
  if (quiet) return { update: () => {}, done: () => {} };
  if (!stream.isTTY) {
    return {
      update(changed) {
        for (const s of changed) {
          if ((s.state === "done" || s.state === "failed" || s.state === "interrupted") && !printed.has(s)) {
            printed.add(s);
            stream.write(`${finishedLine(s)}\n`);
          }
        }
      },
      done() {},
    };
  }
  let drawn = 0;
  let last = 0;
  const clear = () => {
    if (drawn > 0) stream.write(`\x1b[${drawn}F\x1b[J`);
    drawn = 0;
  };
  const draw = (force: boolean) => {
    const now = performance.now();
    if (!force && now - last < 100) return;
    last = now;
    const runs = list();
    clear();
    for (const s of runs) {
      if ((s.state === "done" || s.state === "failed" || s.state === "interrupted") && !printed.has(s)) {
        printed.add(s);
        stream.write(`${finishedLine(s)}\n`);
      }
    }
    const running = runs.filter((s) => s.state === "running");
    const count = (st: RunStatus["state"]) => runs.filter((s) => s.state === st).length;
    const lines = [
      `prolong: ${running.length} running, ${count("done") + count("failed") + count("interrupted")} finished, ${count("queued")} queued of ${runs.length}`,
      ...running.map((s) => liveLine(s, now)),
    ];
    stream.write(lines.map((l) => `\x1b[2K${l}\n`).join(""));
    drawn = lines.length;
  };
  return {
    update(changed) {
      draw(changed.some((s) => s.state !== "running"));
    },
    done() {
      draw(true);
      clear();
    },
  };
}

/** The overall summary, a line per run and the totals; `again` is the command that continues unfinished runs. */
export function swarmSummary(runs: readonly RunStatus[], root: string, again: string): string {
  const head = ["run", "seed", "end", "levels", "actions", scoreName(runs), "time"];
  const rows = runs.map((s) => [
    s.run.name,
    String(s.run.config.seed),
    s.state === "not-started" ? "not started" : (s.end ?? s.state),
    s.levelsCompleted !== undefined ? `${s.levelsCompleted}/${s.winLevels}` : "–",
    s.state === "not-started" ? "–" : String(s.action),
    s.rhae !== undefined ? s.rhae.toFixed(2) : "–",
    s.endedAt > 0 ? `${((s.endedAt - s.startedAt) / 1000).toFixed(1)}s` : "–",
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const fmt = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  const count = (st: RunStatus["state"]) => runs.filter((s) => s.state === st).length;
  const lines = [
    fmt(head),
    ...rows.map(fmt),
    "",
    `${runs.length} runs: ${count("done")} ended normally, ${count("failed")} failed, ${count("interrupted")} interrupted, ${count("not-started")} not started; in ${root}`,
  ];
  const failed = runs.filter((s) => s.state === "failed");
  for (const s of failed) lines.push(`  ${s.run.name} failed: ${lastLine(s.stderrTail) || `exit ${s.exitCode}`}`);
  const resumable = runs.filter((s) => s.state === "interrupted");
  if (resumable.length > 0 || runs.some((s) => s.state === "not-started")) lines.push(`  continue them with: ${again}`);
  return lines.join("\n");
}
