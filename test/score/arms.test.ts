// Arms: fingerprints of what changes the agent's view or actions, derived names, the refusal to pool different
// setups under one name (settings or game versions), flags that do not apply, failed and unfinished runs,
// best@k as a curve, comparisons at equal k, and per-run rows read back from CSV.
import { describe, expect, test } from "bun:test";
import { armFingerprint, armOf, armSettingsOf, derivedArmName } from "../../src/config/arm.ts";
import { agentName, newConfig, type RunConfigInput } from "../../src/config/run-config.ts";
import { conflictText, groupArms, type ScoredRun } from "../../src/score/arms.ts";
import { armReport, compareArms } from "../../src/score/report.ts";
import { runRows, runRowsCsv } from "../../src/score/run-rows.ts";
import { buildScorecard } from "../../src/score/scorecard.ts";
import { expectedBestOfK } from "../../src/score/stats.ts";

const config = (fields: Partial<RunConfigInput> = {}) => newConfig({ game: "a", ...fields })._unsafeUnwrap();

// One-level games with baseline 10: clearing in n actions scores min(100, 100·(10/n)²); not clearing scores 0.
function run(
  game: string,
  actions: number,
  cleared: boolean,
  fields: Partial<RunConfigInput> = {},
  extra: { reason?: "agent-failed"; version?: string; dir?: string } = {},
): ScoredRun {
  const card = buildScorecard({
    run: `t/${game}`,
    config: config({ game, ...fields }),
    ...(extra.version ? { gameVersion: extra.version } : {}),
    end: { reason: extra.reason ?? "max-actions", detail: extra.reason ? "the agent crashed 3 times" : "" },
    baselines: [10],
    winLevels: 1,
    episodes: [
      { episode: 1, levels: cleared ? 1 : 0, state: cleared ? "WIN" : "NOT_FINISHED", actions, levelActions: [actions] },
    ],
    actions,
    agentCalls: 2,
    tokens: { input: 1000, cached: 200, output: 10 },
    tamperEvents: 0,
    wallMs: 5,
  });
  return { dir: extra.dir ?? `/runs/${game}-${actions}-${fields.seed ?? 0}`, card };
}

describe("fingerprints and names", () => {
  test("game, seed, timeouts and retries are not part of the arm; the log window and the command are", () => {
    const base = armOf(config());
    expect(armOf(config({ game: "b", seed: 7, agentTimeoutSec: 5, agentRetries: 0 }))).toEqual(base);
    expect(armOf(config({ logWindow: 25 })).fingerprint).not.toBe(base.fingerprint);
    const a = armOf(config({ agent: "command", cmd: "python3 a.py" }));
    const b = armOf(config({ agent: "command", cmd: "python3 b.py" }));
    expect(a.fingerprint).not.toBe(b.fingerprint);
    expect(a.fingerprint).toMatch(/^[0-9a-f]{12}$/);
  });

  test("the fingerprint is the settings' hash, independent of key order", () => {
    const s = armSettingsOf(config({ workspace: "stateless" }));
    const reversed = Object.fromEntries(Object.entries(s).reverse());
    expect(armFingerprint(reversed)).toBe(armFingerprint(s));
    expect(s).toMatchObject({
      agent: "explorer",
      workspace: "stateless",
      logWindow: "full",
      maxActions: 500,
      actionCap: 20,
      episodes: 1,
      env: "local",
    });
    expect(Object.keys(s)).not.toContain("seed");
  });

  test("derived names: the agent, then every setting that differs from its default as its flag", () => {
    expect(derivedArmName(config())).toBe("explorer");
    expect(derivedArmName(config({ logWindow: 25, workspace: "stateless" }))).toBe(
      "explorer --log-window last:25 --workspace stateless",
    );
    expect(derivedArmName(config({ agent: "command", cmd: "python3 my agent.py" }))).toBe("command --cmd 'python3 my agent.py'");
    expect(derivedArmName(config({ agent: "claude", model: "m-1", effort: "high", maxActions: 1000 }))).toBe(
      "claude --effort high --max-actions 1000 --model m-1",
    );
    expect(armOf(config({ arm: "full-log" })).name).toBe("full-log");
  });

  test("NetHack's built-in player is named nethack-agent, its settings (and fingerprint) still say --agent explorer", () => {
    const nethack = config({ env: "nethack" });
    // NetHack's own defaults (20,000 actions, batches of 30) are not deviations; other values are.
    expect(derivedArmName(nethack)).toBe("nethack-agent --env nethack");
    expect(derivedArmName(config({ env: "nethack", maxActions: 40 }))).toBe("nethack-agent --env nethack --max-actions 40");
    expect(armSettingsOf(nethack).agent).toBe("explorer");
    expect(agentName(nethack)).toBe("nethack-agent");
    expect(agentName(config())).toBe("explorer");
    expect(agentName(config({ env: "nethack", agent: "claude" }))).toBe("claude");
  });

  test("the scorecard records the arm", () => {
    const r = run("a", 10, true, { arm: "mine", logWindow: 5 });
    expect(r.card.arm).toEqual({ name: "mine", fingerprint: armOf(config({ logWindow: 5 })).fingerprint });
  });
});

