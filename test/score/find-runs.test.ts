// Bad input for `prolong score`: half-written, interrupted, edited and foreign run directories are each named
// with the reason and skipped; the rest are scored.
import { describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { findRuns } from "../../src/score/find-runs.ts";
import { scoreCommand } from "../../src/cli/score.ts";
import { playGame, tempRoot } from "../run/helpers.ts";
import { runCaptured } from "../support/captured.ts";

const shared = path.resolve(import.meta.dir, "../../..", "shared");

describe("findRuns on a directory of good and bad runs", async () => {
  const root = tempRoot();
  const played = await playGame({ game: "glide", maxActions: 40 }, root);
  const good = played.session.paths.dir;
  const parent = path.dirname(good);
  const copy = (name: string) => {
    const dir = path.join(parent, name);
    cpSync(good, dir, { recursive: true });
    return dir;
  };
  const card = JSON.parse(readFileSync(path.join(good, "scorecard.json"), "utf8"));

  const good2 = copy("glide-r2");
  const halfWritten = copy("half-written");
  Bun.spawnSync(["rm", path.join(halfWritten, "scorecard.json")]);
  const cut = copy("cut-scorecard");
  writeFileSync(path.join(cut, "scorecard.json"), readFileSync(path.join(good, "scorecard.json"), "utf8").slice(0, 300));
  const edited = copy("edited");
  writeFileSync(path.join(edited, "scorecard.json"), JSON.stringify({ ...card, score: "high" }));
  const interrupted = copy("interrupted");
  writeFileSync(path.join(interrupted, "scorecard.json"), JSON.stringify({ ...card, end_reason: "interrupted" }));
  const gameFailed = copy("game-failed");
  writeFileSync(
    path.join(gameFailed, "scorecard.json"),
    JSON.stringify({ ...card, end_reason: "game-failed", end_detail: "the bridge died" }),
  );
  const foreign = path.join(parent, "arc-card");
  mkdirSync(foreign);
  writeFileSync(path.join(foreign, "scorecard.json"), JSON.stringify({ card_id: "x", score: 100, environments: [] }));
  const empty = path.join(root, "empty");
  mkdirSync(empty);

  const found = findRuns([root, empty, path.join(root, "missing")]);
  const reason = (dir: string) => found.skipped.find((s) => s.dir === dir)?.reason ?? "(not skipped)";

  test("the two good runs are scored", () => {
    expect(found.runs.map((r) => r.dir)).toEqual([good, good2].sort());
  });
  test("half-written: no scorecard.json, with the resume command", () => {
    expect(reason(halfWritten)).toContain("no scorecard.json: the run has not finished");
    expect(reason(halfWritten)).toContain(`prolong resume ${halfWritten}`);
  });
  test("a scorecard cut short: not JSON", () => expect(reason(cut)).toContain("scorecard.json: not JSON"));
  test("an edited field is named", () => expect(reason(edited)).toContain("field score"));
  test("interrupted: named, resumable", () =>
    expect(reason(interrupted)).toMatch(/^interrupted after 40 action\(s\); `prolong resume /));
  test("a failed game (resumable): named with its detail", () =>
    expect(reason(gameFailed)).toMatch(/^the game failed \(the bridge died\) after 40 action\(s\); `prolong resume /));
  test("foreign scorecard: not a prolong scorecard", () => expect(reason(foreign)).toContain("not a prolong scorecard"));
  test("a given directory with no run below it and a missing path are named", () => {
    expect(reason(empty)).toContain("no run directories here");
    expect(reason(path.join(root, "missing"))).toBe("no such file or directory");
  });

  test("the command scores the rest, lists every skip, and exits 0; none scoreable → exit 1", async () => {
    const r = await runCaptured(scoreCommand, [root, empty]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("| glide | 2 |");
    expect(r.out).toContain("Skipped 7 directories:");
    for (const d of [halfWritten, cut, edited, interrupted, gameFailed, foreign, empty]) expect(r.out).toContain(`- ${d}: `);
    const none = await runCaptured(scoreCommand, [halfWritten, foreign]);
    expect(none.code).toBe(1);
    expect(none.out).toContain("No run could be scored.");
  });

  const ft09 = path.join(shared, "fixtures", "prolong-release", "ft09");
  test.skipIf(!existsSync(ft09))(
    `the published harness's run directory is foreign (skipped, named)${existsSync(ft09) ? "" : ` (skipped: ${ft09} is absent; the shared fixtures are not in this checkout)`}`,
    () => {
      const r = findRuns([ft09]);
      expect(r.runs).toEqual([]);
      expect(r.skipped).toEqual([{ dir: ft09, reason: expect.stringContaining("scorecard.json: not a prolong scorecard") }]);
    },
  );
});
