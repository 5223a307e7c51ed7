// `prolong bench`: log-scan throughput of the native core, side by side with the best Bun-only way to do
// the same job and with grep/rg as whole processes, on the same bytes in one run. It exists so that each
// native function keeps earning its place (DESIGN.md): if Bun's built-in wins, the figure says so. Several
// log sizes in one run show how each job scales; the inspection commands are timed on the 320K-line log
// (the size a long run reaches), where each must answer within 100 ms.
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import path from "node:path";
import { generateLog } from "../bench/gen-log.ts";
import { benchLog, copyCut } from "../bench/inputs.ts";
import { benchLogCommands, prolongArgv, type CommandTiming } from "../bench/log-commands.ts";
import { processJobs, timeProcess, type ProcessFigure } from "../bench/processes.ts";
import { blake3, cellChanges, mapFile, prefixCheck, sectionIndex, xxh3_128 } from "../native.ts";
import { flag, parseCommandArgs } from "./args.ts";
import type { Command } from "./command.ts";

const SEPARATOR = "=".repeat(80);
const FIXTURE_GAMES = ["ft09", "lp85", "m0r0", "cn04"];
const DEFAULT_SIZES = [10_000, 320_000, 2_000_000, 8_000_000];
/** The whole-process targets: at this size start-up dominates; at the largest generated size the scan does. */
const BIG_SIZE = 8_000_000;
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

const HEADER =
  /^Action (\d+) \| Level (\d+) \| Attempt (\d+) \| (?:INITIAL STATE \| |Plan Step (\d+)\/(\d+) \| )?Score: (\d+)\r?$/;
const MARKERS = ["[settled]", "[POST-ACTION BOARD STATE]", "[INITIAL BOARD STATE]", "[CURRENT BOARD STATE]"].map((m) =>
  Buffer.from(`\n${m}\n`),
);
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

/** The file's bytes, mapped (no copy), as a Buffer view. */
function mapped(file: string): Buffer {
  const m = mapFile(file);
  if (!(m instanceof Uint8Array)) throw new Error(`prolong bench: ${file}: ${m.message}`);
  return Buffer.from(m.buffer, m.byteOffset, m.length);
}

