// `prolong bench`: log-scan throughput of the native core, side by side with the best Bun-only way to do
// the same job and with grep/rg as whole processes, on the same bytes in one run. It exists so that each
// native function keeps earning its place (DESIGN.md): if Bun's built-in wins, the figure says so. Several
// log sizes in one run show how each job scales; the inspection commands are timed on the 320K-line log
// (the size a long run reaches), where each must answer within 100 ms.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { generateLog } from "../bench/gen-log.ts";
import { benchLogCommands, type CommandTiming } from "../bench/log-commands.ts";
import { blake3, cellChanges, prefixCheck, sectionIndex, xxh3_128 } from "../native.ts";
import { flag, parseCommandArgs } from "./args.ts";
import type { Command } from "./command.ts";

const SEPARATOR = "=".repeat(80);
const FIXTURE_GAMES = ["ft09", "lp85", "m0r0", "cn04"];
const DEFAULT_SIZES = [10_000, 100_000, 320_000, 1_000_000];
/** The generated size the inspection commands are timed on (when it is among --lines; else the largest below it). */
const COMMANDS_SIZE = 320_000;
const COMMAND_TARGET_MS = 100;

interface Timing {
  job: string;
  impl: string;
  ms: number;
  /** Bytes of the input per second, in GB/s (1e9). */
  gbps: number;
  /** This implementation's time over the native one's (>1: native is faster). */
  vsNative: number | null;
}

interface InputReport {
  name: string;
  bytes: number;
  lines: number;
  sections: number;
  timings: Timing[];
}

interface Target {
  what: string;
  measured: number;
  unit: string;
  target: string;
  met: boolean;
}

/** Best (lowest) wall time of `repeat` runs, in ms. The first call warms caches and the JIT. */
function best(repeat: number, f: () => unknown): number {
  f();
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < repeat; i++) {
    const t0 = Bun.nanoseconds();
    f();
    min = Math.min(min, (Bun.nanoseconds() - t0) / 1e6);
  }
  return min;
}

/** The best Bun-only separator finder: Buffer.indexOf on "\n" + 80 '=' then the line-end check. */
function bunSeparatorOffsets(buf: Buffer): number[] {
  const out: number[] = [];
  const isLineEnd = (i: number) => i === buf.length || buf[i] === 10 || (buf[i] === 13 && buf[i + 1] === 10);
  if (buf.subarray(0, 80).toString("latin1") === SEPARATOR && isLineEnd(80)) out.push(0);
  const needle = Buffer.from("\n" + SEPARATOR);
  let from = 0;
  for (;;) {
    const i = buf.indexOf(needle, from);
    if (i < 0) return out;
    if (isLineEnd(i + 81)) out.push(i + 1);
    from = i + 81;
  }
}

const HEADER = /^Action (\d+) \| Level (\d+) \| Attempt (\d+) \| (?:INITIAL STATE \| |Plan Step (\d+)\/(\d+) \| )?Score: (\d+)\r?$/;
const MARKERS = ["[settled]", "[POST-ACTION BOARD STATE]", "[INITIAL BOARD STATE]", "[CURRENT BOARD STATE]"].map((m) => Buffer.from(`\n${m}\n`));
const FRAME = Buffer.from("\n[frame ");

/** The best Bun-only full section table (same job as native sectionIndex, LF logs): Buffer.indexOf for
 *  separators, frames and markers, a regex on each header, an indexOf walk over the settled board. */
function bunSectionTable(buf: Buffer): number[][] {
  const starts = bunSeparatorOffsets(buf);
  return starts.map((start, k) => {
    const end = starts[k + 1] ?? buf.length;
    const headerAt = start + 81;
    const headerEnd = buf.indexOf(10, headerAt);
    const m = HEADER.exec(buf.toString("latin1", headerAt, headerEnd < 0 || headerEnd > end ? end : headerEnd));
    let frames = 1;
    for (let i = buf.indexOf(FRAME, start); i >= 0 && i < end; i = buf.indexOf(FRAME, i + 1)) frames++;
    let marker = -1;
    const section = buf.subarray(start, end); // bounds lastIndexOf to this section
    for (const mk of MARKERS) {
      const i = section.lastIndexOf(mk);
      if (i >= 0 && start + i + mk.length > marker) marker = start + i + mk.length;
    }
    let rows = 0;
    let pos = marker;
    if (marker >= 0) {
      while (pos < end && buf[pos] !== 10 && !(buf[pos] === 91 && buf[pos + 1] === 102)) {
        const nl = buf.indexOf(10, pos);
        pos = nl < 0 || nl >= end ? end : nl + 1;
        rows++;
      }
    }
    return [start, end, Number(m?.[1] ?? -1), Number(m?.[6] ?? -1), frames, marker, pos, rows];
  });
}

