// The run index (index.sqlite in the run directory): harness bookkeeping that never reaches an agent.
// It holds each master section's byte range and xxh3-128, the offset of the master the agent's copy is
// OWNED up to (the sync never trusts the copy's own size), checksums of what was written to the copy,
// key-value run state for resume, and tamper/other events.
import { Database } from "bun:sqlite";
import { err, ok, type Result } from "neverthrow";
import { parseLogWindow, windowText, type LogWindow } from "../config/log-window.ts";
import { prolongError, type ProlongError } from "../errors.ts";
import { xxh3_128 } from "../native.ts";
import { SECTION_JOIN, sectionAppendText, type GridMode, type LogSection, type SectionHeader } from "./format.ts";
import type { AppendRange, ByteSource, MasterLog } from "./master.ts";
import type { SectionKindName } from "../native.ts";
import type { SectionLookup, SectionSpan } from "./window.ts";

/**
 * One recorded section of the master. Its range is the section as writeSection gives it (separator to the
 * final "\n\n"); the SECTION_JOIN "\n" that precedes every section after the first belongs to no section.
 */
export interface SectionRow extends SectionSpan {
  readonly xxh3: string;
  readonly action: number | null;
  readonly level: number | null;
  readonly attempt: number | null;
  readonly score: number | null;
  readonly frames: number;
}

/** A checksummed byte range of the agent's copy (copy offsets), as the harness wrote it. */
export interface CopyChunk {
  readonly start: number;
  readonly end: number;
  readonly xxh3: string;
}

/** What the harness last wrote to the agent's copy. */
export interface CopyState {
  /** The window it was written under (stored in its text form, e.g. "last:25"). */
  readonly window: LogWindow;
  /** The master offset the copy is synced up to: the harness's, never derived from the copy. */
  readonly owned: number;
  /** Bytes of the copy as written (= owned for the full log). */
  readonly size: number;
  /** Checksums covering [0, size) in order; the full log grows one chunk per sync. */
  readonly chunks: readonly CopyChunk[];
}

export interface IndexEvent {
  readonly id: number;
  readonly time: string;
  readonly kind: string;
  readonly fields: Record<string, unknown>;
}

/** A section whose bytes in the master no longer match the checksum recorded when it was appended. */
export interface SectionMismatch {
  readonly ordinal: number;
  readonly start: number;
  readonly end: number;
  readonly expected: string;
  readonly found: string;
}

