// The format against the ground truth: the four real logs written by the published harness
// (../shared/fixtures/prolong-release/ beside the project root). Skipped, with the reason printed, where
// that folder is absent (a user's checkout).
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import * as v from "valibot";
import { parseLog, parseSection, separatorOffsets, writeSection, SECTION_JOIN } from "../../src/log/format.ts";

const projectRoot = path.resolve(import.meta.dir, "../..");
const fixtures = path.resolve(projectRoot, "../shared/fixtures/prolong-release");
const present = existsSync(fixtures);
if (!present) console.log(`skipping the real-log tests: ${fixtures} is absent (it ships beside the project in ../shared)`);

/** Per game: sections (the header one included), and how many sections show the doubled-[PLAN] quirk. */
const GAMES = {
  ft09: { sections: 83, doubledPlan: 0 },
  lp85: { sections: 113, doubledPlan: 39 },
  m0r0: { sections: 273, doubledPlan: 64 },
  cn04: { sections: 250, doubledPlan: 47 },
} as const;

const Scorecard = v.object({
  environments: v.pipe(
    v.array(
      v.object({
        id: v.string(),
        runs: v.pipe(
          v.array(
            v.object({
              levels_completed: v.pipe(v.number(), v.integer(), v.minValue(0)),
              actions: v.pipe(v.number(), v.integer(), v.minValue(0)),
              state: v.string(),
            }),
          ),
          v.minLength(1),
        ),
      }),
    ),
    v.length(1),
  ),
});

function readScorecard(file: string): v.InferOutput<typeof Scorecard> {
  const parsed = v.safeParse(Scorecard, JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success) throw new Error(`${file}: ${v.summarize(parsed.issues)}`);
  return parsed.output;
}

/** The best run: the most levels completed, then the most actions. */
function bestRun(card: v.InferOutput<typeof Scorecard>) {
  const runs = card.environments[0]?.runs ?? [];
  return [...runs].sort((a, b) => b.levels_completed - a.levels_completed || b.actions - a.actions)[0];
}

/** The published bytes with the one normalised quirk applied: a doubled "[PLAN]" line gets escaped. */
function normalised(sectionText: string): string {
  return sectionText.replace("\n[PLAN]\n[PLAN]\n", "\n[PLAN]\n [PLAN]\n");
}

describe.skipIf(!present)("real logs of the published harness", () => {
  for (const [game, expected] of Object.entries(GAMES)) {
    describe(game, () => {
      const master = present ? readFileSync(path.join(fixtures, game, "logs.txt")) : Buffer.alloc(0);
      const text = master.toString("utf8");

      test(`every section re-written from its parse gives its bytes back (${expected.sections} sections)`, () => {
        const starts = separatorOffsets(text);
        expect(starts.length).toBe(expected.sections);
        expect(starts[0]).toBe(0);
        let exact = 0;
        let quirk = 0;
        starts.forEach((start, i) => {
          const last = i === starts.length - 1;
          const sectionText = text.slice(start, starts[i + 1] ?? text.length);
          const written = writeSection(parseSection(sectionText)._unsafeUnwrap(), "ascii") + (last ? "" : SECTION_JOIN);
          if (written === sectionText) exact++;
          else {
            expect(written).toBe(normalised(sectionText));
            quirk++;
          }
        });
        expect(quirk).toBe(expected.doubledPlan);
        expect(exact + quirk).toBe(expected.sections);
        // The whole file too, byte for byte, once the quirk is normalised.
        const rewritten = parseLog(text)
          .sections.map((s) => writeSection(s, "ascii"))
          .join(SECTION_JOIN);
        expect(rewritten).toBe(text.replaceAll("\n[PLAN]\n[PLAN]\n", "\n[PLAN]\n [PLAN]\n"));
      });

      test("parseLog reads every section, and the last header matches the scorecard's best run", () => {
        const { sections, cut } = parseLog(text);
        expect(cut).toBeUndefined();
        expect(sections.length).toBe(expected.sections);
        expect(sections[0]?.header.kind).toBe("initial");
        expect(sections.slice(1).every((s) => s.header.kind === "action" && s.toolCall !== undefined)).toBe(true);
        expect(sections.map((s) => s.header.action)).toEqual(Array.from({ length: expected.sections }, (_, i) => i));
        for (const s of sections) expect([s.board.width, s.board.height]).toEqual([64, 64]);
        const best = bestRun(readScorecard(path.join(fixtures, game, "scorecard.json")));
        const last = sections[sections.length - 1]?.header;
        expect(last?.action).toBe(best?.actions);
        expect(last?.score).toBe(best?.levels_completed);
      });

      test("the workspace copy is a byte-prefix of the master, ending on a section boundary", () => {
        const copy = readFileSync(path.join(fixtures, game, "workspace", "logs.txt"));
        expect(copy.length).toBeLessThan(master.length);
        expect(master.subarray(0, copy.length).equals(copy)).toBe(true);
        const fromCopy = parseLog(copy.toString("utf8"));
        expect(fromCopy.cut).toBeUndefined();
        expect(fromCopy.sections.length).toBeGreaterThan(0);
        // The copy ends where the next append starts: its next byte in the master is the join + separator.
        expect(master.subarray(copy.length, copy.length + 2).toString()).toBe("\n=");
      });

      test("the master cut inside its last board: the complete sections, the cut one named", () => {
        const lastStart = separatorOffsets(text).at(-1) ?? -1;
        const truncated = master.subarray(0, master.length - 1000);
        const r = parseLog(truncated.toString("utf8"));
        expect(r.sections.length).toBe(expected.sections - 1);
        expect(r.cut?.index).toBe(expected.sections - 1);
        expect(r.cut?.offset).toBe(Buffer.byteLength(text.slice(0, lastStart)));
        expect(r.cut?.reason).toMatch(/board/);
      });
    });
  }
});