/** Progress on stderr: one line rewritten in place on a terminal, a line per step otherwise. */
function progress(text: string): void {
  if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K${text}`);
  else process.stderr.write(`${text}\n`);
}

function benchInput(name: string, file: string, copyFile: string | null, repeat: number): InputReport {
  const buf = mapped(file);
  // A second file that is a byte-prefix of the first, as a workspace copy is (or the same bytes again).
  const copy = copyFile ? mapped(copyFile) : Buffer.from(buf);
  const gb = buf.length / 1e9;
  const table = sectionIndex(buf);
  const timings: Timing[] = [];
  const add = (job: string, impl: string, ms: number | null) => {
    if (ms === null) return;
    const native = timings.find((t) => t.job === job && t.impl === "native");
    timings.push({ job, impl, ms, gbps: gb / (ms / 1e3), vsNative: native ? ms / native.ms : null });
  };

  add(
    "section index",
    "native",
    best(repeat, () => sectionIndex(buf)),
  );
  add(
    "section index",
    "bun indexOf + regex (full table)",
    best(repeat, () => bunSectionTable(buf)),
  );
  add(
    "section index",
    "bun Buffer.indexOf (offsets only)",
    best(repeat, () => bunSeparatorOffsets(buf)),
  );

  add(
    "prefix verify",
    "native",
    best(repeat, () => prefixCheck(buf, copy)),
  );
  add(
    "prefix verify",
    "bun Buffer.compare",
    best(repeat, () => Buffer.compare(buf.subarray(0, copy.length), copy)),
  );

  add(
    "xxh3-128",
    "native",
    best(repeat, () => xxh3_128(buf)),
  );
  add(
    "xxh3-128",
    "bun Bun.hash.xxHash3 (64-bit)",
    best(repeat, () => Bun.hash.xxHash3(buf)),
  );

  add(
    "blake3",
    "native",
    best(repeat, () => blake3(buf)),
  );
  add(
    "blake3",
    "bun CryptoHasher blake2b256",
    best(repeat, () => new Bun.CryptoHasher("blake2b256").update(buf).digest()),
  );
  add(
    "blake3",
    "bun CryptoHasher sha256",
    best(repeat, () => new Bun.CryptoHasher("sha256").update(buf).digest()),
  );

  add(
    "board diffs",
    "native",
    best(repeat, () => cellChanges(buf, table)),
  );
  add(
    "board diffs",
    "bun byte loop",
    best(repeat, () => bunCellChanges(buf, table.boardStart, table.boardEnd)),
  );
  return { name, bytes: buf.length, lines: table.lines, sections: table.count, timings };
}

function fixturesDir(): string | null {
  const candidates = [
    path.resolve(import.meta.dir, "../../..", "shared", "fixtures", "prolong-release"),
    path.resolve(process.cwd(), "..", "shared", "fixtures", "prolong-release"),
  ];
  return candidates.find((d) => existsSync(d)) ?? null;
}

function commandTargets(timings: readonly CommandTiming[]): Target[] {
  return timings
    .filter((t) => t.targeted)
    .map((t) => {
      const ms = t.processMs ?? t.inProcessMs;
      return {
        what: `${t.command}${t.processMs !== null ? " (whole process)" : ""}`,
        measured: ms,
        unit: "ms",
        target: `<= ${COMMAND_TARGET_MS}`,
        met: ms <= COMMAND_TARGET_MS,
      };
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
    {
      what: "section index vs Bun-only full table",
      measured: bunIdx.ms / idx.ms,
      unit: "x",
      target: ">= 1.5",
      met: bunIdx.ms / idx.ms >= 1.5,
    },
    { what: "prefix verify", measured: prefix.gbps, unit: "GB/s", target: ">= 8", met: prefix.gbps >= 8 },
    { what: "xxh3-128", measured: xxh.gbps, unit: "GB/s", target: ">= 10", met: xxh.gbps >= 10 },
    { what: "board diffs, 5,000-section log", measured: diff5k.ms, unit: "ms", target: "<= 10", met: diff5k.ms <= 10 },
  ];
}

interface Machine {
  readonly cores: number;
  readonly cpu: string;
  readonly memoryGiB: number;
  readonly load: readonly number[];
  readonly bun: string;
  readonly prolong: string;
}

function machine(): Machine {
  const c = cpus();
  return {
    cores: c.length,
    cpu: c[0]?.model ?? "unknown",
    memoryGiB: totalmem() / 2 ** 30,
    load: loadavg(),
    bun: Bun.version,
    prolong: prolongArgv().join(" "),
  };
}

function formatMachine(m: Machine): string {
  return `machine: ${m.cores} cores (${m.cpu}), ${m.memoryGiB.toFixed(1)} GiB memory, load ${m.load.map((x) => x.toFixed(2)).join(" ")}; Bun ${m.bun}; prolong = ${m.prolong}`;
}

const fmt = (x: number | null, digits = 1) => (x === null ? "-" : x.toFixed(digits));

function formatProcesses(figures: readonly ProcessFigure[], startup: ProcessFigure): string[] {
  const out = [
    `whole processes (median of --repeat runs after a warm-up; output read through a pipe; peak = max RSS, anon = peak RSS less file pages mapped at exit, an upper bound):`,
    `  start-up: ${startup.command} ${fmt(startup.wallMs)} ms wall, ${fmt(startup.cpuMs)} ms cpu, peak ${fmt(startup.peakMiB)} MiB`,
  ];
  const inputs = [...new Set(figures.map((f) => f.input))];
  for (const input of inputs) {
    out.push(`  ${input}`);
    out.push(
      `    ${"command".padEnd(52)} ${"wall ms".padStart(9)} ${"cpu ms".padStart(8)} ${"peak MiB".padStart(9)} ${"anon MiB".padStart(9)} ${"x best peer".padStart(12)}`,
    );
    for (const f of figures.filter((x) => x.input === input)) {
      const peer = bestPeer(figures, f.input, f.job);
      const ratio = f.tool === "prolong" && peer ? (f.wallMs / peer.wallMs).toFixed(2) : "";
      out.push(
        `    ${f.command.padEnd(52)} ${fmt(f.wallMs).padStart(9)} ${fmt(f.cpuMs).padStart(8)} ${fmt(f.peakMiB).padStart(9)} ${fmt(f.anonMiB).padStart(9)} ${ratio.padStart(12)}`,
      );
    }
  }
  return out;
}

function bestPeer(figures: readonly ProcessFigure[], input: string, job: string): ProcessFigure | null {
  const peers = figures
    .filter((f) => f.input === input && f.job === job && f.tool === "peer")
    .sort((a, b) => a.wallMs - b.wallMs);
  return peers[0] ?? null;
}

/** The whole-process targets, on the inputs that are present. */
function processTargets(
  figures: readonly ProcessFigure[],
  startup: ProcessFigure,
  small: string | null,
  big: string | null,
): Target[] {
  const out: Target[] = [];
  const find = (input: string, prefix: string) => figures.find((f) => f.input === input && f.command.startsWith(prefix));
  if (small) {
    for (const c of ["prolong log stats", "prolong log sections", "prolong verify"]) {
      const f = find(small, c);
      if (f)
        out.push({
          what: `${c} on ${small}, whole process`,
          measured: f.wallMs,
          unit: "ms",
          target: `<= start-up + 10 = ${(startup.wallMs + 10).toFixed(1)}`,
          met: f.wallMs <= startup.wallMs + 10,
        });
    }
  }
  if (big) {
    const grep = find(big, "grep -c -x");
    for (const c of ["prolong log stats", "prolong log sections"]) {
      const f = find(big, c);
      if (f && grep)
        out.push({
          what: `${c} on ${big} vs grep -c`,
          measured: f.wallMs / grep.wallMs,
          unit: "x grep's time",
          target: "<= 1",
          met: f.wallMs <= grep.wallMs,
        });
    }
    const v = find(big, "prolong verify");
    const cmp = find(big, "cmp");
    if (v && cmp)
      out.push({
        what: `prolong verify on ${big} vs cmp -n`,
        measured: v.wallMs / cmp.wallMs,
        unit: "x cmp's time",
        target: "<= 0.33",
        met: v.wallMs * 3 <= cmp.wallMs,
      });
  }
  for (const f of figures) {
    if (f.tool !== "prolong" || f.anonMiB === null || (f.job === "count sections" && f.command.includes("sections"))) continue;
    out.push({
      what: `${f.command} on ${f.input}: anonymous memory`,
      measured: f.anonMiB,
      unit: "MiB",
      target: "<= 64",
      met: f.anonMiB <= 64,
    });
  }
  return out;
}

function formatCommands(input: string, timings: readonly CommandTiming[]): string[] {
  const out = [
    `inspection commands on ${input} (LOG); in process = read + index + answer as text; process = whole \`prolong\` run`,
  ];
  out.push(`  ${"command".padEnd(42)} ${"in process ms".padStart(13)} ${"process ms".padStart(11)}`);
  for (const t of timings) {
    out.push(
      `  ${t.command.padEnd(42)} ${t.inProcessMs.toFixed(1).padStart(13)} ${(t.processMs === null ? "-" : t.processMs.toFixed(1)).padStart(11)}`,
    );
  }
  return out;
}

