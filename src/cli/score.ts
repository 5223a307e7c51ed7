// `prolong score <run dirs or dirs above them…>`: per arm, per game and overall scores of finished runs, with the
// paper's statistics; every run as a row (--json, --csv); --at N,M,… re-scores from the logs as if cut at each
// budget; --compare A B sets two arms side by side at equal k.
import { jsonText, terminalText } from "../terminal-text.ts";
import { conflictText, groupArms, metricConflict, type ArmConflict, type ScoredRun } from "../score/arms.ts";
import { isVerified, type Evidence } from "../score/evidence.ts";
import { formatError } from "../errors.ts";
import { checkAgainstPlanFile, PLAN_INCOMPLETE_EXIT, planComplete, type PlanCheck } from "../plan/check.ts";
import { collectRuns, scoreFound } from "../score/collect.ts";
import { findRuns } from "../score/find-runs.ts";
import { markdownForStdout } from "./markdown-stdout.ts";
import {
  armMarkdown,
  armsMarkdown,
  budgetsMarkdown,
  compareMarkdown,
  skippedMarkdown,
  unverifiedMarkdown,
} from "../score/markdown.ts";
import { compareArms } from "../score/report.ts";
import { runRowsCsv } from "../score/run-rows.ts";
import { toolUseMarkdown } from "../score/tool-use-markdown.ts";
import * as v from "valibot";
import { BOOTSTRAP_DEFAULTS, type BootstrapOptions } from "../score/stats.ts";
import { flag, parseCommandArgs } from "./args.ts";
import { argumentProblem } from "./argument-problem.ts";
import type { Command } from "./command.ts";

const usage = `usage: prolong score <run-dir | dir above runs>... [options]
       prolong score --compare A B [options]

Scores finished runs from their scorecard.json files. Runs are grouped into arms by name (\`play --arm NAME\`, or
the name derived from the settings); every run under one name must have the same fingerprint — every setting
that changes what the agent sees or does —, the same provenance (the build of prolong that produced it, with
the NetHack binary, CLI version and model it used; "unknown build" for runs older than that record) and, per
game, the same game version, or score refuses to pool them and names what differs.
For each arm, per game and over all games: runs, failed runs (counted at the score
they reached), unfinished runs (not counted), levels completed, RHAE (ARC-AGI-3's action-efficiency score,
0..100, of each run's first episode: one episode at the stated budget; NetHack runs: BALROG progression in percent, and the columns say so — runs
of the two metrics are refused in one table), pass@1 (mean over runs), best@k (max over the k runs; and the expected
best of k runs for k = 1..K), billed tokens and billed tokens per level completed; and, from the runs'
trajectories, the share of tool calls in each class and the log pulled into the context per turn. Over games, means come with
${Math.round(BOOTSTRAP_DEFAULTS.level * 100)}% bootstrap confidence intervals that resample games and then runs within each game, printed
with the games and runs behind them (n=1 for one run: no interval), and BALROG's mean ± standard error over
runs (seeded: the same command prints the same table).
With more than one arm, one table sets them all side by side (best@k at one k for all). Runs of --episodes K
also get a lifetime table: the first episode (pass@1), the last, the best of K (named so: it used up to K
times the budget), and per episode the score and the best so far.

A directory that is half-written, interrupted, edited or not prolong's is named with the reason and skipped.
Every scorecard is checked against its run's log (the last section header's action count, level and Score,
and the card's own figures against each other): a card with no logs.txt, or one its log does not back, is
skipped naming what differs (--json: "evidence" on each run and refused directory: "matches", "no-log" or
"mismatch: ...").
The tables are Markdown; on a terminal they are aligned and, when wider than it, split into tables that fit
(each repeating its first column); a file or a pipe gets them as written.

  --at N[,M,…]      re-score every run as if it had stopped after N actions per episode, from its log
                    (no agent runs): the budget-matched comparison. Several budgets give a score-against-
                    budget table. Runs played with --max-actions < N are skipped at that budget.
  --compare         exactly two paths, arm A and arm B (each must hold one arm): per game side by side,
                    B − A with a paired bootstrap CI over the games both played; best@k at equal k
  --seed N          bootstrap seed (default ${BOOTSTRAP_DEFAULTS.seed})
  --resamples N     bootstrap resamples (default ${BOOTSTRAP_DEFAULTS.resamples})
  --price USD       dollars per million billed tokens: adds cost per level in dollars
  --json            one JSON object: {arms, runs, skipped, at, budgets, bootstrap} (or {compare, ...})
  --csv             one row per run (every budget with --at), RFC 4180, for spreadsheets and pandas
  --allow-mixed-builds  pool runs of one arm produced by different builds of prolong (or another NetHack
                    binary, CLI version, model): refused by default, naming the difference; each build is
                    then listed under the arm
  --trust-scorecards  score runs whose log does not back their scorecard (or that have no log) anyway,
                    marked unverified under the tables (their "evidence" says why)
  --plan FILE       check the runs against a plan (\`prolong plan\`): jobs missing, found twice, refused (the
                    log does not back the scorecard), runs not in the plan or differing from it are named;
                    the rest are scored as one process would

exit status: 0 when at least one run was scored, 1 when none could be, 2 on bad options or runs that
cannot be pooled; with --plan, 3 when runs were scored but the plan is not complete (a job missing,
unfinished or refused).`;

