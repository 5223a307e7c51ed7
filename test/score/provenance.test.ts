// Every run names what produced it, and score refuses to pool runs of two builds under one arm (naming the
// difference) unless told --allow-mixed-builds; runs older than the record still score, as an "unknown build".
import { describe, expect, test } from "bun:test";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildId } from "../../src/build-id.ts";
import { scoreCommand } from "../../src/cli/score.ts";
import { newConfig } from "../../src/config/run-config.ts";
import { runProvenance } from "../../src/run/provenance.ts";
import { readScorecard } from "../../src/score/scorecard.ts";
import { NO_NETHACK } from "../game/nethack/helpers.ts";
import { playGame, tempRoot } from "../run/helpers.ts";
import { runCaptured } from "../support/captured.ts";

const score = (args: string[]) => runCaptured(scoreCommand, args);

/** Rewrites a run's scorecard.json through `edit`. */
function editCard(dir: string, edit: (card: Record<string, unknown>) => void): void {
  const path = join(dir, "scorecard.json");
  const card = JSON.parse(readFileSync(path, "utf8"));
  edit(card);
  writeFileSync(path, JSON.stringify(card));
}

describe("provenance", async () => {
  const root = tempRoot();
  const played = await playGame({ game: "glide", seed: 0, maxActions: 12, arm: "p" }, join(root, "a"));
  const dir = played.session.paths.dir;
  const card = readScorecard(join(dir, "scorecard.json"))._unsafeUnwrap();

  test("the scorecard names the build that ran: version, commit and the hash of the running code", () => {
    const b = buildId();
    expect(card.provenance?.build).toEqual({ version: b.version, commit: b.commit, code: b.code });
    expect(card.provenance?.build.code).toMatch(/^[0-9a-f]{16}$/);
    // The run-start event says it too.
    expect(played.events.find((e) => e.kind === "run-start")).toMatchObject({ build: { code: b.code } });
  });

  test("two builds under one arm are refused, the build difference named; --allow-mixed-builds pools them", async () => {
    const other = join(root, "b", "other");
    cpSync(dir, other, { recursive: true });
    editCard(other, (c) => {
      (c.provenance as { build: { code: string } }).build.code = "0123456789abcdef";
    });
    const refused = await score([join(root, "a"), join(root, "b")]);
    expect(refused.code).toBe(2);
    expect(refused.errText).toContain('arm "p" holds runs produced by different builds');
    expect(refused.errText).toContain(`build: ${card.provenance!.build.version}`);
    expect(refused.errText).toContain("code 0123456789abcdef");
    expect(refused.errText).toContain("--allow-mixed-builds");
    const pooled = await score([join(root, "a"), join(root, "b"), "--allow-mixed-builds"]);
    expect(pooled.code).toBe(0);
    expect(pooled.out).toContain("code 0123456789abcdef");
    expect(pooled.out).toContain(`code ${card.provenance!.build.code}`);
    expect(pooled.out).toContain("mixed builds, pooled by --allow-mixed-builds");
  });

  test("a run without provenance (an older scorecard) still scores, as an unknown build; pooled with a known one it is refused", async () => {
    const old = join(root, "c", "old");
    cpSync(dir, old, { recursive: true });
    editCard(old, (c) => {
      delete c.provenance;
    });
    const alone = await score([join(root, "c")]);
    expect(alone.code).toBe(0);
    expect(alone.out).toContain("Produced by: unknown build");
    const mixed = await score([join(root, "a"), join(root, "c")]);
    expect(mixed.code).toBe(2);
    expect(mixed.errText).toMatch(/build: .* vs unknown build|build: unknown build vs/);
  });
});

describe.skipIf(NO_NETHACK)("NetHack's provenance", () => {
  test("the binary's hash and the options file's, which differ with the character", () => {
    const a = runProvenance(newConfig({ game: "nethack", env: "nethack" })._unsafeUnwrap());
    const b = runProvenance(newConfig({ game: "nethack", env: "nethack", role: "wizard" })._unsafeUnwrap());
    expect(a.parts["nethack binary"]).toMatch(/^[0-9a-f]{16}$/);
    expect(a.parts["nethack binary"]).toBe(b.parts["nethack binary"]!);
    expect(a.parts["nethack options"]).not.toBe(b.parts["nethack options"]!);
  });
});
