// Scores that check their evidence (src/score/evidence.ts): `score` and `report` check every scorecard against
// its run's log — the card's own figures against each other, then the last section header's action count,
// Score and level — and refuse what the log does not back, naming why; --trust-scorecards scores it, marked.
// Forged cards are built by the real builder, so each is self-consistent: only the log can give it away.
import { beforeAll, describe, expect, test } from "bun:test";
import { appendFileSync, cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { reportCommand } from "../../src/cli/report.ts";
import { scoreCommand } from "../../src/cli/score.ts";
import { newConfig } from "../../src/config/run-config.ts";
import { writeLog, writeSection, type LogSection } from "../../src/log/format.ts";
import { RunIndex } from "../../src/log/run-index.ts";
import { xxh3_128 } from "../../src/native.ts";
import { buildScorecard, readScorecard, type ScorecardInput, type Scorecard } from "../../src/score/scorecard.ts";
import { playGame, tempRoot } from "../run/helpers.ts";
import { writeBackingLog } from "../support/backing-log.ts";
import { runCaptured } from "../support/captured.ts";

interface ScoreJson {
  runs: { dir: string; evidence: string | null; rhae: number }[];
  skipped: { dir: string; reason: string; evidence?: string }[];
}

async function scoreJson(...args: string[]): Promise<ScoreJson> {
  return JSON.parse((await runCaptured(scoreCommand, [...args, "--json"])).out) as ScoreJson;
}

/** What buildScorecard was given for `card` (so a forged card is rebuilt, self-consistent, from an edited input). */
function inputOf(card: Scorecard): ScorecardInput {
  return {
    run: card.run,
    config: card.settings,
    ...(card.game_version !== undefined ? { gameVersion: card.game_version } : {}),
    ...(card.provenance !== undefined ? { provenance: card.provenance } : {}),
    end: { reason: card.end_reason, detail: card.end_detail },
    baselines: card.level_baseline_actions,
    winLevels: card.win_levels,
    episodes: card.episodes.map((e) => ({
      episode: e.episode,
      levels: e.levels_completed,
      state: e.state,
      actions: e.actions,
      levelActions: e.level_actions,
    })),
    actions: card.actions,
    agentCalls: card.agent_calls,
    tokens: card.tokens,
    tamperEvents: card.tamper_events,
    wallMs: card.wall_ms,
  };
}

/** A copy of the played run at `dir` whose scorecard is rebuilt from an edited input (or edited as JSON). */
function forged(base: string, dir: string, edit: (i: ScorecardInput) => ScorecardInput, raw?: (c: Scorecard) => object): void {
  cpSync(base, dir, { recursive: true });
  const card = buildScorecard(edit(inputOf(readScorecard(path.join(base, "scorecard.json"))._unsafeUnwrap())));
  writeFileSync(path.join(dir, "scorecard.json"), JSON.stringify(raw ? raw(card) : card));
}

/** The last episode of an input, edited. */
function lastEpisode(i: ScorecardInput, edit: (e: ScorecardInput["episodes"][number]) => ScorecardInput["episodes"][number]) {
  const eps = [...i.episodes];
  eps[eps.length - 1] = edit(eps[eps.length - 1]!);
  return { ...i, episodes: eps, actions: eps.reduce((n, e) => n + e.actions, 0) };
}

describe("score checks each scorecard against its log", () => {
  const root = tempRoot();
  const forgeries = path.join(root, "forgeries");
  const f = (name: string) => path.join(forgeries, name);
  let base = "";

  beforeAll(async () => {
    const played = await playGame({ game: "glide", maxActions: 30, episodes: 2 }, path.join(root, "played"));
    base = played.session.paths.dir;
    mkdirSync(forgeries);
    const lastSlot = (e: { levelActions: readonly number[] }) => e.levelActions.findLastIndex((n) => n > 0);
    forged(base, f("seven-of-seven"), (i) => lastEpisode(i, (e) => ({ ...e, levels: i.winLevels, state: "WIN" })));
    forged(base, f("more-actions"), (i) =>
      lastEpisode(i, (e) => ({
        ...e,
        actions: e.actions + 1,
        levelActions: e.levelActions.map((n, l) => (l === lastSlot(e) ? n + 1 : n)),
      })),
    );
    forged(base, f("other-level"), (i) =>
      lastEpisode(i, (e) => {
        // Every action of the episode moved to a level other than the one its log's last action was on.
        const to = lastSlot(e) === 0 ? 1 : 0;
        return { ...e, levelActions: e.levelActions.map((_, l) => (l === to ? e.actions : 0)) };
      }),
    );
    forged(
      base,
      f("at-115"),
      (i) => lastEpisode(i, (e) => ({ ...e, levels: i.winLevels, state: "WIN" })),
      (c) => ({ ...c, score: 115 }),
    );
    cpSync(base, f("no-log"), { recursive: true });
    rmSync(path.join(f("no-log"), "logs.txt"));
  }, 60_000);

  test("a played run (two episodes): its scorecard matches its log, and --json says so per run", async () => {
    const j = await scoreJson(base);
    expect(j.runs.map((r) => r.evidence)).toEqual(["matches"]);
    expect(j.skipped).toEqual([]);
  });

  const cases: [string, string, RegExp][] = [
    [
      "a self-consistent 7/7 beside a log that cleared fewer",
      "seven-of-seven",
      /^mismatch: the log's last header says Score: \d+, .*Score: 7 /,
    ],
    [
      "one action more than the log holds",
      "more-actions",
      /^mismatch: the log's last section is action \d+, the scorecard counts \d+ action/,
    ],
    [
      "the actions on levels the log's last action was not on",
      "other-level",
      /^mismatch: the log's last action was taken on level \d+/,
    ],
    ["7/7 at 115, the top figure edited past what its episodes give", "at-115", /^mismatch: the scorecard says score 115/],
  ];
  for (const [what, name, says] of cases) {
    test(`refused, named in the skipped list and in --json: ${what}`, async () => {
      const j = await scoreJson(f(name));
      expect(j.runs).toEqual([]);
      expect(j.skipped).toHaveLength(1);
      expect(j.skipped[0]!.evidence).toMatch(says);
      expect(j.skipped[0]!.reason).toContain("the scorecard does not match its log");
      expect(j.skipped[0]!.reason).toContain("--trust-scorecards");
      const md = await runCaptured(scoreCommand, [f(name)]);
      expect(md.code).toBe(1);
      expect(md.out).toContain("No run could be scored.");
      expect(md.out).toContain(`${f(name)}: the scorecard does not match its log`);
    });
  }

  test("a scorecard with no log is refused as no-log", async () => {
    const j = await scoreJson(f("no-log"));
    expect(j.runs).toEqual([]);
    expect(j.skipped[0]!.evidence).toBe("no-log");
    expect(j.skipped[0]!.reason).toContain("no logs.txt");
  });

  test("--trust-scorecards scores them all, each marked with its evidence (--json, --csv, the Markdown)", async () => {
    const j = await scoreJson(forgeries, "--trust-scorecards");
    expect(j.skipped).toEqual([]);
    const by = Object.fromEntries(j.runs.map((r) => [path.basename(r.dir), r.evidence]));
    expect(by["no-log"]).toBe("no-log");
    for (const name of ["seven-of-seven", "more-actions", "other-level", "at-115"]) expect(by[name]).toMatch(/^mismatch: /);
    const md = await runCaptured(scoreCommand, [forgeries, base, "--trust-scorecards"]);
    expect(md.code).toBe(0);
    expect(md.out).toContain("Unverified: 5 scored runs");
    expect(md.out).toContain(`- ${f("no-log")}: no-log`);
    expect(md.out).not.toContain(`- ${base}:`);
    const csv = (await runCaptured(scoreCommand, [forgeries, base, "--trust-scorecards", "--csv"])).out.trim().split("\r\n");
    const col = csv[0]!.split(",").indexOf("evidence");
    expect(col).toBeGreaterThan(-1);
    const cells = csv.slice(1).map((l) => l.split(",")[col]);
    expect(cells.filter((c) => c === "matches")).toHaveLength(1);
    expect(cells.filter((c) => c === "no-log")).toHaveLength(1);
  });

  test("report: refused runs are listed with why; with --trust-scorecards each is badged unverified, its arm too", async () => {
    const out = path.join(root, "report.html");
    const r = await runCaptured(reportCommand, [forgeries, base, "--out", out]);
    expect(r.code).toBe(0);
    const html = readFileSync(out, "utf8");
    expect(html).not.toContain('class="unverified"');
    expect(html).toContain(`${f("seven-of-seven")}</code>: the scorecard does not match its log`);
    const trusted = path.join(root, "trusted.html");
    expect((await runCaptured(reportCommand, [forgeries, base, "--out", trusted, "--trust-scorecards"])).code).toBe(0);
    const t = readFileSync(trusted, "utf8");
    const runsTable = t.slice(t.indexOf('<table id="runs">'), t.indexOf("</table>", t.indexOf('<table id="runs">')));
    expect(runsTable.split('class="unverified"').length - 1).toBe(5);
    const armsTable = t.slice(t.indexOf('<table id="arms">'), t.indexOf("</table>", t.indexOf('<table id="arms">')));
    expect(armsTable).toContain('class="unverified"');
    expect(t).toContain('<h2 id="unverified">Unverified runs</h2>');
    expect(t).toContain(`<li><code>${f("no-log")}</code>: no-log</li>`);
  });
});

/** A hand-made run directory: a NetHack (progression) or grid scorecard and a log that backs it. */
function handMade(root: string, name: string, nethack: boolean, levels: number, actions: number): string {
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  const config = newConfig(nethack ? { game: "nethack", env: "nethack", seed: 0 } : { game: "glide", seed: 0 })._unsafeUnwrap();
  const card = buildScorecard({
    run: `t/${name}`,
    config,
    end: { reason: "max-actions", detail: "" },
    baselines: nethack ? [] : [10, 10],
    winLevels: nethack ? 0 : 2,
    episodes: [
      { episode: 1, levels, state: "NOT_FINISHED", actions, levelActions: nethack ? [] : [actions - 1, levels >= 1 ? 1 : 0] },
    ],
    actions,
    agentCalls: 1,
    tokens: { input: 0, cached: 0, output: 0 },
    tamperEvents: 0,
    wallMs: 5,
  });
  writeFileSync(path.join(dir, "scorecard.json"), JSON.stringify(card));
  writeBackingLog(dir, card);
  return dir;
}

describe("NetHack runs: the header's Score is the progression × 100, asked of the metric", () => {
  const root = tempRoot();

  test("a card that matches its log; one forged to a higher progression; one at no whole hundredth of a percent", async () => {
    const good = handMade(root, "good", true, 154, 300);
    expect((await scoreJson(good)).runs.map((r) => [r.evidence, r.rhae])).toEqual([["matches", 1.54]]);
    const higher = handMade(root, "higher", true, 154, 300);
    const card = JSON.parse(readFileSync(path.join(higher, "scorecard.json"), "utf8"));
    const rebuilt = buildScorecard({ ...inputOf(card), episodes: [{ ...inputOf(card).episodes[0]!, levels: 900 }] });
    writeFileSync(path.join(higher, "scorecard.json"), JSON.stringify(rebuilt));
    const j = await scoreJson(higher);
    expect(j.runs).toEqual([]);
    expect(j.skipped[0]!.evidence).toBe(
      "mismatch: the log's last header says Score: 154, the scorecard's last episode stands for Score: 900 (a progression of 9 %)",
    );
    const odd = handMade(root, "odd", true, 154, 300);
    const c = JSON.parse(readFileSync(path.join(odd, "scorecard.json"), "utf8"));
    c.episodes[0].score = c.episodes[0].best_so_far = c.score = 1.545;
    writeFileSync(path.join(odd, "scorecard.json"), JSON.stringify(c));
    expect((await scoreJson(odd)).skipped[0]!.evidence).toMatch(/^mismatch: episode 1 says score 1.545; .* give 1.55$/);
  });
});

describe("the log is never read whole: a tail read, the index for a long last section", () => {
  const root = tempRoot();
  const board = { width: 2, height: 2, cells: new Uint8Array(4) };

  /** A grid run of 5 actions whose last section carries a plan of `planBytes` (a long last section). */
  function longLast(name: string, planBytes: number, withIndex: boolean, indexStart?: (real: number) => number): string {
    const dir = handMade(root, name, false, 1, 5);
    const sections: LogSection[] = [
      { header: { action: 0, level: 1, attempt: 1, score: 0, kind: "initial" }, frames: [], board },
      { header: { action: 5, level: 2, attempt: 1, score: 1, kind: "action" }, plan: "x".repeat(planBytes), frames: [], board },
    ];
    const text = writeLog(sections, "hex");
    writeFileSync(path.join(dir, "logs.txt"), text);
    if (withIndex) {
      const index = RunIndex.open(path.join(dir, "index.sqlite"))._unsafeUnwrap();
      const bytes = new TextEncoder().encode(text);
      const firstEnd = writeSection(sections[0]!, "hex").length;
      const ranges = [
        [0, firstEnd],
        [firstEnd + 1, bytes.length],
      ] as const;
      ranges.forEach(([start, end], i) => {
        const s = sections[i]!;
        index
          .addSection({
            start: i === 1 && indexStart ? indexStart(start) : start,
            end,
            xxh3: xxh3_128(bytes, start, end),
            kind: s.header.kind,
            action: s.header.action,
            level: s.header.level,
            attempt: s.header.attempt,
            score: s.header.score,
            frames: 0,
          })
          ._unsafeUnwrap();
      });
      index.close()._unsafeUnwrap();
    }
    return dir;
  }

  test("a last section longer than the tail read is found where the index says it starts", async () => {
    expect((await scoreJson(longLast("indexed", 200_000, true))).runs.map((r) => r.evidence)).toEqual(["matches"]);
    // The index is what found it: an index that points a byte off finds no header there.
    const off = await scoreJson(longLast("index-off", 200_000, true, (s) => s + 1));
    expect(off.skipped[0]!.evidence).toMatch(/^mismatch: logs.txt: no section header where the run's index says/);
  });

  test("without an index, one longer tail read (4 MiB); a last section longer still is named, not read whole", async () => {
    expect((await scoreJson(longLast("no-index", 200_000, false))).runs.map((r) => r.evidence)).toEqual(["matches"]);
    const huge = await scoreJson(longLast("huge", 5 << 20, false));
    expect(huge.skipped[0]!.evidence).toBe(
      "mismatch: logs.txt: no section header in the last 4 MiB of the log, and no index to find it",
    );
  });

  test("a 6 GiB log (sparse, the sections at its end): checked from its tail, where whole-log readers refuse it", async () => {
    const dir = handMade(root, "sparse", false, 1, 5);
    const log = readFileSync(path.join(dir, "logs.txt"));
    truncateSync(path.join(dir, "logs.txt"), 6 * 2 ** 30);
    appendFileSync(path.join(dir, "logs.txt"), log);
    expect((await scoreJson(dir)).runs.map((r) => r.evidence)).toEqual(["matches"]);
    rmSync(dir, { recursive: true });
  });

  test("logs.txt as a FIFO or a symlink to /dev/zero: refused by name, never a hang or a read of it", async () => {
    const fifo = handMade(root, "fifo", false, 1, 5);
    rmSync(path.join(fifo, "logs.txt"));
    execFileSync("mkfifo", [path.join(fifo, "logs.txt")]);
    expect((await scoreJson(fifo)).skipped[0]!.evidence).toBe(
      "mismatch: logs.txt: logs.txt is a FIFO (named pipe), not a regular file",
    );
    const zero = handMade(root, "zero", false, 1, 5);
    rmSync(path.join(zero, "logs.txt"));
    symlinkSync("/dev/zero", path.join(zero, "logs.txt"));
    expect((await scoreJson(zero)).skipped[0]!.evidence).toBe(
      "mismatch: logs.txt: logs.txt is a symlink; prolong follows no link in a run directory",
    );
  });
});
