// Harness overhead per turn — append one section to the master, record it in the index, verify the agent's
// copy and sync it — on a log that grows one section at a time to 10K, 100K and 320K lines (a generated log
// in the paper's format). Target: ≤ 10 ms per turn at 320K lines, growing linearly with the log.
//
//   bun scripts/bench-sync.ts [--lines 320000] [--window 30] [--seed 1] [--json]
//
// Each turn here is ONE section (the worst case: a real turn usually brings 1–20 actions), synced under the
// full-log arm. Reported per checkpoint: the median over the `--window` turns just before the log reaches it,
// split into append+index and verify+sync.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { SECTION_JOIN, type SectionHeader } from "../src/log/format.ts";
import { RunIndex, sectionRow } from "../src/log/run-index.ts";
import { MasterLog } from "../src/log/master.ts";
import { syncAgentCopy } from "../src/workspace/copy.ts";
import { WorkspaceDir } from "../src/workspace/dir.ts";
import { SECTION_KIND, sectionIndex, type SectionTable } from "../src/native.ts";
import { generateLog } from "../src/bench/gen-log.ts";

const usage = `usage: bun scripts/bench-sync.ts [--lines N] [--window K] [--seed S] [--json]
  --lines N    grow the log to N lines (default 320000); checkpoints at 10K, 100K and N
  --window K   turns per checkpoint median (default 30)`;

const { values } = parseArgs({
  options: {
    lines: { type: "string", default: "320000" },
    window: { type: "string", default: "30" },
    seed: { type: "string", default: "1" },
    json: { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const maxLines = Number(values.lines);
const window = Number(values.window);
const checkpoints = [10_000, 100_000, maxLines].filter((n, i, a) => n <= maxLines && a.indexOf(n) === i);

function header(t: SectionTable, i: number): SectionHeader | null {
  const kind = t.kind[i];
  if (kind === SECTION_KIND.other) return null;
  const base = {
    action: t.action[i] as number,
    level: t.level[i] as number,
    attempt: t.attempt[i] as number,
    score: t.score[i] as number,
  };
  return kind === SECTION_KIND.initial ? { ...base, kind: "initial" } : { ...base, kind: "action" };
}

const log = new TextEncoder().encode(generateLog({ lines: maxLines, seed: Number(values.seed) }));
const table = sectionIndex(log);
// Collect the generator's garbage now, so the first checkpoint does not pay for it.
Bun.gc(true);
const dir = mkdtempSync(join(tmpdir(), "prolong-bench-sync-"));
mkdirSync(join(dir, "workspace"));
const master = MasterLog.open(join(dir, "logs.txt"))._unsafeUnwrap();
const index = RunIndex.open(join(dir, "index.sqlite"))._unsafeUnwrap();
const workspace = WorkspaceDir.open(join(dir, "workspace"))._unsafeUnwrap();

interface Turn {
  lines: number;
  bytes: number;
  appendMs: number;
  syncMs: number;
}
const turns: Turn[] = [];
let lines = 0;
for (let i = 0; i < table.count; i++) {
  const start = table.start[i] as number;
  const next = table.end[i] as number;
  const own = log.subarray(start, i < table.count - 1 ? next - SECTION_JOIN.length : next);
  const piece = i === 0 ? own : log.subarray(start - SECTION_JOIN.length, own.byteOffset - log.byteOffset + own.length);
  const t0 = performance.now();
  const range = master.append(piece)._unsafeUnwrap();
  index.addSection(
    sectionRow({ start: range.end - own.length, end: range.end }, own, header(table, i), table.frames[i] as number),
  );
  const t1 = performance.now();
  const rep = syncAgentCopy({ master, workspace, index, window: { kind: "full" } })._unsafeUnwrap();
  const t2 = performance.now();
  if (rep.tamper) throw new Error(`unexpected tamper event in the bench: ${rep.tamper.detail}`);
  for (let p = piece.indexOf(10); p !== -1; p = piece.indexOf(10, p + 1)) lines++;
  turns.push({ lines, bytes: master.size, appendMs: t1 - t0, syncMs: t2 - t1 });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : ((s[(s.length - 1) >> 1] as number) + (s[s.length >> 1] as number)) / 2;
};

const rows = checkpoints.map((target) => {
  const upTo = turns.findIndex((t) => t.lines >= target);
  const end = upTo === -1 ? turns.length : upTo + 1;
  const sample = turns.slice(Math.max(0, end - window), end);
  const last = sample[sample.length - 1] as Turn;
  const appendMs = median(sample.map((t) => t.appendMs));
  const syncMs = median(sample.map((t) => t.syncMs));
  const totalMs = median(sample.map((t) => t.appendMs + t.syncMs));
  return {
    lines: last.lines,
    bytes: last.bytes,
    turns: sample.length,
    appendMs,
    syncMs,
    totalMs,
    msPerMB: totalMs / (last.bytes / 1e6),
  };
});

master.close();
index.close();
rmSync(dir, { recursive: true, force: true });

if (values.json) {
  console.log(JSON.stringify({ sections: table.count, rows }, null, 2));
} else {
  console.log(`harness overhead per turn (one section appended, indexed, copy verified and synced), ${table.count} sections`);
  console.log("    lines        MB   append+index ms   verify+sync ms   total ms   ms per MB");
  for (const r of rows) {
    console.log(
      `${String(r.lines).padStart(9)} ${(r.bytes / 1e6).toFixed(2).padStart(9)} ${r.appendMs.toFixed(3).padStart(17)} ${r.syncMs.toFixed(3).padStart(16)} ${r.totalMs.toFixed(3).padStart(10)} ${r.msPerMB.toFixed(3).padStart(11)}`,
    );
  }
  const worst = rows[rows.length - 1];
  if (worst)
    console.log(
      `target ≤ 10 ms per turn at ${worst.lines} lines: ${worst.totalMs <= 10 ? "met" : "MISSED"} (${worst.totalMs.toFixed(2)} ms)`,
    );
}