/** Bun-only consecutive board diffs from a section table: equal boards by Buffer.equals, else a byte loop. */
function bunCellChanges(buf: Buffer, starts: Float64Array, ends: Float64Array): Int32Array {
  const out = new Int32Array(starts.length).fill(-1);
  for (let k = 1; k < starts.length; k++) {
    const [ps, pe, s, e] = [starts[k - 1]!, ends[k - 1]!, starts[k]!, ends[k]!];
    if (ps < 0 || s < 0 || pe - ps !== e - s) continue;
    const a = buf.subarray(ps, pe);
    const b = buf.subarray(s, e);
    if (a.equals(b)) {
      out[k] = 0;
      continue;
    }
    let n = 0;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) n++;
    out[k] = n;
  }
  return out;
}

function countLines(buf: Buffer): number {
  let n = 0;
  for (let i = buf.indexOf(10); i >= 0; i = buf.indexOf(10, i + 1)) n++;
  return n;
}

function timeProcess(repeat: number, cmd: string[]): number | null {
  if (Bun.which(cmd[0]!) === null) return null;
  return best(repeat, () => Bun.spawnSync(cmd, { stdout: "ignore", stderr: "ignore" }));
}

function benchInput(name: string, file: string, repeat: number): InputReport {
  const buf = readFileSync(file);
  const copy = Buffer.from(buf); // a second buffer with the same bytes, as a sandbox copy is
  const gb = buf.length / 1e9;
  const table = sectionIndex(buf);
  const timings: Timing[] = [];
  const add = (job: string, impl: string, ms: number | null) => {
    if (ms === null) return;
    const native = timings.find((t) => t.job === job && t.impl === "native");
    timings.push({ job, impl, ms, gbps: gb / (ms / 1e3), vsNative: native ? ms / native.ms : null });
  };

  add("section index", "native", best(repeat, () => sectionIndex(buf)));
  add("section index", "bun indexOf + regex (full table)", best(repeat, () => bunSectionTable(buf)));
  add("section index", "bun Buffer.indexOf (offsets only)", best(repeat, () => bunSeparatorOffsets(buf)));
  add("section index", "grep -c -x -F (process)", timeProcess(repeat, ["grep", "-c", "-x", "-F", SEPARATOR, file]));
  add("section index", "rg -c -x -F (process)", timeProcess(repeat, ["rg", "-c", "-x", "-F", SEPARATOR, file]));

  add("prefix verify", "native", best(repeat, () => prefixCheck(buf, copy)));
  add("prefix verify", "bun Buffer.compare", best(repeat, () => Buffer.compare(buf.subarray(0, copy.length), copy)));

  add("xxh3-128", "native", best(repeat, () => xxh3_128(buf)));
  add("xxh3-128", "bun Bun.hash.xxHash3 (64-bit)", best(repeat, () => Bun.hash.xxHash3(buf)));

  add("blake3", "native", best(repeat, () => blake3(buf)));
  add("blake3", "bun CryptoHasher blake2b256", best(repeat, () => new Bun.CryptoHasher("blake2b256").update(buf).digest()));
  add("blake3", "bun CryptoHasher sha256", best(repeat, () => new Bun.CryptoHasher("sha256").update(buf).digest()));

  add("board diffs", "native", best(repeat, () => cellChanges(buf, table)));
  add("board diffs", "bun byte loop", best(repeat, () => bunCellChanges(buf, table.boardStart, table.boardEnd)));
  return { name, bytes: buf.length, lines: countLines(buf), sections: table.count, timings };
}

function fixturesDir(): string | null {
  const candidates = [
    path.resolve(import.meta.dir, "../../..", "shared", "fixtures", "prolong-release"),
    path.resolve(process.cwd(), "..", "shared", "fixtures", "prolong-release"),
  ];
  return candidates.find((d) => existsSync(d)) ?? null;
}

function commandTargets(timings: readonly CommandTiming[]): Target[] {
  return timings.filter((t) => t.targeted).map((t) => {
    const ms = t.processMs ?? t.inProcessMs;
    return { what: `${t.command}${t.processMs !== null ? " (whole process)" : ""}`, measured: ms, unit: "ms", target: `<= ${COMMAND_TARGET_MS}`, met: ms <= COMMAND_TARGET_MS };
  });
}

