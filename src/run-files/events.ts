// The run's event stream: one JSON object per line in <run-dir>/events.jsonl, optionally echoed to stdout
// for `--json`. Events are what happened (calls, actions, level changes, tampering); the master log stays the
// agent's memory and the index stays the harness's bookkeeping — events are for people and scripts.
import { closeSync, writeSync } from "node:fs";
import { err, ok, type Result } from "neverthrow";
import * as v from "valibot";
import { prolongError, type ProlongError } from "../errors.ts";
import { FILE_CAPS, openForAppend, readRegularText } from "../safe-file.ts";

/** The fields each kind of event carries besides time, run and kind. */
export interface EventFields {
  "run-start": {
    game: string;
    arm?: { name: string; fingerprint: string };
    agent: string;
    logWindow: string;
    maxActions: number;
    seed: number;
    /** The build of prolong that started or resumed the run (build-id.ts). */
    build?: { version: string; commit: string | null; code: string };
    resumed?: boolean;
    sandbox?: string;
  };
  "agent-call": { turn: number; action: number; prompt?: string };
  "agent-reply": {
    turn: number;
    ms: number;
    actions: number;
    toolCalls?: number;
    tokens?: { input: number; cached: number; output: number };
    exitCode?: number;
    text?: string;
  };
  action: { action: number; call: string; level: number; attempt: number; score: number; state: string; frames: number };
  "level-up": { action: number; level: number; score: number };
  "game-over": { action: number; level: number; attempt: number };
  reset: { action: number; level: number; attempt: number; reason: string };
  warning: { message: string; code?: string; path?: string };
  /** `file`: the workspace name ("logs.txt", "AGENTS.md", "." for the directory); the byte counts are the copy's. */
  tamper: {
    file: string;
    tamper: string;
    detail: string;
    expectedBytes?: number;
    foundBytes?: number;
    firstDiff?: number;
    turn?: number;
  };
  "episode-start": { episode: number; action: number };
  "episode-end": { episode: number; score: number; actions: number };
  "run-end": {
    reason: string;
    actions: number;
    levels: number;
    rhae?: number;
    agentCalls: number;
    tamperEvents: number;
    ms: number;
  };
}

export type EventKind = keyof EventFields;
export const EVENT_KINDS: readonly EventKind[] = [
  "run-start",
  "agent-call",
  "agent-reply",
  "action",
  "level-up",
  "game-over",
  "reset",
  "warning",
  "tamper",
  "episode-start",
  "episode-end",
  "run-end",
];

export type RunEvent<K extends EventKind = EventKind> = { time: string; run: string; kind: K } & EventFields[K];

/** Where a run's events go: events.jsonl by default, anything with this shape in tests. */
export interface EventSink {
  emit<K extends EventKind>(kind: K, fields: EventFields[K]): Result<RunEvent<K>, ProlongError>;
  close(): void;
}

export interface EventLogOptions {
  /** Identifies the run in every line (e.g. "2026-11-29T20-01-05/ft01"). */
  readonly run: string;
  /** Receives each line as written (with its "\n"): pass `(l) => process.stdout.write(l)` for `--json`. */
  readonly echo?: (line: string) => void;
  /** Time source; tests pin it. */
  readonly now?: () => Date;
}

export class EventLog implements EventSink {
  private constructor(
    readonly path: string,
    private fd: number,
    private readonly opts: EventLogOptions,
  ) {}

  /** Opens (creating, appending to) an events.jsonl file. */
  static open(path: string, opts: EventLogOptions): Result<EventLog, ProlongError> {
    // A symlink, FIFO or hard link at the name is refused: resume must never append through one.
    return openForAppend(path, "the event log", true)
      .map((fd) => new EventLog(path, fd, opts))
      .mapErr((e) => ({ ...e, code: "events-open" }));
  }

  /** Appends one event as one line in one write (O_APPEND), so concurrent readers never see half a line. */
  emit<K extends EventKind>(kind: K, fields: EventFields[K]): Result<RunEvent<K>, ProlongError> {
    const event = { time: (this.opts.now?.() ?? new Date()).toISOString(), run: this.opts.run, kind, ...fields } as RunEvent<K>;
    const line = `${JSON.stringify(event)}\n`;
    if (this.fd < 0) return err(prolongError("events-closed", "the event log is closed", { path: this.path }));
    try {
      writeSync(this.fd, line);
    } catch (e) {
      return err(prolongError("events-write", `cannot append to the event log: ${(e as Error).message}`, { path: this.path }));
    }
    this.opts.echo?.(line);
    return ok(event);
  }

  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }
}

// Reading back: the common frame is validated; per-kind fields are passed through (they are our own output,
// but a line cut by a crash or edited by hand must become an error that names it, not a throw).
const EventLine = v.looseObject({
  time: v.pipe(v.string(), v.isoTimestamp()),
  run: v.string(),
  kind: v.picklist(EVENT_KINDS),
});

/** Reads an events.jsonl; a bad line is an error naming its line number. A cut final line (crash) is skipped. */
export function readEvents(path: string): Result<RunEvent[], ProlongError> {
  const read = readRegularText(path, FILE_CAPS.events, "the event log");
  if (read.isErr()) return err({ ...read.error, code: "events-read" });
  const text = read.value;
  const lines = text.split("\n");
  // The last element is "" after a final "\n", or a line cut by a crash (no "\n"): either way it is dropped;
  // every complete line must parse.
  lines.pop();
  const out: RunEvent[] = [];
  for (const [i, line] of lines.entries()) {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      return err(prolongError("events-line", `line ${i + 1} is not JSON`, { path, fix: "remove or repair that line" }));
    }
    const parsed = v.safeParse(EventLine, json);
    if (!parsed.success) {
      const issue = parsed.issues[0];
      const field = issue.path?.map((p) => String(p.key)).join(".") ?? "(line)";
      return err(
        prolongError("events-line", `line ${i + 1}: field ${field}: ${issue.message}`, {
          path,
          fix: "each line needs time (ISO), run and a known kind",
        }),
      );
    }
    out.push(parsed.output as RunEvent);
  }
  return ok(out);
}
