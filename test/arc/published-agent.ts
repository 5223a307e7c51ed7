// A scripted command agent that plays a published run again: each turn it reads how many actions the log
// already holds and asks for the batch the published agent asked for at that point, with the published
// agent's own [PLAN] text as its answer. Batches cut short by a level change are padded back to their length
// (the harness drops the rest, as it did then), so the Plan Step i/K headers come out the same.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { actionText } from "../../src/action-text.ts";
import type { LogSection } from "../../src/log/format.ts";

export interface PublishedBatch {
  /** Number of the action the batch's first entry becomes. */
  readonly first: number;
  readonly entries: string[];
  readonly answer: string;
}

export function publishedBatches(sections: readonly LogSection[]): PublishedBatch[] {
  const out: PublishedBatch[] = [];
  for (const s of sections) {
    if (s.header.kind !== "action" || !s.toolCall) continue;
    const step = s.header.planStep ?? { step: 1, total: 1 };
    if (step.step === 1) out.push({ first: s.header.action, entries: [], answer: s.plan ?? "" });
    out[out.length - 1]!.entries.push(actionText(s.toolCall, "entry"));
  }
  // Pad cut batches to their announced length: the padding is never executed.
  for (const s of sections) {
    const total = s.header.planStep?.total;
    if (total === undefined) continue;
    const b = out.findLast((x) => x.first <= s.header.action)!;
    while (b.entries.length < total) b.entries.push(b.entries[b.entries.length - 1]!);
  }
  return out;
}

/** Writes the batches and a Python agent to a temporary directory; returns the --cmd that runs it. */
export function publishedAgentCommand(batches: readonly PublishedBatch[]): string {
  const dir = mkdtempSync(join(tmpdir(), "prolong-published-agent-"));
  writeFileSync(join(dir, "batches.json"), JSON.stringify(batches));
  writeFileSync(
    join(dir, "agent.py"),
    [
      "import json, sys",
      `batches = json.load(open(${JSON.stringify(join(dir, "batches.json"))}))`,
      "done = sum(1 for line in open('logs.txt', encoding='utf-8') if line.startswith('Tool Call:'))",
      "b = next(b for b in batches if b['first'] == done + 1)",
      "json.dump({'actions': b['entries']}, open('actions.json', 'w'))",
      "sys.stdout.write(b['answer'])",
    ].join("\n"),
  );
  return `python3 ${join(dir, "agent.py")}`;
}