// Each entry moves the schema one user_version up. Never edit a shipped entry: add one.
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE sections (
     ordinal INTEGER PRIMARY KEY, start INTEGER NOT NULL, "end" INTEGER NOT NULL, xxh3 TEXT NOT NULL,
     kind TEXT NOT NULL, action INTEGER, level INTEGER, attempt INTEGER, score INTEGER, frames INTEGER NOT NULL);
   CREATE INDEX sections_by_kind ON sections(kind, ordinal);
   CREATE TABLE copy_state (id INTEGER PRIMARY KEY CHECK (id = 1), window TEXT NOT NULL, owned INTEGER NOT NULL, size INTEGER NOT NULL);
   CREATE TABLE copy_chunks (start INTEGER PRIMARY KEY, "end" INTEGER NOT NULL, xxh3 TEXT NOT NULL);
   CREATE TABLE state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE events (id INTEGER PRIMARY KEY, time TEXT NOT NULL, kind TEXT NOT NULL, fields TEXT NOT NULL);`,
];

export const INDEX_SCHEMA_VERSION = MIGRATIONS.length;

const SPAN_COLUMNS = `ordinal, start, "end", kind`;
const ROW_COLUMNS = `ordinal, start, "end", kind, xxh3, action, level, attempt, score, frames`;

export class RunIndex implements SectionLookup {
  private constructor(
    readonly path: string,
    private readonly db: Database,
  ) {}

  static open(path: string): Result<RunIndex, ProlongError> {
    let db: Database;
    try {
      db = new Database(path, { create: true, strict: true });
      db.run("PRAGMA journal_mode = WAL");
      // NORMAL in WAL mode: a power cut may lose the last transactions but never corrupts the file; resume
      // re-checks the master against what the index holds anyway.
      db.run("PRAGMA synchronous = NORMAL");
      db.run("PRAGMA busy_timeout = 2000");
    } catch (e) {
      return err(prolongError("index-open", `cannot open the run index: ${(e as Error).message}`, { path, fix: "check that the run directory is writable and the file is a prolong index.sqlite" }));
    }
    const migrated = migrate(db, path);
    if (migrated.isErr()) {
      db.close();
      return err(migrated.error);
    }
    return ok(new RunIndex(path, db));
  }

  close(): void {
    this.db.close();
  }

  /** Runs fn in one transaction (a turn's section rows and copy state land together or not at all). */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  // ---- sections ----

  /** Records the next section; its ordinal is the number of sections before it. */
  addSection(row: Omit<SectionRow, "ordinal">): SectionRow {
    const ordinal = this.count();
    const full = { ...row, ordinal };
    this.db
      .query(`INSERT INTO sections (${ROW_COLUMNS}) VALUES ($ordinal, $start, $end, $kind, $xxh3, $action, $level, $attempt, $score, $frames)`)
      .run(full);
    return full;
  }

  count(): number {
    return (this.db.query(`SELECT count(*) AS n FROM sections`).get() as { n: number }).n;
  }

  section(ordinal: number): SectionRow | undefined {
    return (this.db.query(`SELECT ${ROW_COLUMNS} FROM sections WHERE ordinal = ?`).get(ordinal) as SectionRow | null) ?? undefined;
  }

  sections(): SectionRow[] {
    return this.db.query(`SELECT ${ROW_COLUMNS} FROM sections ORDER BY ordinal`).all() as SectionRow[];
  }

  first(): SectionSpan | undefined {
    return (this.db.query(`SELECT ${SPAN_COLUMNS} FROM sections ORDER BY ordinal LIMIT 1`).get() as SectionSpan | null) ?? undefined;
  }

  last(): SectionSpan | undefined {
    return (this.db.query(`SELECT ${SPAN_COLUMNS} FROM sections ORDER BY ordinal DESC LIMIT 1`).get() as SectionSpan | null) ?? undefined;
  }

  nthLastAction(n: number): SectionSpan | undefined {
    if (n < 1) return undefined;
    return (this.db.query(`SELECT ${SPAN_COLUMNS} FROM sections WHERE kind = 'action' ORDER BY ordinal DESC LIMIT 1 OFFSET ?`).get(n - 1) as SectionSpan | null) ?? undefined;
  }

  /** End of the last recorded section: how far the master is trusted (0 when empty). */
  lastEnd(): number {
    return this.last()?.end ?? 0;
  }

  /** The sections as they were when the master ended at `end` (to rebuild a window written earlier). */
  lookupUpTo(end: number): SectionLookup {
    const db = this.db;
    return {
      count: () => (db.query(`SELECT count(*) AS n FROM sections WHERE "end" <= ?`).get(end) as { n: number }).n,
      first: () => (db.query(`SELECT ${SPAN_COLUMNS} FROM sections WHERE "end" <= ? ORDER BY ordinal LIMIT 1`).get(end) as SectionSpan | null) ?? undefined,
      last: () => (db.query(`SELECT ${SPAN_COLUMNS} FROM sections WHERE "end" <= ? ORDER BY ordinal DESC LIMIT 1`).get(end) as SectionSpan | null) ?? undefined,
      nthLastAction: (n) => n < 1 ? undefined
        : (db.query(`SELECT ${SPAN_COLUMNS} FROM sections WHERE kind = 'action' AND "end" <= ? ORDER BY ordinal DESC LIMIT 1 OFFSET ?`).get(end, n - 1) as SectionSpan | null) ?? undefined,
    };
  }

  /**
   * Re-hashes every recorded section in the master; the first whose bytes changed (or that the master no
   * longer holds) is returned, null when all match.
   */
  verifySections(master: ByteSource): Result<SectionMismatch | null, ProlongError> {
    const rows = this.sections();
    const end = rows.length > 0 ? (rows[rows.length - 1] as SectionRow).end : 0;
    const have = Math.min(end, master.size);
    const got = master.read(0, have);
    if (got.isErr()) return err(got.error);
    const all = got.value;
    for (const r of rows) {
      const found = r.end <= have ? xxh3_128(all, r.start, r.end) : "(missing: the master ends before this section)";
      if (found !== r.xxh3) return ok({ ordinal: r.ordinal, start: r.start, end: r.end, expected: r.xxh3, found });
    }
    return ok(null);
  }

  // ---- the agent's copy ----

  /** Null before the first sync. A window this prolong cannot read is an error naming the index. */
  copyState(): Result<CopyState | null, ProlongError> {
    const row = this.db.query(`SELECT window, owned, size FROM copy_state WHERE id = 1`).get() as { window: string; owned: number; size: number } | null;
    if (!row) return ok(null);
    const window = parseLogWindow(row.window);
    if (window.isErr()) return err(prolongError("bad-index", `the index records an unknown window for the copy: ${window.error.message}`, { path: this.path, fix: "resume with the prolong version that started the run" }));
    const chunks = this.db.query(`SELECT start, "end", xxh3 FROM copy_chunks ORDER BY start`).all() as CopyChunk[];
    return ok({ window: window.value, owned: row.owned, size: row.size, chunks });
  }

  /** Records what was just written to the copy (the chunk list is replaced; the sync keeps it short). */
  setCopyState(s: CopyState): void {
    this.transaction(() => {
      this.db.query(`INSERT OR REPLACE INTO copy_state (id, window, owned, size) VALUES (1, ?, ?, ?)`).run(windowText(s.window), s.owned, s.size);
      this.db.run(`DELETE FROM copy_chunks`);
      const put = this.db.query(`INSERT INTO copy_chunks (start, "end", xxh3) VALUES (?, ?, ?)`);
      for (const c of s.chunks) put.run(c.start, c.end, c.xxh3);
    });
  }

  // ---- run state for resume ----

  setState(key: string, value: unknown): void {
    this.db.query(`INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)`).run(key, JSON.stringify(value));
  }

  /** The stored JSON value, undefined when absent. Callers validate it (valibot) like any external input. */
  getState(key: string): unknown {
    const row = this.db.query(`SELECT value FROM state WHERE key = ?`).get(key) as { value: string } | null;
    return row ? JSON.parse(row.value) : undefined;
  }

  // ---- events ----

  recordEvent(kind: string, fields: Record<string, unknown>, time: Date = new Date()): number {
    const r = this.db.query(`INSERT INTO events (time, kind, fields) VALUES (?, ?, ?)`).run(time.toISOString(), kind, JSON.stringify(fields));
    return Number(r.lastInsertRowid);
  }

  events(kind?: string): IndexEvent[] {
    const rows = (kind === undefined
      ? this.db.query(`SELECT id, time, kind, fields FROM events ORDER BY id`).all()
      : this.db.query(`SELECT id, time, kind, fields FROM events WHERE kind = ? ORDER BY id`).all(kind)) as { id: number; time: string; kind: string; fields: string }[];
    return rows.map((r) => ({ ...r, fields: JSON.parse(r.fields) as Record<string, unknown> }));
  }
}

function migrate(db: Database, path: string): Result<void, ProlongError> {
  const current = (db.query(`PRAGMA user_version`).get() as { user_version: number }).user_version;
  if (current > MIGRATIONS.length) {
    return err(prolongError("index-version", `the run index has schema version ${current}, newer than this prolong knows (${MIGRATIONS.length})`, { path, fix: "use the prolong version that wrote this run" }));
  }
  try {
    db.transaction(() => {
      for (let v = current; v < MIGRATIONS.length; v++) db.run(MIGRATIONS[v] as string);
      db.run(`PRAGMA user_version = ${MIGRATIONS.length}`);
    })();
  } catch (e) {
    const full = (e as { code?: string }).code === "SQLITE_FULL" || (e as { code?: string }).code?.startsWith("SQLITE_IOERR") === true;
    return err(prolongError("index-migrate", `cannot bring the run index to schema ${MIGRATIONS.length}: ${(e as Error).message}`, { path, fix: full ? "free disk space, then run the command again" : "check that the run directory is writable and the file is a prolong index.sqlite" }));
  }
  return ok(undefined);
}

/** The index row for a section just appended: its range, the checksum of its bytes and its header fields. */
/**
 * The cheap check before every agent call: the master (by its own descriptor's fstat) ends exactly where the
 * index says, and its last section still has the checksum recorded when it was written. An edit of the
 * master's tail or an append by anything but this harness is caught during the run, not only at resume.
 */
export function verifyMasterTail(master: MasterLog, index: RunIndex): Result<void, ProlongError> {
  const fix = "the master log was changed outside prolong (another process, or an agent that reached it); restore it from a backup";
  const size = master.fileSize();
  if (size.isErr()) return err(size.error);
  const end = index.lastEnd();
  if (size.value !== end) {
    return err(prolongError("master-changed", `the master log is ${size.value} bytes but this run wrote ${end}`, { path: master.path, fix }));
  }
  const count = index.count();
  if (count === 0) return ok(undefined);
  const last = index.section(count - 1) as SectionRow;
  const bytes = master.read(last.start, last.end);
  if (bytes.isErr()) return err(bytes.error);
  if (xxh3_128(bytes.value) !== last.xxh3) {
    return err(prolongError("master-changed", `the master log's last section (bytes ${last.start}..${last.end}) no longer matches its checksum`, { path: master.path, fix }));
  }
  return ok(undefined);
}

