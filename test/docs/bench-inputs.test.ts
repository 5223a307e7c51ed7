// docs/bench.md's figures that do not depend on the machine — the generated inputs' bytes, lines, sections and
// workspace copies — are generated (`bun scripts/bench-inputs.ts`); here the rows up to 320,000 lines are
// generated again and must be the committed ones, and every older place in the document that states a
// generated log's size, lines or sections must agree with the table. Timings are not pinned: they are one
// machine's at one load, each given with its command.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BENCH_SIZES, benchInput, benchInputRow } from "../../src/bench/inputs.ts";

const DOC = readFileSync(join(import.meta.dir, "..", "..", "docs", "bench.md"), "utf8");
const table = DOC.slice(
  DOC.indexOf("<!-- begin generated: bench-inputs -->"),
  DOC.indexOf("<!-- end generated: bench-inputs -->"),
);
/** The committed rows by the lines asked ("10,000"). */
const rows = new Map(
  table
    .split("\n")
    .filter((l) => /^\| [\d,]+ \|/.test(l))
    .map((l) => [l.split("|")[1]!.trim(), l]),
);
const cells = (asked: number) => (rows.get(asked.toLocaleString("en")) ?? "").split("|").map((c) => c.trim());

describe("docs/bench.md's generated inputs", () => {
  test("the table has a row for every size the document reports on", () => {
    expect([...rows.keys()]).toEqual(BENCH_SIZES.map((n) => n.toLocaleString("en")));
  });

  for (const asked of BENCH_SIZES.filter((n) => n <= 320_000)) {
    test(`${asked.toLocaleString("en")} lines generated again give the committed row`, () => {
      expect(benchInputRow(benchInput(asked))).toBe(rows.get(asked.toLocaleString("en"))!);
    });
  }

  test("every older statement of a generated log's size, lines and sections agrees with the table", () => {
    const stated = [...DOC.matchAll(/generated \(([\d,]+) lines\): ([\d.]+) MB, ([\d,]+) lines, ([\d,]+) sections/g)];
    expect(stated.length).toBeGreaterThanOrEqual(4);
    for (const [, asked, mb, lines, sections] of stated) {
      const c = cells(Number(asked!.replaceAll(",", "")));
      expect([`${mb} MB`, lines, sections]).toEqual([c[2]!.replace(/^[\d,]+ \((.*)\)$/, "$1"), c[3]!, c[4]!]);
    }
    // The whole-process run's inputs, as its paragraph states them.
    const c320 = cells(320_000);
    expect(DOC).toContain(
      `320,000 lines (${c320[2]!.replace(/^.*\((.*)\)$/, "$1")}, copy ${c320[5]!.replace(/^.*\((.*)\)$/, "$1")})`,
    );
  });
});