describe("flags that do not apply to the agent", () => {
  for (const [fields, flag] of [
    [{ model: "gpt-5" }, "--model"],
    [{ effort: "high" }, "--effort"],
    [{ cmd: "python3 a.py" }, "--cmd"],
    [{ agent: "claude", cmd: "x" }, "--cmd"],
    [{ arcGames: "/games" }, "--arc-games"],
  ] as [Partial<RunConfigInput>, string][]) {
    test(`${flag} with ${fields.agent ?? "explorer"} is an error naming it`, () => {
      const c = newConfig({ game: "a", ...fields });
      expect(c.isErr()).toBe(true);
      const e = c._unsafeUnwrapErr();
      expect(e.code).toBe("flag-not-applicable");
      expect(e.message).toContain(flag);
      expect(e.fix).toContain(`drop ${flag}`);
    });
  }
  test("the same flags where they apply are accepted", () => {
    expect(newConfig({ game: "a", agent: "claude", model: "m", effort: "low" }).isOk()).toBe(true);
    expect(newConfig({ game: "a", agent: "command", cmd: "true" }).isOk()).toBe(true);
  });
  test("--arm takes one printable line", () => {
    expect(newConfig({ game: "a", arm: "bad\nname" }).isErr()).toBe(true);
    expect(newConfig({ game: "a", arm: "   " }).isErr()).toBe(true);
    expect(newConfig({ game: "a", arm: "window 25, seed sweep" }).isOk()).toBe(true);
  });
});

describe("pooling", () => {
  test("two --cmd under one --arm name are refused, the differing setting and runs named", () => {
    const a = run("a", 10, true, { agent: "command", cmd: "python3 a.py", arm: "mine" }, { dir: "/r/1" });
    const b = run("a", 20, true, { agent: "command", cmd: "python3 b.py", arm: "mine" }, { dir: "/r/2" });
    const g = groupArms([a, b]);
    expect(g.isErr()).toBe(true);
    const [c] = g._unsafeUnwrapErr();
    expect(c!.arm).toBe("mine");
    expect(c!.differences).toEqual(["--cmd: 'python3 a.py' vs 'python3 b.py'"]);
    expect(c!.sides).toEqual([["/r/1"], ["/r/2"]]);
    expect(conflictText(c!)).toContain("refusing to pool");
  });

  test("without --arm, two commands are two arms (the derived name holds the command)", () => {
    const g = groupArms([
      run("a", 10, true, { agent: "command", cmd: "x" }),
      run("a", 10, true, { agent: "command", cmd: "y" }),
    ])._unsafeUnwrap();
    expect(g.map((x) => x.name)).toEqual(["command --cmd x", "command --cmd y"]);
  });

  test("one game in two versions under one arm is refused; two games are one arm", () => {
    const g = groupArms([
      run("a", 10, true, {}, { version: "v1", dir: "/r/1" }),
      run("a", 10, true, {}, { version: "v2", dir: "/r/2" }),
    ]);
    expect(g._unsafeUnwrapErr()[0]!.differences).toEqual(["game a: version v1 vs v2"]);
    expect(
      groupArms([run("a", 10, true, {}, { version: "v1" }), run("b", 10, true, {}, { version: "v2" })])._unsafeUnwrap(),
    ).toHaveLength(1);
  });

  test("an edited fingerprint is refused rather than pooled", () => {
    const a = run("a", 10, true, {}, { dir: "/r/1" });
    const b = run("a", 10, true, {}, { dir: "/r/2" });
    const edited = { dir: b.dir, card: { ...b.card, arm: { name: "explorer", fingerprint: "000000000000" } } };
    expect(groupArms([a, edited])._unsafeUnwrapErr()[0]!.differences[0]).toContain("fingerprint");
  });
});

describe("failed and unfinished runs", () => {
  const runs = [
    run("a", 10, true, {}, { dir: "/r/1" }),
    run("a", 50, false, { seed: 1 }, { reason: "agent-failed", dir: "/r/2" }),
  ];
  const unfinished = [
    { dir: "/r/3", reason: "no scorecard.json", unfinished: config({ seed: 2 }) },
    { dir: "/r/4", reason: "no scorecard.json", unfinished: config({ logWindow: 0 }) },
  ];
  const arms = groupArms(runs, unfinished)._unsafeUnwrap();
  const r = armReport(arms[0]!, {});

  test("failed runs are counted at their score; unfinished ones are counted apart and not scored", () => {
    expect(r.games[0]).toMatchObject({ runs: 2, failed: 1, unfinished: 1, passAt1: 50 });
    expect(r.overall).toMatchObject({ runs: 2, failed: 1, unfinished: 1 });
  });

  test("an unfinished run of another arm is not counted in this one", () => {
    expect(arms).toHaveLength(1);
    expect(arms[0]!.unfinished.map((u) => u.dir)).toEqual(["/r/3"]);
  });

  test("per-run rows: every run, scored or not, with its settings and results", () => {
    const rows = runRows(arms);
    expect(rows.map((x) => [x.dir, x.status, x.endReason, x.seed, x.rhae, x.levels])).toEqual([
      ["/r/1", "scored", "max-actions", 0, 100, 1],
      ["/r/2", "scored", "agent-failed", 1, 0, 0],
      ["/r/3", "unfinished", "unfinished", 2, null, null],
    ]);
    expect(rows[0]).toMatchObject({
      game: "a",
      arm: "explorer",
      actions: 10,
      levelActions: [10],
      agentCalls: 2,
      tokens: { input: 1000, cached: 200, output: 10 },
      billedTokens: 800 + 60 + 20,
      wallMs: 5,
    });
  });
});