export function sectionRow(range: AppendRange, bytes: Uint8Array, header: SectionHeader | null, frames: number): Omit<SectionRow, "ordinal"> {
  if (bytes.length !== range.end - range.start) throw new RangeError(`sectionRow: ${bytes.length} bytes for range ${range.start}..${range.end}`);
  const kind: SectionKindName = header ? header.kind : "other";
  return {
    start: range.start,
    end: range.end,
    kind,
    xxh3: xxh3_128(bytes),
    action: header?.action ?? null,
    level: header?.level ?? null,
    attempt: header?.attempt ?? null,
    score: header?.score ?? null,
    frames,
  };
}

const encoder = new TextEncoder();

/**
 * The one way a section enters a run: appended to the master in one write, then recorded in the index with
 * the checksum of its bytes. The master is written first, so a crash in between leaves bytes past the
 * index's lastEnd() — what MasterLog.tailAfter reports to resume.
 */
export function appendSection(master: MasterLog, index: RunIndex, s: LogSection, mode: GridMode): Result<SectionRow, ProlongError> {
  return appendSectionText(master, index, (logIsEmpty) => sectionAppendText(s, mode, logIsEmpty), s.header, s.frames.length + 1);
}

/**
 * The same for a section whose body an environment writes itself (a terminal game's screen): `text` gives
 * the section's bytes as appended to a log that is or is not empty (the join "\n" first unless it is).
 */
export function appendSectionText(master: MasterLog, index: RunIndex, text: (logIsEmpty: boolean) => string, header: SectionHeader, frames: number): Result<SectionRow, ProlongError> {
  const bytes = encoder.encode(text(master.size === 0));
  const join = master.size === 0 ? 0 : SECTION_JOIN.length;
  return master.append(bytes).map((range) => {
    const own = { start: range.start + join, end: range.end };
    return index.addSection(sectionRow(own, bytes.subarray(join), header, frames));
  });
}