function targets(main: InputReport, diff5k: { ms: number; withIndexMs: number }): Target[] {
  const get = (job: string, impl: string) => main.timings.find((t) => t.job === job && t.impl.startsWith(impl));
  const idx = get("section index", "native")!;
  const bunIdx = get("section index", "bun indexOf + regex")!;
  const prefix = get("prefix verify", "native")!;
  const xxh = get("xxh3-128", "native")!;
  return [
    { what: "section index", measured: idx.gbps, unit: "GB/s", target: ">= 8", met: idx.gbps >= 8 },
    { what: "section index vs Bun-only full table", measured: bunIdx.ms / idx.ms, unit: "x", target: ">= 1.5", met: bunIdx.ms / idx.ms >= 1.5 },
    { what: "prefix verify", measured: prefix.gbps, unit: "GB/s", target: ">= 8", met: prefix.gbps >= 8 },
    { what: "xxh3-128", measured: xxh.gbps, unit: "GB/s", target: ">= 10", met: xxh.gbps >= 10 },
    { what: "board diffs, 5,000-section log", measured: diff5k.ms, unit: "ms", target: "<= 10", met: diff5k.ms <= 10 },
  ];
}

function formatCommands(input: string, timings: readonly CommandTiming[]): string[] {
  const out = [`inspection commands on ${input} (LOG); in process = read + index + answer as text; process = whole \`prolong\` run`];
  out.push(`  ${"command".padEnd(42)} ${"in process ms".padStart(13)} ${"process ms".padStart(11)}`);
  for (const t of timings) {
    out.push(`  ${t.command.padEnd(42)} ${t.inProcessMs.toFixed(1).padStart(13)} ${(t.processMs === null ? "-" : t.processMs.toFixed(1)).padStart(11)}`);
  }
  return out;
}

function formatReport(inputs: InputReport[], diff5k: { ms: number; withIndexMs: number; sections: number }, tgs: Target[], commands: { input: string; timings: CommandTiming[] } | null, targetInput: string): string {
  const out: string[] = [];
  for (const r of inputs) {
    out.push(`${r.name}: ${(r.bytes / 1e6).toFixed(1)} MB, ${r.lines.toLocaleString("en")} lines, ${r.sections.toLocaleString("en")} sections`);
    out.push(`  ${"job".padEnd(14)} ${"implementation".padEnd(34)} ${"ms".padStart(9)} ${"GB/s".padStart(7)} ${"x native".padStart(9)}`);
    for (const t of r.timings) {
      const ratio = t.vsNative === null ? "" : t.vsNative.toFixed(2);
      out.push(`  ${t.job.padEnd(14)} ${t.impl.padEnd(34)} ${t.ms.toFixed(3).padStart(9)} ${t.gbps.toFixed(2).padStart(7)} ${ratio.padStart(9)}`);
    }
    out.push("");
  }
  out.push(`board diffs of a ${diff5k.sections.toLocaleString("en")}-section log: ${diff5k.ms.toFixed(2)} ms (with the section index: ${diff5k.withIndexMs.toFixed(2)} ms)`);
  out.push("");
  if (commands) out.push(...formatCommands(commands.input, commands.timings), "");
  out.push(`targets (${targetInput}):`);
  for (const t of tgs) out.push(`  ${t.met ? "met " : "MISS"}  ${t.what}: ${t.measured.toFixed(2)} ${t.unit} (target ${t.target} ${t.unit})`);
  out.push("");
  out.push("'x native' = that implementation's time / native's (above 1: native is faster). Best of --repeat runs.");
  return out.join("\n");
}

const USAGE = `usage: prolong bench [--lines N[,N...]] [--log FILE]... [--repeat K] [--no-commands] [--json]

Times the log-scanning jobs on the same bytes, native addon vs the best Bun-only way vs grep/rg (whole
processes): section index, prefix verify, xxh3-128, blake3, all consecutive board diffs. Inputs: generated
logs of each size N (src/bench/gen-log.ts, seed 1), the four published PRO-LONG logs when a
shared/fixtures/prolong-release folder sits beside the checkout, and every --log FILE. Also times the board
diffs of a generated 5,000-section log, and the inspection commands (log stats|sections|show|diff|grep,
view) on the 320K-line log, in process and as whole processes (target: each <= 100 ms).

options:
  --lines N,...  sizes of the generated logs in lines (default 10000,100000,320000,1000000)
  --no-commands  skip the inspection-command timings
  --log FILE    add a log file (repeatable)
  --repeat K    runs per measurement; the best is reported (default 5)
  --json        print the report as JSON`;