/** An RFC 4180 reader written apart from the writer: quoted fields, doubled quotes, CRLF line ends. */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") row.push(field), (field = "");
    else if (ch === "\r" && text[i + 1] === "\n") {
      row.push(field), rows.push(row), (row = []), (field = ""), i++;
    } else field += ch;
  }
  expect(field).toBe("");
  return rows;
}

describe("CSV", () => {
  const tricky = run("a", 20, true, { arm: 'say "hi", then\nleave'.replace("\n", " ") }, { dir: "/r/with,comma" });
  const arms = groupArms([tricky, run("b", 10, true, { arm: 'say "hi", then leave' })])._unsafeUnwrap();
  const csv = runRowsCsv([
    { at: null, rows: runRows(arms) },
    { at: 250, rows: runRows(arms) },
  ]);

  test("read back by a CSV parser: a header, one row per run per budget, every field as written", () => {
    const [head, ...rows] = readCsv(csv);
    expect(head!.slice(0, 4)).toEqual(["at_actions", "dir", "run", "game"]);
    expect(rows).toHaveLength(4);
    const col = (name: string) => head!.indexOf(name);
    expect(rows[0]![col("dir")]).toBe("/r/with,comma");
    expect(rows[0]![col("arm")]).toBe('say "hi", then leave');
    expect(rows[0]![col("rhae")]).toBe("25");
    expect(rows[0]![col("level_actions")]).toBe("20");
    expect(rows[0]![col("at_actions")]).toBe("");
    expect(rows[2]![col("at_actions")]).toBe("250");
    expect(rows.every((r) => r.length === head!.length)).toBe(true);
  });

  test.skipIf(Bun.which("python3") === null)(
    `python's csv module reads the same rows${Bun.which("python3") === null ? " (skipped: no python3)" : ""}`,
    () => {
      const p = Bun.spawnSync(["python3", "-c", "import csv,sys,json; print(json.dumps(list(csv.reader(sys.stdin))))"], {
        stdin: Buffer.from(csv),
      });
      expect(JSON.parse(p.stdout.toString())).toEqual(readCsv(csv));
    },
  );
});

describe("best@k as a curve, compared at equal k", () => {
  test("the expected best of k runs, by hand", () => {
    // scores 0, 25, 100: k=1 mean 41.67; k=2 subsets' maxima 25, 100, 100 → 75; k=3 max 100.
    expect(expectedBestOfK([100, 0, 25], 1)).toBeCloseTo(125 / 3, 10);
    expect(expectedBestOfK([100, 0, 25], 2)).toBeCloseTo(75, 10);
    expect(expectedBestOfK([100, 0, 25], 3)).toBe(100);
    expect(expectedBestOfK([1, 2], 3)).toBeNaN();
  });

  test("over games, k runs to the fewest runs of any game", () => {
    const arm = groupArms([
      run("a", 10, true),
      run("a", 20, true, { seed: 1 }),
      run("a", 50, false, { seed: 2 }),
      run("b", 10, true),
      run("b", 50, false, { seed: 1 }),
    ])._unsafeUnwrap()[0]!;
    const r = armReport(arm, {});
    expect(r.games[0]!.bestAtKCurve.map((x) => Math.round(x * 100) / 100)).toEqual([41.67, 75, 100]);
    expect(r.games[1]!.bestAtKCurve).toEqual([50, 100]);
    expect(r.overall.bestAtKCurve.map((x) => x.estimate)).toEqual([(125 / 3 + 50) / 2, 87.5]);
  });

  test("compare: an arm of 3 runs against an arm of 1 is compared at k = 1, not best@3 against best@1", () => {
    const a = groupArms([
      run("a", 10, true),
      run("a", 20, true, { seed: 1 }),
      run("a", 50, false, { seed: 2 }),
    ])._unsafeUnwrap()[0]!;
    const b = groupArms([run("a", 20, true, { logWindow: 0 })])._unsafeUnwrap()[0]!;
    const c = compareArms(a, b, {});
    expect(c.k).toBe(1);
    expect(c.bestAtEqualK.a).toBeCloseTo(125 / 3, 10);
    expect(c.bestAtEqualK.b).toBe(25);
    expect(c.diff.bestAtK.estimate).toBeCloseTo(25 - 125 / 3, 10);
  });
});