function formatReport(
  m: Machine,
  processes: { figures: ProcessFigure[]; startup: ProcessFigure } | null,
  inputs: InputReport[],
  diff5k: { ms: number; withIndexMs: number; sections: number },
  tgs: Target[],
  commands: { input: string; timings: CommandTiming[] } | null,
  targetInput: string,
): string {
  const out: string[] = [formatMachine(m), ""];
  if (processes) out.push(...formatProcesses(processes.figures, processes.startup), "");
  out.push("in process (best of --repeat runs; the file mapped, then each job on its bytes):", "");
  for (const r of inputs) {
    out.push(
      `${r.name}: ${(r.bytes / 1e6).toFixed(1)} MB, ${r.lines.toLocaleString("en")} lines, ${r.sections.toLocaleString("en")} sections`,
    );
    out.push(
      `  ${"job".padEnd(14)} ${"implementation".padEnd(34)} ${"ms".padStart(9)} ${"GB/s".padStart(7)} ${"x native".padStart(9)}`,
    );
    for (const t of r.timings) {
      const ratio = t.vsNative === null ? "" : t.vsNative.toFixed(2);
      out.push(
        `  ${t.job.padEnd(14)} ${t.impl.padEnd(34)} ${t.ms.toFixed(3).padStart(9)} ${t.gbps.toFixed(2).padStart(7)} ${ratio.padStart(9)}`,
      );
    }
    out.push("");
  }
  out.push(
    `board diffs of a ${diff5k.sections.toLocaleString("en")}-section log: ${diff5k.ms.toFixed(2)} ms (with the section index: ${diff5k.withIndexMs.toFixed(2)} ms)`,
  );
  out.push("");
  if (commands) out.push(...formatCommands(commands.input, commands.timings), "");
  out.push(`targets (in-process ones on ${targetInput}):`);
  for (const t of tgs)
    out.push(`  ${t.met ? "met " : "MISS"}  ${t.what}: ${t.measured.toFixed(2)} ${t.unit} (target ${t.target} ${t.unit})`);
  out.push("");
  out.push("'x native' = that implementation's time / native's (above 1: native is faster). Best of --repeat runs.");
  return out.join("\n");
}

