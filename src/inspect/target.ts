// Which sections a user means: "12" (the section(s) of Action 12), "3..9", "3..", "..9", "last" — or, with
// bySection, the same forms over 0-based section indices (the "#" column of `prolong log sections`).
// A lifetime log (--episodes) repeats an action number on the next episode's INITIAL STATE section, so an
// action number can select more than one section; an unreadable header (kind "other") has no action number
// and is reachable only by section index.
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";
import { SECTION_KIND, type SectionTable } from "../native.ts";

export interface Target {
  /** Inclusive bounds; null = open on that side. */
  readonly from: number | null;
  readonly to: number | null;
  readonly bySection: boolean;
  /** The text it was parsed from, for messages. */
  readonly text: string;
}

const FORMS = `an action number (12), a range (3..9, 3.., ..9) or "last"`;

function parseBound(s: string): number | null | undefined {
  if (s === "") return null;
  if (!/^\d+$/.test(s)) return undefined;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : undefined;
}

export function parseTarget(text: string, bySection = false): Result<Target, ProlongError> {
  const t = text.trim();
  const bad = () =>
    err(
      prolongError("bad-target", `${JSON.stringify(text)} is not ${FORMS}`, { fix: "e.g. `prolong log show logs.txt 10..20`" }),
    );
  if (t === "last") return ok({ from: -1, to: -1, bySection, text });
  const parts = t.split("..");
  if (parts.length === 1) {
    const n = parseBound(t);
    return n === undefined || n === null ? bad() : ok({ from: n, to: n, bySection, text });
  }
  if (parts.length !== 2) return bad();
  const from = parseBound(parts[0] ?? "");
  const to = parseBound(parts[1] ?? "");
  if (from === undefined || to === undefined || (from === null && to === null)) return bad();
  if (from !== null && to !== null && from > to) {
    return err(
      prolongError("bad-target", `range ${JSON.stringify(text)} runs backwards`, { fix: `write it low..high: ${to}..${from}` }),
    );
  }
  return ok({ from, to, bySection, text });
}

/** Indices of the sections a target selects, in log order; an error names what the log does hold. */
export function resolveTarget(table: SectionTable, target: Target): Result<number[], ProlongError> {
  const out: number[] = [];
  if (target.from === -1) {
    // "last": the last section (by index), or the last readable action section.
    if (target.bySection) {
      if (table.count > 0) out.push(table.count - 1);
    } else {
      for (let i = table.count - 1; i >= 0; i--) {
        if (table.kind[i] !== SECTION_KIND.other) {
          out.push(i);
          break;
        }
      }
    }
  } else if (target.bySection) {
    const lo = target.from ?? 0;
    const hi = Math.min(target.to ?? table.count - 1, table.count - 1);
    for (let i = lo; i <= hi; i++) out.push(i);
  } else {
    const lo = target.from ?? 0;
    const hi = target.to ?? Number.MAX_SAFE_INTEGER;
    for (let i = 0; i < table.count; i++) {
      if (table.kind[i] === SECTION_KIND.other) continue;
      const a = table.action[i] as number;
      if (a >= lo && a <= hi) out.push(i);
    }
  }
  if (out.length > 0) return ok(out);
  return err(
    prolongError(
      "no-such-section",
      `${target.bySection ? "section" : "action"} ${target.text} is not in this log (${describeSpan(table)})`,
      {
        fix: "`prolong log sections <log>` lists what the log holds",
      },
    ),
  );
}

function describeSpan(table: SectionTable): string {
  let first = -1;
  let last = -1;
  for (let i = 0; i < table.count; i++) {
    if (table.kind[i] === SECTION_KIND.other) continue;
    if (first < 0) first = table.action[i] as number;
    last = table.action[i] as number;
  }
  const actions = first < 0 ? "no readable action headers" : `actions ${first}..${last}`;
  return `${table.count} section(s), #0..#${table.count - 1}, ${actions}`;
}

/** One section for a single action number (or "last"): the first section that carries it. */
export function resolveOne(table: SectionTable, text: string, bySection = false): Result<number, ProlongError> {
  return parseTarget(text, bySection)
    .andThen((t) =>
      t.from === t.to
        ? ok(t)
        : err(
            prolongError(
              "bad-target",
              `${JSON.stringify(text)} is a range; one ${bySection ? "section index" : "action number"} is needed here`,
              { fix: "e.g. 12 or last" },
            ),
          ),
    )
    .andThen((t) => resolveTarget(table, t))
    .map((ids) => ids[0] as number);
}
