// Writes docs/bench.md's table of the bench's generated inputs (bytes, lines, sections, the workspace copy's
// bytes) between its "generated: bench-inputs" marks: the figures of that document that do not depend on the
// machine. test/docs/bench-inputs.test.ts recomputes the rows up to 320,000 lines and compares.
//   bun scripts/bench-inputs.ts [--doc docs/bench.md]
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BENCH_SIZES, benchInput, benchInputsTable } from "../src/bench/inputs.ts";

const args = process.argv.slice(2);
const doc = args.includes("--doc") ? args[args.indexOf("--doc") + 1]! : join(import.meta.dir, "..", "docs", "bench.md");
const inputs = BENCH_SIZES.map((lines) => {
  console.error(`bench-inputs: generating ${lines.toLocaleString("en")} lines`);
  return benchInput(lines);
});
const begin = "<!-- begin generated: bench-inputs -->";
const end = "<!-- end generated: bench-inputs -->";
const text = readFileSync(doc, "utf8");
const a = text.indexOf(begin);
const b = text.indexOf(end);
if (a < 0 || b < a) throw new Error(`${doc} has no "${begin}" … "${end}" marks`);
writeFileSync(doc, `${text.slice(0, a + begin.length)}\n${benchInputsTable(inputs)}\n${text.slice(b)}`);
console.error(`bench-inputs: the table in ${doc}`);
