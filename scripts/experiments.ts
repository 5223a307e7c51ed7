// Regenerates the committed results of docs/experiments.md from their committed plans, in one command:
//
//   bun scripts/experiments.ts [NAME...] [--runs-dir runs/experiments] [--no-run]     (NAME: memory, lifetime; default all)
//
// For each experiment: `prolong run-plan <plan> --out <runs-dir>/<name>` (finished jobs are skipped, so a second
// call only re-scores), then the runs scored against the plan (as `prolong score <dir> --plan <plan>`), the
// tables written into docs/experiments.md between its "generated" marks, every run's figures pinned in
// docs/experiments/<name>-runs.csv (test/docs/experiments.test.ts re-plays a slice and compares), and the
// memory experiment's figures drawn (`prolong report --svg docs/experiments`).
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { checkAgainstPlanFile } from "../src/plan/check.ts";
import { scoreFound } from "../src/score/collect.ts";
import { findRuns } from "../src/score/find-runs.ts";
import { armMarkdown, armsMarkdown, budgetsMarkdown } from "../src/score/markdown.ts";
import { BOOTSTRAP_DEFAULTS } from "../src/score/stats.ts";
import { EXPERIMENTS, pinnedCsv, type Experiment } from "./experiments-list.ts";

const root = join(import.meta.dir, "..");
const args = process.argv.slice(2);
const runsDir = args.includes("--runs-dir") ? args[args.indexOf("--runs-dir") + 1]! : join(root, "runs", "experiments");
const run = !args.includes("--no-run");
const only = args.filter((a, i) => !a.startsWith("--") && args[i - 1] !== "--runs-dir");
const md = { level: BOOTSTRAP_DEFAULTS.level };

function prolong(argv: string[]): number {
  const r = spawnSync(process.execPath, [join(root, "src/main.ts"), ...argv], { stdio: "inherit", cwd: root });
  return r.status ?? 1;
}

function tables(e: Experiment, dir: string): { text: string; csv: string } {
  const plan = join(root, e.plan);
  const checked = checkAgainstPlanFile(findRuns([dir]), plan);
  if (checked.isErr()) throw new Error(checked.error.message);
  if (checked.value.text !== "") console.error(checked.value.text);
  const scored = scoreFound(checked.value.kept, [null, ...e.budgets], {});
  if (scored.isErr()) throw new Error(`${e.name}: runs that cannot be pooled: ${JSON.stringify(scored.error)}`);
  const [asPlayed, ...budgets] = scored.value.budgets;
  const arms = asPlayed!.arms;
  const blocks = [arms.length > 1 ? armsMarkdown(arms, md) : "", ...(e.perArm ? arms.map((a) => armMarkdown(a, md)) : [])];
  if (budgets.length > 0) blocks.push(budgetsMarkdown(scored.value.budgets, md));
  const text = blocks
    .filter(Boolean)
    .join("\n\n")
    // Headings of generated tables sit under the document's own sections.
    .replace(/^## /gm, "#### ")
    .replace(/^### /gm, "#### ");
  return { text, csv: pinnedCsv(asPlayed!.runs) };
}

let doc = readFileSync(join(root, "docs/experiments.md"), "utf8");
for (const e of EXPERIMENTS.filter((x) => only.length === 0 || only.includes(x.name))) {
  const dir = join(runsDir, e.name);
  if (run && prolong(["run-plan", join(root, e.plan), "--out", dir, "--quiet"]) !== 0) {
    console.error(`experiments: ${e.name}: run-plan did not complete every job (see above)`);
    process.exit(1);
  }
  const { text, csv } = tables(e, dir);
  const begin = `<!-- begin generated: ${e.name} -->`;
  const end = `<!-- end generated: ${e.name} -->`;
  const a = doc.indexOf(begin);
  const b = doc.indexOf(end);
  if (a < 0 || b < a) throw new Error(`docs/experiments.md has no "${begin}" … "${end}" marks`);
  doc = `${doc.slice(0, a + begin.length)}\n${text}\n${doc.slice(b)}`;
  writeFileSync(join(root, e.csv), csv);
  if (e.figures) {
    const html = join(dir, "report.html");
    if (prolong(["report", relative(root, dir), "-o", html, "--svg", e.figures]) !== 0) process.exit(1);
  }
  console.error(`experiments: ${e.name}: tables in docs/experiments.md, runs in ${e.csv}`);
}
writeFileSync(join(root, "docs/experiments.md"), doc);
