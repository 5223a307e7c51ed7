// Native functions against their plain-TS twins (test/oracle/), on the same generated log: how much the
// native core buys over the obviously-correct version the differential tests trust.
//   bun scripts/bench-oracles.ts [--lines 320000]
import { generateLog } from "../src/bench/gen-log.ts";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { blake3, cellChanges, lineCount, mapFile, prefixCheck, sectionIndex, xxh3_128 } from "../src/native.ts";
import { lineCountOracle, mapFileOracle } from "../test/oracle/file.ts";
import { blake3Oracle } from "../test/oracle/blake3.ts";
import { cellChangesOracle } from "../test/oracle/diff.ts";
import { prefixCheckOracle } from "../test/oracle/prefix.ts";
import { sectionIndexOracle } from "../test/oracle/sections.ts";
import { xxh3_128Oracle } from "../test/oracle/xxh3.ts";

const at = process.argv.indexOf("--lines");
const lines = at > 0 ? Number(process.argv[at + 1]) : 320_000;
const buf = new TextEncoder().encode(generateLog({ lines, seed: 1 }));
const copy = buf.slice(0, buf.length - 1000);
const table = sectionIndex(buf);
// The BigInt xxh3 twin runs at ~10 MB/s: time it on a 2 MB slice.
const small = buf.subarray(0, 2_000_000);
const file = path.join(tmpdir(), `prolong-bench-oracles-${process.pid}.txt`);
writeFileSync(file, buf);
// A file's bytes are only as good as what is done with them: both sides read every page (a line count).
const mapAndCount = () => lineCount(mapFile(file) as Uint8Array);
const readAndCount = () => lineCount(mapFileOracle(file) as Uint8Array);

function best(f: () => unknown, repeat: number): number {
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < repeat; i++) {
    const t = performance.now();
    f();
    min = Math.min(min, performance.now() - t);
  }
  return min;
}

const rows: [string, number, () => unknown, () => unknown, number][] = [
  ["section index", buf.length, () => sectionIndex(buf), () => sectionIndexOracle(buf), 3],
  ["prefix check", buf.length, () => prefixCheck(buf, copy), () => prefixCheckOracle(buf, copy), 3],
  ["cell changes", buf.length, () => cellChanges(buf, table), () => cellChangesOracle(buf, table), 3],
  ["blake3", buf.length, () => blake3(buf), () => blake3Oracle(buf), 1],
  ["line count", buf.length, () => lineCount(buf), () => lineCountOracle(buf), 3],
  ["map file + count", buf.length, mapAndCount, readAndCount, 3],
  ["xxh3-128 (2 MB)", small.length, () => xxh3_128(small), () => xxh3_128Oracle(small), 1],
];
console.log(`${(buf.length / 1e6).toFixed(1)} MB, ${lines} lines; best of runs`);
console.log(`${"job".padEnd(16)} ${"native ms".padStart(10)} ${"TS twin ms".padStart(11)} ${"twin/native".padStart(12)}`);
for (const [name, , native, twin, repeat] of rows) {
  const n = best(native, 5);
  const o = best(twin, repeat);
  console.log(`${name.padEnd(16)} ${n.toFixed(2).padStart(10)} ${o.toFixed(1).padStart(11)} ${(o / n).toFixed(0).padStart(11)}x`);
}
rmSync(file, { force: true });