/** `--at 100,250,500` as budgets in the order given; a message for anything else. */
export function parseBudgets(v: string | undefined): (number | null)[] | string {
  if (v === undefined) return [null];
  const parts = v.split(",").map((x) => x.trim());
  if (parts.some((x) => !/^\d+$/.test(x) || Number(x) < 1))
    return `--at takes whole numbers ≥ 1 separated by commas (e.g. --at 100,250,500), got '${v}'`;
  const budgets = parts.map(Number);
  if (new Set(budgets).size !== budgets.length) return `--at names a budget twice: '${v}'`;
  return budgets;
}

/** --at as the argv layer checks it: parseBudgets' message, without the flag name the layer puts first. */
export const budgetsFlag = v.pipe(
  v.string(),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const b = parseBudgets(dataset.value);
    if (typeof b !== "string") return b;
    addIssue({ message: b.replace(/^--at /, "") });
    return NEVER;
  }),
);

const flags = {
  at: flag.custom(budgetsFlag),
  compare: flag.bool(),
  seed: flag.int(0, 2 ** 32 - 1),
  resamples: flag.int(1, 10_000_000),
  price: flag.num(0, 1_000_000, { unit: " of dollars per million billed tokens" }),
  json: flag.bool(),
  csv: flag.bool(),
  plan: flag.text(),
  "allow-mixed-builds": flag.bool(),
  "trust-scorecards": flag.bool(),
} as const;

/** The runs whose log does not back their scorecard, with what it says (scored only under --trust-scorecards). */
function unverifiedRuns(runs: readonly ScoredRun[]): { dir: string; evidence: Evidence }[] {
  return runs.flatMap((r) => (r.evidence !== undefined && !isVerified(r.evidence) ? [{ dir: r.dir, evidence: r.evidence }] : []));
}

function refuse(conflicts: readonly ArmConflict[]): number {
  console.error(terminalText(conflicts.map((c) => `prolong score: ${conflictText(c)}`).join("\n")));
  return 2;
}

/** Markdown to stdout: as written to a file or a pipe; fitted to the width on a terminal. */
function printMarkdown(text: string): void {
  // Arm names, game ids and end details come from run files: no raw control reaches the terminal.
  console.log(markdownForStdout(terminalText(text)));
}