const USAGE = `usage: prolong bench [--lines N[,N...]] [--log FILE]... [--repeat K] [--no-commands] [--no-processes] [--no-fixtures] [--json]

Whole processes first: prolong log stats, log sections, log grep and verify, each beside the standard tool
doing the nearest job on the same file (grep -c and rg -c of the separator or the pattern, cmp -n of the
copy), output read through a pipe, with wall and CPU time, peak memory (/usr/bin/time) and prolong's
anonymous memory, and prolong --version as the start-up floor. Then in process, on the same bytes: native
addon vs the best Bun-only way (section index, prefix verify, xxh3-128, blake3, all consecutive board diffs).
Inputs: generated logs of each size N (src/bench/gen-log.ts, seed 1) with a copy cut at a section boundary
at 80%, the four published PRO-LONG logs with their workspace copies when a shared/fixtures/prolong-release
folder sits beside the checkout (unless --no-fixtures), and every --log FILE. Also times the board diffs of
a generated 5,000-section log, and the inspection commands (log stats|sections|show|diff|grep, view) on the
320K-line log. The machine is printed first and a progress line runs on stderr. Run dist/prolong bench to
time the compiled binary's start-up.

options:
  --lines N,...  sizes of the generated logs in lines (default 10000,320000,2000000,8000000)
  --no-commands  skip the inspection-command timings
  --no-processes skip the whole-process timings
  --no-fixtures  leave out the published logs even when they sit beside the checkout
  --log FILE    add a log file (repeatable)
  --repeat K    runs per measurement: the best in process, the median of whole processes (default 5)
  --json        print the report as JSON`;

