import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseLog, writeLog } from "../../src/log/format.ts";
import { loadLog } from "../../src/log/load.ts";
import { replayHtml } from "../../src/view/html.ts";
import { buildReplay, type Replay } from "../../src/view/replay.ts";
import { openViewSource } from "../../src/view/source.ts";
import { generateLog } from "../../src/bench/gen-log.ts";
import { FIXTURE_GAMES, fixturesDir } from "../inspect/helpers.ts";

function runDir(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "prolong-view-test-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

function replayOf(target: string): Replay {
  const source = openViewSource(target)._unsafeUnwrap();
  return buildReplay(loadLog(source.logPath)._unsafeUnwrap(), source);
}

function boardsOf(r: Replay, step: number): Uint8Array[] {
  const s = r.steps[step]!;
  return Array.from({ length: s.boards }, (_, k) => {
    const b = s.board + k;
    const o = r.boards.offset[b]!;
    return r.cells.subarray(o, o + r.boards.width[b]! * r.boards.height[b]!);
  });
}

const event = (kind: string, fields: object) => JSON.stringify({ time: "2026-12-01T00:00:00.000Z", run: "t/g", kind, ...fields });

describe("buildReplay", () => {
  test("every section's frames and settled board, plan and tool call, as parseLog reads them", () => {
    const text = generateLog({ sections: 120, seed: 7 });
    const r = replayOf(runDir({ "logs.txt": text }));
    const parsed = parseLog(text).sections;
    expect(r.steps.length).toBe(parsed.length);
    parsed.forEach((s, i) => {
      const step = r.steps[i]!;
      expect([step.action, step.level, step.attempt, step.score]).toEqual([
        s.header.action,
        s.header.level,
        s.header.attempt,
        s.header.score,
      ]);
      expect(step.plan >= 0 ? r.plans[step.plan] : undefined).toBe(s.plan);
      expect(boardsOf(r, i)).toEqual([...s.frames, s.board].map((g) => g.cells));
      expect(step.click).toEqual(s.toolCall?.id === 6 ? [s.toolCall.x, s.toolCall.y] : null);
    });
    expect(r.steps.some((s) => s.boards > 2)).toBe(true);
    // Plans repeat across a batch: each text is stored once.
    expect(new Set(r.plans).size).toBe(r.plans.length);
  });

  test("tamper events are placed after the last action the events reported; game and score from the scorecard", () => {
    const text = generateLog({ sections: 20, seed: 2 });
    const events =
      [
        event("run-start", { game: "g", agent: "explorer", logWindow: "full", maxActions: 20, seed: 0 }),
        event("agent-call", { turn: 1, action: 0 }),
        event("action", { action: 1, call: "ACTION1({})", level: 1, attempt: 1, score: 0, state: "NOT_FINISHED", frames: 1 }),
        event("action", { action: 7, call: "ACTION1({})", level: 1, attempt: 1, score: 0, state: "NOT_FINISHED", frames: 1 }),
        event("tamper", { tamper: "appended", detail: "the agent wrote 32 bytes", expectedBytes: 10, foundBytes: 42, turn: 2 }),
      ].join("\n") + "\n";
    const scorecard = JSON.stringify({ game_id: "ft01", levels_completed: 2, win_levels: 6, score: 12.5 });
    const r = replayOf(runDir({ "logs.txt": text, "events.jsonl": events, "scorecard.json": scorecard }));
    expect(r.tampers).toEqual([{ step: 7, action: 7, kind: "appended", detail: "the agent wrote 32 bytes" }]);
    expect(r.title).toBe("ft01");
    expect(r.scorecard).toEqual({ levelsCompleted: 2, winLevels: 6, score: 12.5, metric: "rhae" });
  });

  test("bad side files become warnings; the log still shows", () => {
    const r = replayOf(
      runDir({ "logs.txt": generateLog({ sections: 5, seed: 2 }), "events.jsonl": "{not json\n", "scorecard.json": "[" }),
    );
    expect(r.steps.length).toBe(5);
    expect(r.warnings.join("\n")).toContain("events.jsonl: line 1 is not JSON");
    expect(r.warnings.join("\n")).toContain("scorecard.json: not JSON");
  });

  test("a truncated log: every whole section, the cut one named", () => {
    const text = generateLog({ sections: 12, seed: 6 });
    const r = replayOf(runDir({ "logs.txt": text.slice(0, text.length - 2000) }));
    expect(r.steps.length).toBe(12);
    expect(r.steps.slice(0, 11).every((s) => s.error === null && s.boards >= 1)).toBe(true);
    expect(r.steps[11]!.error).not.toBeNull();
    expect(r.warnings.join("\n")).toContain("the log ends inside section #11");
  });

  test("a hostile log (raw separators inside plans): unreadable halves are left out or kept with their board, never a throw", () => {
    const text = generateLog({ sections: 40, seed: 17, adversarial: true });
    const r = replayOf(runDir({ "logs.txt": text }));
    expect(r.steps.length).toBeGreaterThanOrEqual(parseLog(text).sections.length);
    expect(r.steps.every((s) => s.boards <= 66)).toBe(true);
  });

  const fixtures = fixturesDir();
  test.skipIf(fixtures === null)("the published logs: one step per section, title from the scorecard", () => {
    for (const g of FIXTURE_GAMES) {
      const r = replayOf(path.join(fixtures!, g));
      expect(r.steps.length).toBe(parseLog(readFileSync(path.join(fixtures!, g, "logs.txt"), "utf8")).sections.length);
      expect(r.steps.every((s) => s.error === null)).toBe(true);
      expect(r.title.length).toBeGreaterThan(0);
    }
  });
  if (fixtures === null) console.log("skipped: published logs not found at ../shared/fixtures/prolong-release");
});

describe("replayHtml", () => {
  test("self-contained: no external resource, and agent text cannot close the data script", () => {
    const sections = parseLog(generateLog({ sections: 4, seed: 1 })).sections;
    sections[1]!.plan = "try </script><script>alert(1)</script> and <b>bold</b>";
    const r = replayOf(runDir({ "logs.txt": writeLog(sections, "ascii") }));
    const html = replayHtml(r);
    expect(html).not.toMatch(/\b(src|href)\s*=\s*["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/@import|url\(/);
    expect(html.match(/<\/script>/g)?.length).toBe(3);
    const json = /<script type="application\/json" id="replay-data">([^]*?)<\/script>/.exec(html)?.[1];
    expect(JSON.parse(json!).plans).toContain(sections[1]!.plan);
  });
});
