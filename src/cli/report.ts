// `prolong report <run dirs…> -o report.html`: the figures a memory paper needs, as one offline page (inline
// SVG), from the same numbers `prolong score` prints; --svg/--png write each figure alone for a paper.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { checkRegularFile, writeFileReplacing } from "../safe-file.ts";
import { formatError } from "../errors.ts";
import { logPathOf } from "../inspect/cli-support.ts";
import { loadLog } from "../log/load.ts";
import { checkAgainstPlanFile, PLAN_INCOMPLETE_EXIT, planComplete } from "../plan/check.ts";
import { buildReport } from "../report/data.ts";
import { reportFigures, type Figure } from "../report/figures.ts";
import { reportHtml } from "../report/html.ts";
import { findChromium, HEADLESS_FLAGS } from "../report/chromium.ts";
import { HEIGHT, WIDTH } from "../report/svg.ts";
import { conflictText } from "../score/arms.ts";
import { findRuns, type FindOptions } from "../score/find-runs.ts";
import { BOOTSTRAP_DEFAULTS } from "../score/stats.ts";
import { replayHtml } from "../view/html.ts";
import { buildReplay } from "../view/replay.ts";
import { openViewSource } from "../view/source.ts";
import { flag, parseCommandArgs } from "./args.ts";
import { argumentProblem } from "./argument-problem.ts";
import type { Command } from "./command.ts";
import { budgetsFlag } from "./score.ts";

const usage = `usage: prolong report <run-dir | dir above runs>... -o report.html [options]

Writes one self-contained HTML page (no network, no script to run: open it anywhere) with the figures of a
memory study, drawn as inline SVG from the numbers \`prolong score\` prints (runs grouped into arms the same
way, the same refusal to pool different setups under one arm name):
  - score against action budget per arm (every run re-scored from its log at each budget; bootstrap bands)
  - best@k against k per arm (the expected best of k runs; bootstrap bands over games and runs)
  - per-game bars per arm with each run's score as a dot
  - learning curves: levels cleared against actions, one line per run
  - billed tokens against score, per run and per arm
  - a table of arms with their settings and fingerprints; every run linked to its view.html
The page embeds its data as JSON (<script id="report-data">); every mark in a figure carries its value.
Every scorecard is checked against its run's log as \`prolong score\` checks it: one its log does not back is
skipped and listed with why, or, with --trust-scorecards, drawn and badged "unverified".

  -o, --out FILE      the page (default report.html)
  --budgets N,M,…     budgets for the first figure (default: ten steps up to the largest budget played)
  --views             write view.html (\`prolong view\`) into each run directory that has none, so every
                      run's link works
  --svg DIR           also write each figure as DIR/<figure>.svg
  --png DIR           also write each figure as DIR/<figure>.png (2x), rendered by Chromium (PROLONG_CHROMIUM,
                      or chromium on PATH: apt-get install chromium)
  --png-timeout SECS  how long Chromium may take over one figure before it is stopped and the report fails
                      (default 60)
  --title TEXT        the page's heading (default "prolong report")
  --seed N, --resamples N   bootstrap seed and resamples (as for score)
  --plan FILE         only the runs of a plan, checked as \`prolong score DIR --plan plan.json\` does (problems printed)
  --allow-mixed-builds  pool runs of one arm produced by different builds (as for score; each is listed)
  --trust-scorecards  include runs whose log does not back their scorecard (or that have no log), as for
                      score; each is badged "unverified" in the arms and runs tables and listed with why
  --json              print the report's data (the embedded JSON) instead of a sentence

exit status: 0 when the page was written, 1 when no run could be scored, 2 on bad options or runs that
cannot be pooled; with --plan, 3 when the page was written but the plan is not complete (a job missing,
unfinished or refused).`;

const flags = {
  out: flag.text({ short: "o" }),
  budgets: flag.custom(budgetsFlag),
  views: flag.bool(),
  svg: flag.text(),
  png: flag.text(),
  "png-timeout": flag.int(1, 86_400),
  title: flag.text(),
  seed: flag.int(0, 2 ** 32 - 1),
  resamples: flag.int(1, 10_000_000),
  json: flag.bool(),
  plan: flag.text(),
  "allow-mixed-builds": flag.bool(),
  "trust-scorecards": flag.bool(),
} as const;

/** Writes `prolong view`'s page into each run directory that has none; returns the directories it failed for. */
function writeViews(paths: readonly string[], find: FindOptions): string[] {
  const failed: string[] = [];
  for (const r of findRuns(paths, find).runs) {
    const out = path.join(r.dir, "view.html");
    // A page already there is kept; anything else at the name (a symlink, a FIFO) is replaced, never followed.
    const there = checkRegularFile(out, "view.html");
    if (there.isOk() && there.value) continue;
    const source = openViewSource(r.dir);
    const log = source.andThen((s) => loadLog(logPathOf(s.logPath)).map((l) => ({ s, l })));
    if (log.isErr()) {
      failed.push(`${r.dir}: ${formatError(log.error)}`);
      continue;
    }
    const wrote = writeFileReplacing(out, replayHtml(buildReplay(log.value.l, log.value.s)));
    if (wrote.isErr()) failed.push(`${r.dir}: ${formatError(wrote.error)}`);
  }
  return failed;
}

/** Seconds Chromium may spend on one figure: a browser that hangs (a broken GPU stack, a locked profile)
 * must end the report with an error, not hold the user's terminal forever. */
const PNG_TIMEOUT_S = 60;

