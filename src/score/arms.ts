// Runs grouped into arms by name, and the refusal to pool what is not one experiment: under one arm name every
// run must share the fingerprint (every setting that changes what the agent sees or does), the provenance (the
// build and outside parts that produced it; --allow-mixed-builds waives this) and, game by game, the game's
// version. A conflict names the arm, what differs and the runs on each side.
import { err, ok, type Result } from "neverthrow";
import { armOf, armSettingsOf, differingSettings, type ArmId, type ArmSettings } from "../config/arm.ts";
import type { RunConfig } from "../config/run-config.ts";
import type { Evidence } from "./evidence.ts";
import type { SkippedRun } from "./find-runs.ts";
import { provenanceDifferences, provenanceText } from "./provenance.ts";
import { cardMetric, metricLabel, type ScoreMetric, type Scorecard } from "./scorecard.ts";

export interface ScoredRun {
  readonly dir: string;
  readonly card: Scorecard;
  /** What the run's log says of the card (score/evidence.ts); absent when it was not checked. */
  readonly evidence?: Evidence;
}

export interface Arm {
  readonly name: string;
  readonly fingerprint: string;
  readonly settings: ArmSettings;
  /** What the runs' scores measure (every run of a grouping shares it). */
  readonly metric: ScoreMetric;
  /** Finished runs (agent-failed ones included: they are the agent's result). */
  readonly runs: ScoredRun[];
  /** Runs of this arm that have not finished (no scorecard, interrupted, game failed): shown, not scored. */
  readonly unfinished: SkippedRun[];
  /** What produced the runs (provenance/provenanceText), each distinct one once: one line unless mixed builds were allowed. */
  readonly provenance: string[];
}

export interface GroupOptions {
  /** Pool runs of one arm whose builds or outside parts differ (each is still listed in the arm's provenance). */
  readonly allowMixedBuilds?: boolean;
}

export interface ArmConflict {
  readonly arm: string;
  /** What differs: settings as `--flag: A vs B`, or `game G: version X vs Y`. */
  readonly differences: string[];
  /** The run directories on each side (first side first). */
  readonly sides: [string[], string[]];
  /** "metric": the runs' scores measure different things (RHAE and progression), whatever their arms;
   * "build": they were produced by different builds or outside parts (--allow-mixed-builds pools them). */
  readonly kind?: "metric" | "build";
}

/** Runs whose scores measure different things, as the conflict that refuses one table for them (null: one metric). */
export function metricConflict(runs: readonly { dir: string; metric: ScoreMetric }[]): ArmConflict | null {
  const first = runs[0]?.metric;
  const other = runs.filter((r) => r.metric !== first);
  if (first === undefined || other.length === 0) return null;
  const second = other[0]!.metric;
  return {
    arm: "",
    kind: "metric",
    differences: [`score: ${metricLabel(first)} vs ${metricLabel(second)}`],
    sides: [runs.filter((r) => r.metric === first).map((r) => r.dir), other.map((r) => r.dir)],
  };
}

/** The arm a scorecard records, or (older scorecards) the one its settings give. */
export function cardArm(card: Scorecard): ArmId {
  return card.arm ?? armOf(card.settings);
}

