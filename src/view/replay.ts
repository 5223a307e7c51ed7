// The replay a page shows, built from an indexed log and the run's events: one step per readable section
// (header fields, [PLAN] text, tool call, what the section says beside its picture, the picture: every board of
// its animation, or a screen's text rows and colours), tamper events placed at the action they followed, and
// every board packed into one byte array (one byte per cell) for compact embedding. Every kind's section is taken
// alike, from its codec's view; the page draws a step by its picture's declared form.
import type { Grid } from "../game-model.ts";
import { planStepText, type SectionSummary } from "../log/section-summary.ts";
import type { LoadedLog } from "../log/load.ts";
import { logGridMode, settledBoard } from "../inspect/board.ts";
import { readSection } from "../inspect/section-read.ts";
import type { ColourRun, EnvKind, SectionPicture } from "../game/kinds.ts";
import type { ViewSource } from "./source.ts";
import { turnCalls, type TurnCalls } from "./turn-calls.ts";

/**
 * One step of the page: a section's summary as the page script reads it — `section` is the summary's index,
 * the plan step is its text ("3/4", what the page prints), and the byte offset is left out: the steps are
 * embedded in the HTML, one per action, and the page has no use for it.
 */
export interface ReplayStep extends Pick<SectionSummary, "kind" | "action" | "level" | "attempt" | "score"> {
  readonly section: number;
  readonly planStep: string | null;
  /** Index into Replay.plans (plans repeat across a batch, so each text is stored once), or -1. */
  readonly plan: number;
  readonly toolCall: string | null;
  /** The clicked cell of an ACTION6. */
  readonly click: readonly [number, number] | null;
  readonly episode: string | null;
  /** Index of this step's first board in Replay.boards; its boards are animation frames then the settled one. */
  readonly board: number;
  readonly boards: number;
  /** Why the section did not parse whole (its settled board may still be shown). */
  readonly error: string | null;
  /** How the page draws it: cells (its boards, from Replay.boards) or text rows (`text`). */
  readonly form: SectionPicture["form"];
  /** A text picture's rows, joined by "\n", trailing blanks trimmed. */
  readonly text?: string;
  /** A text picture's coloured runs, per row: [first column, palette index 0..15, length]. */
  readonly colours?: readonly (readonly ColourRun[])[];
  /** What the section says beside its picture, one line each as logged (absent when it says nothing). */
  readonly lines?: readonly string[];
  /** How the game ended, when the section says so. */
  readonly end?: string;
  /** The header's "XL x | HP h(H) | Turn t" and its HP, when it carries them. */
  readonly vitals?: string;
  readonly hp?: number;
}

export interface ReplayTamper {
  /** The step shown after the tampering was found (the last action before it). */
  readonly step: number;
  readonly action: number | null;
  readonly kind: string;
  readonly detail: string;
}

export interface Replay {
  readonly title: string;
  /** What the header's Score counts, by the log's kind: levels completed (rhae) or progression in hundredths of a percent. */
  readonly metric: EnvKind["metric"] | null;
  readonly source: string;
  readonly steps: ReplayStep[];
  readonly plans: string[];
  /** Per board: width, height, and the offset of its cells in `cells`. */
  readonly boards: { readonly width: number[]; readonly height: number[]; readonly offset: number[] };
  readonly cells: Uint8Array;
  readonly tampers: ReplayTamper[];
  /** The tool calls of the turn behind each batch (from trajectory.jsonl). */
  readonly turns: TurnCalls;
  readonly scorecard: ViewSource["scorecard"];
  readonly warnings: string[];
}

class BoardStore {
  readonly width: number[] = [];
  readonly height: number[] = [];
  readonly offset: number[] = [];
  private chunks: Uint8Array[] = [];
  private size = 0;
  add(g: Grid): void {
    this.width.push(g.width);
    this.height.push(g.height);
    this.offset.push(this.size);
    this.chunks.push(g.cells);
    this.size += g.cells.length;
  }
  get count(): number {
    return this.width.length;
  }
  cells(): Uint8Array {
    const out = new Uint8Array(this.size);
    let o = 0;
    for (const c of this.chunks) {
      out.set(c, o);
      o += c.length;
    }
    return out;
  }
}