/** Each figure's SVG screenshotted by headless Chromium at twice its size; errors name the figure. */
function writePngs(figures: readonly Figure[], dir: string, chromium: string, timeoutS: number): string | null {
  const work = mkdtempSync(path.join(tmpdir(), "prolong-report-png-"));
  try {
    for (const f of figures) {
      const svgFile = path.join(work, `${f.id}.html`);
      writeFileSync(svgFile, `<!doctype html><html><body style="margin:0">${f.svg}</body></html>`);
      const out = path.resolve(dir, `${f.id}.png`);
      const p = Bun.spawnSync(
        [
          chromium,
          ...HEADLESS_FLAGS,
          "--hide-scrollbars",
          `--user-data-dir=${path.join(work, "profile")}`,
          "--force-device-scale-factor=2",
          "--run-all-compositor-stages-before-draw",
          "--virtual-time-budget=2000",
          `--window-size=${WIDTH},${HEIGHT}`,
          `--screenshot=${out}`,
          `file://${svgFile}`,
        ],
        { stdout: "pipe", stderr: "pipe", timeout: timeoutS * 1000, killSignal: "SIGTERM" },
      );
      if (p.exitedDueToTimeout)
        return `${f.id}: chromium did not finish within ${timeoutS} s and was stopped (raise it with --png-timeout)`;
      if (p.exitCode !== 0 || !existsSync(out))
        return `${f.id}: chromium exited ${p.exitCode}: ${p.stderr.toString().trim().split("\n").slice(-2).join(" ")}`;
    }
    return null;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export const reportCommand: Command = {
  name: "report",
  summary: "an offline HTML page of a study's figures (inline SVG): score vs budget, best@k, per game, learning curves, tokens",
  usage,
  flags,
  async run(args) {
    const parsed = parseCommandArgs("report", args, flags);
    if (!parsed) return 2;
    const o = parsed.values;
    const budgets = o.budgets?.filter((b): b is number => b !== null);
    if (parsed.positionals.length === 0)
      return argumentProblem(
        "report",
        "missing <run-dir | dir above runs>, which runs to report on",
        "prolong report runs/ -o report.html (a directory above the runs)",
      );
    const find = { trustScorecards: o["trust-scorecards"] ?? false };
    if (o.views) for (const f of writeViews(parsed.positionals, find)) console.error(`prolong report: no view.html for ${f}`);
    const boot = {
      seed: o.seed ?? BOOTSTRAP_DEFAULTS.seed,
      resamples: o.resamples ?? BOOTSTRAP_DEFAULTS.resamples,
      level: BOOTSTRAP_DEFAULTS.level,
    };
    let found = findRuns(parsed.positionals, find);
    let complete = true;
    if (o.plan !== undefined) {
      const c = checkAgainstPlanFile(found, o.plan);
      if (c.isErr()) {
        console.error(formatError(c.error));
        return 2;
      }
      found = c.value.kept;
      complete = planComplete(c.value.check);
      console.error(c.value.text);
    }
    const data = buildReport(found, {
      boot,
      ...(budgets ? { budgets } : {}),
      allowMixedBuilds: parsed.values["allow-mixed-builds"] ?? false,
    });
    if (data.isErr()) {
      console.error(data.error.map((c) => `prolong report: ${conflictText(c)}`).join("\n"));
      return 2;
    }
    const d = data.value;
    if (d.arms.length === 0) {
      console.error(
        `prolong report: no run could be scored${d.skipped.length ? `:\n${d.skipped.map((s) => `  ${s.dir}: ${s.reason}`).join("\n")}` : ""}`,
      );
      return 1;
    }
    const out = path.resolve(o.out ?? "report.html");
    const figures = reportFigures(d);
    const wrote = writeFileReplacing(
      out,
      reportHtml(d, figures, { title: o.title ?? "prolong report", linkBase: path.dirname(out) }),
    );
    if (wrote.isErr()) {
      console.error(formatError(wrote.error));
      return 2;
    }
    if (o.svg !== undefined) {
      mkdirSync(o.svg, { recursive: true });
      for (const f of figures) {
        const svg = writeFileReplacing(path.join(o.svg, `${f.id}.svg`), `${f.svg}\n`);
        if (svg.isErr()) {
          console.error(formatError(svg.error));
          return 2;
        }
      }
    }
    if (o.png !== undefined) {
      // Without Chromium the page and the SVGs are still written: only the PNGs are missing, and the error says why.
      const chromium = findChromium();
      if (chromium === null) {
        console.error(
          `prolong report: wrote ${out}${o.svg !== undefined ? ` and the SVGs in ${o.svg}` : ""}, but no PNG: --png needs Chromium to render the figures, and none was found\n  fix: apt-get install chromium, set PROLONG_CHROMIUM=/path/to/chromium, or use --svg DIR for the same figures as SVG`,
        );
        return 1;
      }
      mkdirSync(o.png, { recursive: true });
      const failed = writePngs(figures, o.png, chromium, o["png-timeout"] ?? PNG_TIMEOUT_S);
      if (failed) {
        console.error(
          `prolong report: wrote ${out}, but a PNG failed: ${failed}\n  fix: use --svg, or check that ${chromium} runs headless`,
        );
        return 1;
      }
    }
    if (o.json) console.log(JSON.stringify(d, null, 2));
    else
      console.log(
        `wrote ${out}: ${d.arms.length} arm(s), ${d.runs.length} run(s), ${figures.length} figures${o.svg !== undefined ? `; SVGs in ${o.svg}` : ""}${o.png !== undefined ? `; PNGs in ${o.png}` : ""}`,
      );
    return complete ? 0 : PLAN_INCOMPLETE_EXIT;
  },
};
