// The bench's generated inputs as figures that do not depend on the machine: for a log of N lines (seed 1),
// its bytes, lines, sections and the bytes of the workspace copy cut from it. docs/bench.md's table of inputs
// is generated from here (`bun scripts/bench-inputs.ts`) and test/docs/bench-inputs.test.ts recomputes the
// smaller rows, so a change to the generator or the format that moves them cannot go unnoticed.
import { SEPARATOR } from "../log/format.ts";
import { sectionIndex } from "../native.ts";
import { generateLog } from "./gen-log.ts";

/** The seed every generated bench log uses. */
export const BENCH_SEED = 1;

/** The sizes docs/bench.md reports on (prolong bench's defaults and the in-process table's). */
export const BENCH_SIZES = [10_000, 100_000, 320_000, 1_000_000, 2_000_000, 8_000_000] as const;

/** The copy an agent would hold at 80% of the run: the log cut where a section ends (before the join). */
export function copyCut(log: Uint8Array): number {
  const cut = Buffer.from(log.buffer, log.byteOffset, log.byteLength).indexOf(`\n${SEPARATOR}`, Math.floor(log.length * 0.8));
  return cut < 0 ? log.length : cut;
}

/** The generated log of `lines` lines, as bytes. */
export function benchLog(lines: number): Buffer {
  return Buffer.from(generateLog({ lines, seed: BENCH_SEED }));
}

export interface BenchInput {
  /** Lines asked of the generator (it stops at the first section end past them). */
  readonly asked: number;
  readonly bytes: number;
  readonly lines: number;
  readonly sections: number;
  readonly copyBytes: number;
}

export function benchInput(asked: number): BenchInput {
  const log = benchLog(asked);
  const table = sectionIndex(log);
  return { asked, bytes: log.length, lines: table.lines, sections: table.count, copyBytes: copyCut(log) };
}

const int = (n: number) => n.toLocaleString("en");
const mb = (n: number) => (n / 1e6).toFixed(1);

/** One row of docs/bench.md's inputs table. */
export function benchInputRow(i: BenchInput): string {
  return `| ${int(i.asked)} | ${int(i.bytes)} (${mb(i.bytes)} MB) | ${int(i.lines)} | ${int(i.sections)} | ${int(i.copyBytes)} (${mb(i.copyBytes)} MB) |`;
}

export function benchInputsTable(inputs: readonly BenchInput[]): string {
  return [
    "| lines asked | bytes | lines | sections | workspace copy (bytes) |",
    "| ---: | ---: | ---: | ---: | ---: |",
    ...inputs.map(benchInputRow),
  ].join("\n");
}