/** Runs (and unfinished runs) grouped by arm name in order of first appearance; conflicts refuse the grouping. */
export function groupArms(
  runs: readonly ScoredRun[],
  skipped: readonly SkippedRun[] = [],
  opts: GroupOptions = {},
): Result<Arm[], ArmConflict[]> {
  interface Building {
    arm: Arm;
    config: RunConfig;
    versions: Map<string, { version: string; dirs: string[] }[]>;
  }
  const mixed = metricConflict(runs.map((r) => ({ dir: r.dir, metric: cardMetric(r.card) })));
  if (mixed) return err([mixed]);
  const byName = new Map<string, Building>();
  const conflicts = new Map<string, ArmConflict>();
  const conflict = (name: string, differences: string[], a: string[], b: string[], kind?: "build") => {
    const key = `${name}\n${differences.join("\n")}`;
    const known = conflicts.get(key);
    if (known) {
      for (const d of b) if (!known.sides[1].includes(d)) known.sides[1].push(d);
    } else conflicts.set(key, { arm: name, differences, sides: [[...a], [...b]], ...(kind ? { kind } : {}) });
  };
  for (const r of runs) {
    const id = cardArm(r.card);
    const known = byName.get(id.name);
    if (!known) {
      const versions = new Map([[r.card.game_id, [{ version: r.card.game_version ?? "", dirs: [r.dir] }]]]);
      byName.set(id.name, {
        arm: {
          ...id,
          settings: armSettingsOf(r.card.settings),
          metric: cardMetric(r.card),
          runs: [r],
          unfinished: [],
          provenance: [provenanceText(r.card.provenance)],
        },
        config: r.card.settings,
        versions,
      });
      continue;
    }
    if (known.arm.fingerprint !== id.fingerprint) {
      const diff = differingSettings(known.arm.settings, armSettingsOf(r.card.settings));
      conflict(
        id.name,
        diff.length > 0
          ? diff
          : [`fingerprint ${known.arm.fingerprint} vs ${id.fingerprint} (a scorecard edited, or from another prolong)`],
        known.arm.runs.map((x) => x.dir),
        [r.dir],
      );
      continue;
    }
    const first = known.arm.runs[0]!;
    const built = provenanceDifferences(first.card.provenance, r.card.provenance);
    if (built.length > 0 && !opts.allowMixedBuilds) {
      conflict(id.name, built, [first.dir], [r.dir], "build");
      continue;
    }
    const made = provenanceText(r.card.provenance);
    if (!known.arm.provenance.includes(made)) known.arm.provenance.push(made);
    const seen = known.versions.get(r.card.game_id) ?? [];
    const version = r.card.game_version ?? "";
    const same = seen.find((s) => s.version === version);
    if (same) same.dirs.push(r.dir);
    else if (seen.length > 0 && version !== "" && seen.every((s) => s.version !== "")) {
      const first = seen[0]!;
      conflict(id.name, [`game ${r.card.game_id}: version ${first.version} vs ${version}`], first.dirs, [r.dir]);
      continue;
    } else seen.push({ version, dirs: [r.dir] });
    known.versions.set(r.card.game_id, seen);
    known.arm.runs.push(r);
  }
  if (conflicts.size > 0) return err([...conflicts.values()]);
  for (const s of skipped) {
    if (!s.unfinished) continue;
    const id = armOf(s.unfinished);
    const known = byName.get(id.name);
    if (known && known.arm.fingerprint === id.fingerprint) known.arm.unfinished.push(s);
  }
  return ok([...byName.values()].map((b) => b.arm));
}

/** A conflict as lines for a terminal: what differs, on which runs, and the fix. */
export function conflictText(c: ArmConflict): string {
  const few = (dirs: string[]) =>
    `${dirs.length} run${dirs.length === 1 ? "" : "s"}: ${dirs.slice(0, 3).join(", ")}${dirs.length > 3 ? ", …" : ""}`;
  if (c.kind === "metric") {
    return [
      "these runs' scores measure different things; refusing to put them in one table:",
      ...c.differences.map((d) => `  ${d}`),
      `  first: ${few(c.sides[0])}`,
      `  other: ${few(c.sides[1])}`,
      "  fix: score the NetHack runs (BALROG progression) and the grid-game runs (RHAE) in separate commands",
    ].join("\n");
  }
  if (c.kind === "build") {
    return [
      `arm "${c.arm}" holds runs produced by different builds; refusing to pool them:`,
      ...c.differences.map((d) => `  ${d}`),
      `  first: ${few(c.sides[0])}`,
      `  other: ${few(c.sides[1])}`,
      "  fix: re-run one side with the other's build, score them in separate commands, or pass --allow-mixed-builds to pool them anyway (each build is then listed with the arm)",
    ].join("\n");
  }
  return [
    `arm "${c.arm}" holds runs that are not the same experiment; refusing to pool them:`,
    ...c.differences.map((d) => `  ${d}`),
    `  first: ${few(c.sides[0])}`,
    `  other: ${few(c.sides[1])}`,
    "  fix: play each setup under its own --arm NAME, or score their directories in separate commands",
  ].join("\n");
}