/** Tamper events placed after the action the event stream last reported before them. */
function placeTampers(source: ViewSource, steps: readonly ReplayStep[]): ReplayTamper[] {
  const out: ReplayTamper[] = [];
  let last: number | null = null;
  for (const e of source.events) {
    if ((e.kind === "action" || e.kind === "agent-call") && typeof (e as { action?: unknown }).action === "number") {
      last = (e as { action: number }).action;
    }
    if (e.kind !== "tamper") continue;
    const t = e as unknown as { tamper: string; detail: string };
    let step = 0;
    if (last !== null)
      for (let i = 0; i < steps.length; i++) if ((steps[i]?.action ?? -1) <= last && steps[i]?.action !== null) step = i;
    out.push({ step, action: last, kind: String(t.tamper), detail: String(t.detail) });
  }
  return out;
}

/** A step's fields from its section's header, the same for a grid board and a terminal screen. */
function headerFields(r: ReturnType<typeof readSection>, section: number) {
  return {
    section,
    kind: r.kind,
    action: r.action,
    level: r.level,
    attempt: r.attempt,
    score: r.score,
    planStep: planStepText(r.planStep),
  };
}

export function buildReplay(log: LoadedLog, source: ViewSource): Replay {
  const mode = logGridMode(log);
  const store = new BoardStore();
  const plans: string[] = [];
  const planIds = new Map<string, number>();
  /** A plan's number in `plans`: each distinct plan text is stored once, however many steps share it. */
  const planId = (p: string): number => {
    const known = planIds.get(p);
    if (known !== undefined) return known;
    planIds.set(p, plans.length);
    return plans.push(p) - 1;
  };
  const steps: ReplayStep[] = [];
  const warnings = [...source.warnings];
  let skipped = 0;
  let metric: Replay["metric"] = null;
  for (let i = 0; i < log.table.count; i++) {
    const r = readSection(log, i, source.kind);
    const first = store.count;
    const v = r.view;
    if (v) {
      metric ??= r.by?.metric ?? null;
      const p = v.picture;
      if (p.form === "cells") {
        for (const f of p.frames) store.add(f);
        store.add(p.board);
      }
      const vitals = v.header.vitals;
      steps.push({
        ...headerFields(r, i),
        plan: v.plan !== undefined ? planId(v.plan) : -1,
        toolCall: v.action ?? null,
        click: v.click ?? null,
        episode: v.episode ? `${v.episode.index}/${v.episode.total}` : null,
        board: first,
        boards: store.count - first,
        error: null,
        form: p.form,
        ...(p.form === "text"
          ? { text: p.rows.map((l) => l.trimEnd()).join("\n"), ...(p.colours ? { colours: p.colours } : {}) }
          : {}),
        ...(v.lines.length > 0 ? { lines: v.lines } : {}),
        ...(v.end !== undefined ? { end: v.end } : {}),
        ...(vitals ? { vitals: `XL ${vitals.xl} | HP ${vitals.hp}(${vitals.hpMax}) | Turn ${vitals.turn}`, hp: vitals.hp } : {}),
      });
      continue;
    }
    // Not readable as a whole: keep what can be read, the header from the index and the settled board.
    const g = settledBoard(log, i, mode);
    if (g.isOk()) store.add(g.value);
    else if (r.kind === "other") {
      skipped++;
      continue;
    }
    steps.push({
      ...headerFields(r, i),
      plan: -1,
      toolCall: null,
      click: null,
      episode: null,
      board: first,
      boards: store.count - first,
      error: r.error,
      form: "cells",
    });
  }
  const bad = steps.filter((s) => s.error !== null).length;
  if (bad > 0) warnings.push(`${bad} section(s) did not parse whole; shown with what could be read`);
  if (skipped > 0) warnings.push(`${skipped} section(s) with neither a header nor a board were left out`);
  const last = log.table.count - 1;
  // The native table calls a section complete by its blank line or a square board: a text picture is never square.
  if (last >= 0 && log.table.complete[last] === 0 && steps[steps.length - 1]?.form !== "text")
    warnings.push(`the log ends inside section #${last}: it was cut while being written`);
  return {
    title: source.title,
    metric,
    source: source.logPath,
    steps,
    plans,
    boards: { width: store.width, height: store.height, offset: store.offset },
    cells: store.cells(),
    tampers: placeTampers(source, steps),
    turns: turnCalls(source.events, source.trajectory),
    scorecard: source.scorecard,
    warnings,
  };
}