const flags = {
  lines: flag.textOr(DEFAULT_SIZES.join(",")),
  "no-commands": flag.bool(),
  "no-processes": flag.bool(),
  "no-fixtures": flag.bool(),
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
      console.error(
        `prolong bench: --lines takes whole numbers from 1 to 100000000 separated by commas, got '${parsed.values.lines}'\n  fix: e.g. prolong bench --lines 10000,320000 --repeat 5`,
      );
      return 2;
    }
    const missing = parsed.values.log.filter((f) => !existsSync(f));
    if (missing.length > 0) {
      console.error(`prolong bench: ${missing.join(", ")}: no such file\n  fix: give --log an existing log file`);
      return 2;
    }

    const m = machine();
    progress(formatMachine(m));
    // grep, rg and cmp read files, so the generated logs (and their copies) are written to a scratch directory.
    const scratch = mkdtempSync(path.join(tmpdir(), "prolong-bench-"));
    try {
      const inputs: Array<{ name: string; file: string; copy: string | null }> = [];
      for (const lines of sizes) {
        progress(`bench: generating a ${lines.toLocaleString("en")}-line log`);
        const generated = path.join(scratch, `generated-${lines}.txt`);
        const text = benchLog(lines);
        writeFileSync(generated, text);
        const copy = path.join(scratch, `generated-${lines}-copy.txt`);
        writeFileSync(copy, text.subarray(0, copyCut(text)));
        inputs.push({ name: `generated (${lines.toLocaleString("en")} lines)`, file: generated, copy });
      }
      const fixtures = parsed.values["no-fixtures"] ? null : fixturesDir();
      if (fixtures) {
        for (const g of FIXTURE_GAMES) {
          const copy = path.join(fixtures, g, "workspace", "logs.txt");
          inputs.push({ name: `fixture ${g}`, file: path.join(fixtures, g, "logs.txt"), copy: existsSync(copy) ? copy : null });
        }
      }
      for (const f of parsed.values.log) inputs.push({ name: f, file: f, copy: null });

      let processes: { figures: ProcessFigure[]; startup: ProcessFigure } | null = null;
      if (!parsed.values["no-processes"]) {
        const prolong = prolongArgv();
        progress("bench: whole process: prolong --version");
        const startup = timeProcess(
          "-",
          { job: "start-up", tool: "prolong", command: "prolong --version", argv: [...prolong, "--version"] },
          repeat,
        );
        const figures: ProcessFigure[] = [];
        for (const input of inputs) {
          const copy = input.copy ? { path: input.copy, bytes: statSync(input.copy).size } : null;
          for (const job of processJobs(prolong, input.file, copy)) {
            progress(`bench: whole process: ${job.command} on ${input.name}`);
            figures.push(timeProcess(input.name, job, repeat));
          }
        }
        processes = { figures, startup };
      }

      const reports = inputs.map((input, k) => {
        progress(`bench: timing ${input.name} (${k + 1} of ${inputs.length}; best of ${repeat}, in process)`);
        return benchInput(input.name, input.file, input.copy, repeat);
      });

      progress("bench: board diffs of a 5,000-section log");
      const log5k = Buffer.from(generateLog({ sections: 5000, seed: 2 }));
      const table5k = sectionIndex(log5k);
      const diff5k = {
        sections: table5k.count,
        ms: best(repeat, () => cellChanges(log5k, table5k)),
        withIndexMs: best(repeat, () => cellChanges(log5k, sectionIndex(log5k))),
      };
      // Targets and command timings on the 320K-line log, or the largest generated size below it.
      const below = sizes
        .map((n, i) => [n, i] as const)
        .filter(([n]) => n <= COMMANDS_SIZE)
        .sort((x, y) => y[0] - x[0]);
      const main = below[0]?.[1] ?? 0;
      const { name: mainName, file: mainFile } = inputs[main]!;
      if (!parsed.values["no-commands"]) progress(`bench: inspection commands on ${mainName}`);
      const commands = parsed.values["no-commands"]
        ? null
        : { input: mainName, timings: benchLogCommands(mainFile, (f) => best(repeat, f), true) };
      const bigIndex = sizes.indexOf(BIG_SIZE);
      const procTargets = processes
        ? processTargets(
            processes.figures,
            processes.startup,
            sizes.includes(COMMANDS_SIZE) ? mainName : null,
            bigIndex >= 0 ? inputs[bigIndex]!.name : null,
          )
        : [];
      const tgs = [...targets(reports[main]!, diff5k), ...(commands ? commandTargets(commands.timings) : []), ...procTargets];
      if (process.stderr.isTTY) process.stderr.write("\r\x1b[K");
      if (parsed.values.json) {
        console.log(
          JSON.stringify(
            {
              machine: m,
              repeat,
              processes,
              inputs: reports,
              boardDiffs5k: diff5k,
              commands,
              targetsInput: mainName,
              targets: tgs,
            },
            null,
            2,
          ),
        );
      } else {
        console.log(formatReport(m, processes, reports, diff5k, tgs, commands, mainName));
      }
      return 0;
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  },
};
