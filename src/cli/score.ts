// `prolong score <run dirs or dirs above them…>`: per game and overall scores of finished runs, with the
// paper's statistics; --at N re-scores from the logs as if cut at N actions; --compare A B sets two arms
// side by side.
import { findRuns, skipReason, type FoundRun, type SkippedRun } from "../score/find-runs.ts";
import { armMarkdown, compareMarkdown, skippedMarkdown } from "../score/markdown.ts";
import { armReport, compareArms, groupArms, armLabel, armSettings, type ScoredRun } from "../score/report.ts";
import { rescoreAt } from "../score/rescore.ts";
import { BOOTSTRAP_DEFAULTS, type BootstrapOptions } from "../score/stats.ts";
import { parseCommandArgs } from "./args.ts";
import type { Command } from "./command.ts";

const usage = `usage: prolong score <run-dir | dir above runs>... [options]
       prolong score --compare A B [options]

Scores finished runs from their scorecard.json files. Runs are grouped into arms (the same settings except
game and seed); for each arm, per game and over all games: levels completed, RHAE (ARC-AGI-3's action-
efficiency score, 0..100, of each run's best episode), pass@1 (mean over runs), best@k (max over the k runs),
billed tokens and billed tokens per level completed. Over games, means come with ${Math.round(BOOTSTRAP_DEFAULTS.level * 100)}% bootstrap confidence
intervals that resample games (seeded: the same command prints the same table). Runs of --episodes K also get
a lifetime table: RHAE per episode and the best so far.

A directory that is half-written, interrupted, edited or not prolong's is named with the reason and skipped.

  --at N            re-score every run as if it had stopped after N actions per episode, from its log
                    (no agent runs): the budget-matched comparison. Runs played with --max-actions < N
                    are skipped.
  --compare         exactly two paths, arm A and arm B (each must hold one arm): per game side by side,
                    B − A with a paired bootstrap CI over the games both played
  --seed N          bootstrap seed (default ${BOOTSTRAP_DEFAULTS.seed})
  --resamples N     bootstrap resamples (default ${BOOTSTRAP_DEFAULTS.resamples})
  --price USD       dollars per million billed tokens: adds cost per level in dollars
  --json            one JSON object: {arms | compare, skipped, at, bootstrap}

exit status: 0 when at least one run was scored, 1 when none could be, 2 on bad options.`;

const options = {
  at: { type: "string" },
  compare: { type: "boolean" },
  seed: { type: "string" },
  resamples: { type: "string" },
  price: { type: "string" },
  json: { type: "boolean" },
} as const;

function wholeNumber(v: string | undefined, flag: string, min: number): number | undefined | string {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < min) return `${flag} must be a whole number ≥ ${min}, got '${v}'`;
  return Number(v);
}

/** Runs found under the paths, each re-scored at N when asked; failures join the skipped list. */
export function collectRuns(paths: readonly string[], at: number | undefined): { runs: ScoredRun[]; skipped: SkippedRun[] } {
  const found = findRuns(paths);
  if (at === undefined) return found;
  const runs: FoundRun[] = [];
  const skipped = [...found.skipped];
  for (const r of found.runs) {
    const cut = rescoreAt(r.dir, r.card, at);
    if (cut.isOk()) runs.push({ dir: r.dir, card: cut.value });
    else skipped.push({ dir: r.dir, reason: skipReason(r.dir, cut.error) });
  }
  return { runs, skipped };
}

export const scoreCommand: Command = {
  name: "score",
  summary: "score finished runs: RHAE, pass@1, best@k, bootstrap CIs, --at N, --compare A B",
  usage,
  async run(args) {
    const parsed = parseCommandArgs("score", args, options);
    if (!parsed) return 2;
    const o = parsed.values;
    const at = wholeNumber(o.at, "--at", 1);
    const seed = wholeNumber(o.seed, "--seed", 0);
    const resamples = wholeNumber(o.resamples, "--resamples", 1);
    const price = o.price === undefined ? undefined : Number(o.price);
    for (const bad of [at, seed, resamples]) {
      if (typeof bad === "string") {
        console.error(`prolong score: ${bad}`);
        return 2;
      }
    }
    if (price !== undefined && !(price >= 0)) {
      console.error(`prolong score: --price must be a number ≥ 0 (dollars per million billed tokens), got '${o.price}'`);
      return 2;
    }
    const paths = parsed.positionals;
    if (paths.length === 0 || (o.compare && paths.length !== 2)) {
      console.error(o.compare ? "prolong score: --compare takes exactly two paths, arm A and arm B" : `prolong score: which runs? give run directories or a directory above them\n\n${usage}`);
      return 2;
    }
    const boot: BootstrapOptions = { seed: (seed as number | undefined) ?? BOOTSTRAP_DEFAULTS.seed, resamples: (resamples as number | undefined) ?? BOOTSTRAP_DEFAULTS.resamples, level: BOOTSTRAP_DEFAULTS.level };
    const md = { level: BOOTSTRAP_DEFAULTS.level, ...(price !== undefined ? { pricePerMTok: price } : {}) };
    const atN = at as number | undefined;
    const heading = atN !== undefined ? `Re-scored at ${atN} actions per episode (from the logs).\n\n` : "";

    if (o.compare) {
      const [pa, pb] = paths as [string, string];
      const a = collectRuns([pa], atN);
      const b = collectRuns([pb], atN);
      const skipped = [...a.skipped, ...b.skipped];
      for (const [name, side] of [[pa, a], [pb, b]] as const) {
        const arms = groupArms(side.runs);
        if (arms.length !== 1) {
          console.error(arms.length === 0 ? `prolong score: ${name}: no run could be scored\n${skippedMarkdown(skipped)}` : `prolong score: ${name} holds ${arms.length} arms (${arms.map((x) => armLabel(armSettings(x[0]!.card))).join(" | ")})\n  fix: give each side a directory holding one arm`);
          return arms.length === 0 ? 1 : 2;
        }
      }
      const report = compareArms(a.runs, b.runs, boot);
      if (o.json) console.log(JSON.stringify({ compare: report, skipped, at: atN ?? null, bootstrap: boot }, null, 2));
      else console.log(heading + compareMarkdown(report, { a: pa, b: pb }, md) + (skipped.length ? `\n\n${skippedMarkdown(skipped)}` : ""));
      return 0;
    }

    const { runs, skipped } = collectRuns(paths, atN);
    const arms = groupArms(runs).map((r) => armReport(r, boot));
    if (o.json) console.log(JSON.stringify({ arms, skipped, at: atN ?? null, bootstrap: boot }, null, 2));
    else {
      const body = arms.map((r) => armMarkdown(r, md)).join("\n\n");
      console.log(heading + [body || "No run could be scored.", skippedMarkdown(skipped)].filter(Boolean).join("\n\n"));
    }
    return runs.length > 0 ? 0 : 1;
  },
};