export const scoreCommand: Command = {
  name: "score",
  summary: "score finished runs: RHAE, pass@1, best@k, bootstrap CIs, --at N, --compare A B",
  usage,
  flags,
  async run(args) {
    const parsed = parseCommandArgs("score", args, flags);
    if (!parsed) return 2;
    const o = parsed.values;
    const { seed, resamples, price } = o;
    if (o.json && o.csv) return argumentProblem("score", "--json and --csv are two formats of one answer", "give one of them");
    const paths = parsed.positionals;
    if (o.compare && paths.length !== 2)
      return argumentProblem(
        "score",
        `--compare takes exactly two paths, arm A and arm B (got ${paths.length})`,
        "prolong score --compare <arm-A-dir> <arm-B-dir>",
      );
    if (paths.length === 0)
      return argumentProblem(
        "score",
        "missing <run-dir | dir above runs>, which runs to score",
        "prolong score runs/ (a directory above the runs), or prolong score <run-dir>...",
      );
    const boot: BootstrapOptions = {
      seed: seed ?? BOOTSTRAP_DEFAULTS.seed,
      resamples: resamples ?? BOOTSTRAP_DEFAULTS.resamples,
      level: BOOTSTRAP_DEFAULTS.level,
    };
    const md = { level: BOOTSTRAP_DEFAULTS.level, ...(price !== undefined ? { pricePerMTok: price } : {}) };
    const group = { allowMixedBuilds: o["allow-mixed-builds"] ?? false };
    const find = { trustScorecards: o["trust-scorecards"] ?? false };
    const at = o.at ?? [null];
    const heading = (n: number | null) => (n !== null ? `Re-scored at ${n} actions per episode (from the logs).\n\n` : "");

    if (o.compare && o.plan !== undefined) {
      console.error(
        "prolong score: --plan scores a plan's runs by arm; compare two of its arms with the arm table, or without --plan",
      );
      return 2;
    }
    if (o.compare) {
      const [pa, pb] = paths as [string, string];
      const out: {
        at: number | null;
        compare: ReturnType<typeof compareArms>;
        skipped: ReturnType<typeof collectRuns>["skipped"];
        /** Runs scored though their log does not back their scorecard (--trust-scorecards). */
        unverified: { dir: string; evidence: Evidence }[];
      }[] = [];
      for (const n of at) {
        const a = collectRuns([pa], n, find);
        const b = collectRuns([pb], n, find);
        const skipped = [...a.skipped, ...b.skipped];
        const sides = [];
        for (const [name, side] of [
          [pa, a],
          [pb, b],
        ] as const) {
          const arms = groupArms(side.runs, side.skipped, group);
          if (arms.isErr()) return refuse(arms.error);
          if (arms.value.length !== 1) {
            console.error(
              arms.value.length === 0
                ? `prolong score: ${name}: no run could be scored\n${skippedMarkdown(skipped)}`
                : `prolong score: ${name} holds ${arms.value.length} arms (${arms.value.map((x) => x.name).join(" | ")})\n  fix: give each side a directory holding one arm`,
            );
            return arms.value.length === 0 ? 1 : 2;
          }
          sides.push(arms.value[0]!);
        }
        const mixed = metricConflict(sides.map((s) => ({ dir: s.name, metric: s.metric })));
        if (mixed) return refuse([{ ...mixed, sides: [sides[0]!.runs.map((r) => r.dir), sides[1]!.runs.map((r) => r.dir)] }]);
        out.push({
          at: n,
          compare: compareArms(sides[0]!, sides[1]!, boot),
          skipped,
          unverified: unverifiedRuns([...a.runs, ...b.runs]),
        });
      }
      if (o.json)
        console.log(
          jsonText(
            {
              compare: out[0]!.compare,
              skipped: out[0]!.skipped,
              unverified: out[0]!.unverified,
              at: out[0]!.at,
              ...(at.length > 1 ? { budgets: out } : {}),
              bootstrap: boot,
            },
            null,
            2,
          ),
        );
      else if (o.csv) {
        console.error("prolong score: --csv lists runs; use it without --compare (the rows name each run's arm)");
        return 2;
      } else
        printMarkdown(
          out
            .map(
              (x) =>
                heading(x.at) +
                [compareMarkdown(x.compare, { a: pa, b: pb }, md), unverifiedMarkdown(x.unverified), skippedMarkdown(x.skipped)]
                  .filter(Boolean)
                  .join("\n\n"),
            )
            .join("\n\n"),
        );
      return 0;
    }

    let found = findRuns(paths, find);
    let check: { text: string; data: PlanCheck } | null = null;
    if (o.plan !== undefined) {
      const c = checkAgainstPlanFile(found, o.plan);
      if (c.isErr()) {
        console.error(formatError(c.error));
        return 2;
      }
      found = c.value.kept;
      check = { text: c.value.text, data: c.value.check };
    }
    const scored = scoreFound(found, at, boot, group);
    if (scored.isErr()) return refuse(scored.error);
    const all = scored.value.budgets;
    const first = all[0]!;
    if (o.json) {
      console.log(
        jsonText(
          {
            arms: first.arms,
            runs: first.runs,
            skipped: first.skipped,
            at: first.at,
            ...(all.length > 1 ? { budgets: all } : {}),
            ...(check ? { plan: check.data } : {}),
            bootstrap: boot,
          },
          null,
          2,
        ),
      );
    } else if (o.csv) {
      if (check) console.error(terminalText(check.text));
      process.stdout.write(runRowsCsv(all.map((b) => ({ at: b.at, rows: b.runs }))));
    } else {
      const blocks: string[] = check ? [check.text] : [];
      if (all.length > 1) blocks.push(budgetsMarkdown(all, md));
      for (const b of all) {
        const body = b.arms.map((r) => armMarkdown(r, md));
        if (b.arms.length > 1) body.unshift(armsMarkdown(b.arms, md));
        const tools = b.at === null ? toolUseMarkdown(b.arms) : "";
        if (tools) body.push(tools);
        blocks.push(heading(b.at) + (body.join("\n\n") || "No run could be scored."));
      }
      const skipped = skippedMarkdown(first.skipped);
      printMarkdown([...blocks, unverifiedMarkdown(first.runs), skipped].filter(Boolean).join("\n\n"));
    }
    if (!all.some((b) => b.runs.some((r) => r.status === "scored"))) return 1;
    return check && !planComplete(check.data) ? PLAN_INCOMPLETE_EXIT : 0;
  },
};