const flags = {
  lines: flag.textOr(DEFAULT_SIZES.join(",")),
  "no-commands": flag.bool(),
  log: flag.list(),
  repeat: flag.intOr(5, 1, 1000),
  json: flag.bool(),
} as const;

export const benchCommand: Command = {
  name: "bench",
  summary: "log-scan throughput: native core vs Bun-only vs grep/rg, as GB/s and ratios",
  usage: USAGE,
  flags,
  async run(args) {
    const parsed = parseCommandArgs("bench", args, flags, 0);
    if (!parsed) return 2;
    const sizes = parsed.values.lines.split(",").map((x) => Number(x.trim()));
    const repeat = parsed.values.repeat;
    if (sizes.some((n) => !Number.isInteger(n) || n < 1 || n > 100_000_000)) {
      console.error(`prolong bench: --lines takes whole numbers from 1 to 100000000 separated by commas, got '${parsed.values.lines}'\n  fix: e.g. prolong bench --lines 10000,320000 --repeat 5`);
      return 2;
    }
    const missing = parsed.values.log.filter((f) => !existsSync(f));
    if (missing.length > 0) {
      console.error(`prolong bench: ${missing.join(", ")}: no such file\n  fix: give --log an existing log file`);
      return 2;
    }

    // A run takes minutes: on a terminal, say what is being timed (stderr, so --json output stays clean).
    const step = (what: string) => {
      if (process.stderr.isTTY) process.stderr.write(`\r\x1b[Kbench: ${what}`);
    };
    // grep and rg read files, so the generated logs are written to a scratch directory.
    const scratch = mkdtempSync(path.join(tmpdir(), "prolong-bench-"));
    try {
      const inputs: Array<[string, string]> = [];
      for (const lines of sizes) {
        step(`generating a ${lines.toLocaleString("en")}-line log`);
        const generated = path.join(scratch, `generated-${lines}.txt`);
        writeFileSync(generated, generateLog({ lines, seed: 1 }));
        inputs.push([`generated (${lines.toLocaleString("en")} lines)`, generated]);
      }
      const fixtures = fixturesDir();
      if (fixtures) for (const g of FIXTURE_GAMES) inputs.push([`fixture ${g}`, path.join(fixtures, g, "logs.txt")]);
      for (const f of parsed.values.log) inputs.push([f, f]);
      const reports = inputs.map(([name, file], k) => {
        step(`timing ${name} (${k + 1} of ${inputs.length}; best of ${repeat})`);
        return benchInput(name, file, repeat);
      });
      step("timing the board diffs of a 5,000-section log");

      const log5k = Buffer.from(generateLog({ sections: 5000, seed: 2 }));
      const table5k = sectionIndex(log5k);
      const diff5k = {
        sections: table5k.count,
        ms: best(repeat, () => cellChanges(log5k, table5k)),
        withIndexMs: best(repeat, () => cellChanges(log5k, sectionIndex(log5k))),
      };
      // Targets and command timings on the 320K-line log, or the largest generated size below it.
      const below = sizes.map((n, i) => [n, i] as const).filter(([n]) => n <= COMMANDS_SIZE).sort((x, y) => y[0] - x[0]);
      const main = below[0]?.[1] ?? 0;
      const [mainName, mainFile] = inputs[main]!;
      if (!parsed.values["no-commands"]) step(`timing the inspection commands on ${mainName}`);
      const commands = parsed.values["no-commands"] ? null : { input: mainName, timings: benchLogCommands(mainFile, (f) => best(repeat, f), true) };
      const tgs = [...targets(reports[main]!, diff5k), ...(commands ? commandTargets(commands.timings) : [])];
      step("");
      if (process.stderr.isTTY) process.stderr.write("\r\x1b[K");
      if (parsed.values.json) {
        console.log(JSON.stringify({ repeat, inputs: reports, boardDiffs5k: diff5k, commands, targetsInput: mainName, targets: tgs }, null, 2));
      } else {
        console.log(formatReport(reports, diff5k, tgs, commands, mainName));
      }
      return 0;
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  },
};
