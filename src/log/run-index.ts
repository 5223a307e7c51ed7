// The run index (index.sqlite in the run directory): harness bookkeeping that never reaches an agent.
// It holds each master section's byte range and xxh3-128, the offset of the master the agent's copy is
// OWNED up to (the sync never trusts the copy's own size), checksums of what was written to the copy,
// key-value run state for resume, and tamper/other events.
import { Database } from "bun:sqlite";
import { statSync } from "node:fs";
import { dirname } from "node:path";
import { checkRegularFile } from "../safe-file.ts";
import { err, ok, type Result } from "neverthrow";
import { parseLogWindow, windowText, type LogWindow } from "../setting/log-window.ts";
import { prolongError, type ProlongError } from "../errors.ts";
import { xxh3_128 } from "../native.ts";
import { SECTION_JOIN, sectionAppendText, type GridMode, type LogSection, type SectionHeader } from "./format.ts";
import type { AppendRange, ByteSource, MasterLog } from "./master.ts";
import type { SectionKindName } from "../native.ts";
import type { SectionLookup, SectionSpan } from "./window.ts";

/**
 * One recorded section of the master: what the harness appended and trusts (range, checksum), not what a
 * reader finds in a log file — that is log/section-summary.ts's SectionSummary. Its range is the section as writeSection gives it (separator to the
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
const INDEX_TABLES = ["sections", "copy_state", "copy_chunks", "state", "events"] as const;

/** How a command opens a run index (RunIndex.open). */
export type IndexOpenMode = "create" | "existing" | "read-only";

const SPAN_COLUMNS = `ordinal, start, "end", kind`;
const ROW_COLUMNS = `ordinal, start, "end", kind, xxh3, action, level, attempt, score, frames`;

export class RunIndex {
  private constructor(
    readonly path: string,
    private readonly db: Database,
  ) {}

  /**
   * Opens a run's index. `create` (a new run): made when missing, brought to the current schema. `existing`
   * (resume): it must be there, not empty, and a prolong index already — a missing, emptied or foreign file
   * would otherwise be made into a fresh, empty index that vouches for nothing, and resume would re-finish
   * the run or take an edited master on trust. `read-only` (verify, inspection): opened read-only, never
   * migrated, never checkpointed; a file that is not a prolong index at this schema is refused as it is.
   * In every mode the name must be a regular file: SQLite would follow a symlink there.
   */
  static open(path: string, opts: { mode?: IndexOpenMode } = {}): Result<RunIndex, ProlongError> {
    const mode = opts.mode ?? "create";
    const there = checkRegularFile(path, "the run index");
    if (there.isErr()) return err({ ...there.error, code: "bad-index" });
    if (mode !== "create") {
      if (!there.value)
        return err(
          prolongError("index-missing", "the run index (index.sqlite) is missing: the master cannot be checked against it", {
            path,
            fix: "restore index.sqlite from a backup; without it this run cannot be resumed or verified, start a new one with `prolong play`",
          }),
        );
      let size = 0;
      try {
        size = statSync(path).size;
      } catch {
        /* the open below reports it */
      }
      if (size === 0)
        return err(
          prolongError("index-empty", "the run index (index.sqlite) is empty: it records nothing to check the master against", {
            path,
            fix: "restore index.sqlite from a backup; without it this run cannot be resumed or verified, start a new one with `prolong play`",
          }),
        );
    }
    let db: Database;
    try {
      if (mode === "read-only") {
        db = new Database(path, { readonly: true, strict: true });
        const r = checkReadOnly(db, path);
        if (r.isErr()) {
          db.close();
          return err(r.error);
        }
        return ok(new RunIndex(path, db));
      }
      db = new Database(path, { create: mode === "create", readwrite: true, strict: true });
      db.run("PRAGMA journal_mode = WAL");
      // NORMAL in WAL mode: a power cut may lose the last transactions but never corrupts the file; resume
      // re-checks the master against what the index holds anyway.
      db.run("PRAGMA synchronous = NORMAL");
      db.run("PRAGMA busy_timeout = 2000");
    } catch (e) {
      return err(
        prolongError("index-open", `cannot open the run index: ${(e as Error).message}`, {
          path,
          fix: "check that the run directory is writable and the file is a prolong index.sqlite",
        }),
      );
    }
    const migrated = migrate(db, path, mode === "create");
    if (migrated.isErr()) {
      db.close();
      return err(migrated.error);
    }
    return ok(new RunIndex(path, db));
  }

  /** Closing flushes the WAL, so it can fail like a write (a full disk). */
  close(): Result<void, ProlongError> {
    return this.io("close", () => this.db.close());
  }

  /**
   * Every statement goes through here: what bun:sqlite throws (a full disk, a read-only or damaged file)
   * comes back as an error naming the index and the fix. Anything else thrown is a bug and is thrown on.
   */
  private io<T>(doing: string, fn: () => T): Result<T, ProlongError> {
    try {
      return ok(fn());
    } catch (e) {
      if (e instanceof DamagedIndex) return err(damaged(this.path, e.message));
      const f = indexFailure(e, this.path, doing);
      if (f === null) throw e;
      return err(f);
    }
  }

  // ---- sections ----

  /** Records the next section; its ordinal is the number of sections before it. */
  addSection(row: Omit<SectionRow, "ordinal">): Result<SectionRow, ProlongError> {
    return this.io("record a section", () => {
      const ordinal = (this.db.query(`SELECT count(*) AS n FROM sections`).get() as { n: number }).n;
      const full = { ...row, ordinal };
      this.db
        .query(
          `INSERT INTO sections (${ROW_COLUMNS}) VALUES ($ordinal, $start, $end, $kind, $xxh3, $action, $level, $attempt, $score, $frames)`,
        )
        .run(full);
      return full;
    });
  }

  count(): Result<number, ProlongError> {
    return this.io("count the sections", () => (this.db.query(`SELECT count(*) AS n FROM sections`).get() as { n: number }).n);
  }

  section(ordinal: number): Result<SectionRow | undefined, ProlongError> {
    return this.io(
      "read a section",
      () =>
        (this.db.query(`SELECT ${ROW_COLUMNS} FROM sections WHERE ordinal = ?`).get(ordinal) as SectionRow | null) ?? undefined,
    ).andThen((r) => (r === undefined ? ok(r) : checkRow(r, this.path)));
  }

  /** Every recorded section, each checked, in order: each starts where the one before ended or after. */
  sections(): Result<SectionRow[], ProlongError> {
    const read = this.io(
      "read the sections",
      () => this.db.query(`SELECT ${ROW_COLUMNS} FROM sections ORDER BY ordinal`).all() as SectionRow[],
    );
    if (read.isErr()) return read;
    let end = 0;
    for (const [i, r] of read.value.entries()) {
      const c = checkRow(r, this.path);
      if (c.isErr()) return err(c.error);
      if (r.ordinal !== i || r.start < end)
        return err(damaged(this.path, `section ${r.ordinal} does not follow section ${i - 1}`));
      end = r.end;
    }
    return ok(read.value);
  }

  /** End of the last recorded section: how far the master is trusted (0 when empty). */
  lastEnd(): Result<number, ProlongError> {
    return this.io(
      "read the last section",
      () => (this.db.query(`SELECT "end" FROM sections ORDER BY ordinal DESC LIMIT 1`).get() as { end: number } | null)?.end ?? 0,
    ).andThen((end) => (isOffset(end) ? ok(end) : err(damaged(this.path, `the last section ends at ${String(end)}`))));
  }

  /**
   * What a window needs to know about the sections, read in one go: the first and last section and the
   * newest `actions` action sections (a last:N window needs N; the other windows none), among the sections
   * that ended by `upTo` (the master as it was then; default all). Asking the lookup for an older action
   * section than was read is a bug in the caller.
   */
  lookup(opts: { upTo?: number; actions?: number } = {}): Result<SectionLookup, ProlongError> {
    const upTo = opts.upTo ?? Number.MAX_SAFE_INTEGER;
    const read = opts.actions ?? 0;
    return this.io("read the section ranges", () => {
      const db = this.db;
      const count = (db.query(`SELECT count(*) AS n FROM sections WHERE "end" <= ?`).get(upTo) as { n: number }).n;
      const first =
        (db
          .query(`SELECT ${SPAN_COLUMNS} FROM sections WHERE "end" <= ? ORDER BY ordinal LIMIT 1`)
          .get(upTo) as SectionSpan | null) ?? undefined;
      const last =
        (db
          .query(`SELECT ${SPAN_COLUMNS} FROM sections WHERE "end" <= ? ORDER BY ordinal DESC LIMIT 1`)
          .get(upTo) as SectionSpan | null) ?? undefined;
      const actions =
        read < 1
          ? []
          : (db
              .query(`SELECT ${SPAN_COLUMNS} FROM sections WHERE kind = 'action' AND "end" <= ? ORDER BY ordinal DESC LIMIT ?`)
              .all(upTo, read) as SectionSpan[]);
      for (const span of [first, last, ...actions])
        if (span !== undefined && !spanIsSound(span))
          throw new DamagedIndex(`section ${String(span.ordinal)} spans ${String(span.start)}..${String(span.end)}`);
      return {
        count: () => count,
        first: () => first,
        last: () => last,
        nthLastAction: (n: number) => {
          if (n > read) throw new RangeError(`nthLastAction(${n}) on a lookup that read the newest ${read} action section(s)`);
          return n < 1 ? undefined : actions[n - 1];
        },
        containing: (offset: number) =>
          this.io("find a section", () => {
            const span =
              (db
                .query(`SELECT ${SPAN_COLUMNS} FROM sections WHERE start <= ? AND "end" <= ? ORDER BY ordinal DESC LIMIT 1`)
                .get(offset, upTo) as SectionSpan | null) ?? undefined;
            if (span !== undefined && !spanIsSound(span))
              throw new DamagedIndex(`section ${String(span.ordinal)} spans ${String(span.start)}..${String(span.end)}`);
            return span !== undefined && offset < span.end ? span : undefined;
          }),
      };
    });
  }

  /** The lookup a window needs (the newest N action sections for last:N). */
  windowLookup(w: LogWindow, upTo?: number): Result<SectionLookup, ProlongError> {
    return this.lookup({ ...(upTo !== undefined ? { upTo } : {}), actions: w.kind === "last" ? w.sections : 0 });
  }

  /**
   * Re-hashes every recorded section in the master; the first whose bytes changed (or that the master no
   * longer holds) is returned, null when all match.
   */
  verifySections(master: ByteSource): Result<SectionMismatch | null, ProlongError> {
    const read = this.sections();
    if (read.isErr()) return err(read.error);
    const rows = read.value;
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
    const read = this.io("read the copy's state", () => {
      const row = this.db.query(`SELECT window, owned, size FROM copy_state WHERE id = 1`).get() as {
        window: string;
        owned: number;
        size: number;
      } | null;
      return row
        ? { row, chunks: this.db.query(`SELECT start, "end", xxh3 FROM copy_chunks ORDER BY start`).all() as CopyChunk[] }
        : null;
    });
    if (read.isErr()) return err(read.error);
    if (!read.value) return ok(null);
    const { row, chunks } = read.value;
    if (!isOffset(row.owned) || !isOffset(row.size))
      return err(damaged(this.path, `the copy's state records owned ${String(row.owned)} and size ${String(row.size)}`));
    let at = 0;
    for (const c of chunks) {
      if (!isOffset(c.start) || !isOffset(c.end) || c.start !== at || c.end < c.start || c.end > row.size || !isHash(c.xxh3))
        return err(damaged(this.path, `a checksum of the copy covers ${String(c.start)}..${String(c.end)} of ${row.size} bytes`));
      at = c.end;
    }
    if (typeof row.window !== "string") return err(damaged(this.path, "the copy's window is not text"));
    const window = parseLogWindow(row.window);
    if (window.isErr())
      return err(
        prolongError("bad-index", `the index records an unknown window for the copy: ${window.error.message}`, {
          path: this.path,
          fix: "resume with the prolong version that started the run",
        }),
      );
    return ok({ window: window.value, owned: row.owned, size: row.size, chunks });
  }

  /**
   * Records what was just written to the copy (the chunk list is replaced; the sync keeps it short), and
   * the tamper that was repaired on the way, in one transaction.
   */
  setCopyState(s: CopyState, tamper?: Record<string, unknown>, time: Date = new Date()): Result<void, ProlongError> {
    return this.io("record the copy's state", () =>
      this.db.transaction(() => {
        this.db
          .query(`INSERT OR REPLACE INTO copy_state (id, window, owned, size) VALUES (1, ?, ?, ?)`)
          .run(windowText(s.window), s.owned, s.size);
        this.db.run(`DELETE FROM copy_chunks`);
        const put = this.db.query(`INSERT INTO copy_chunks (start, "end", xxh3) VALUES (?, ?, ?)`);
        for (const c of s.chunks) put.run(c.start, c.end, c.xxh3);
        if (tamper) this.insertEvent("tamper", tamper, time);
      })(),
    );
  }

  // ---- run state for resume ----

  setState(key: string, value: unknown): Result<void, ProlongError> {
    return this.io(`save the run's ${key}`, () => {
      this.db.query(`INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)`).run(key, JSON.stringify(value));
    });
  }

  /** The stored JSON value, undefined when absent. Callers validate it (valibot) like any external input. */
  getState(key: string): Result<unknown, ProlongError> {
    const row = this.io(
      `read the run's ${key}`,
      () => this.db.query(`SELECT value FROM state WHERE key = ?`).get(key) as { value: string } | null,
    );
    if (row.isErr()) return err(row.error);
    if (!row.value) return ok(undefined);
    return parseJson(row.value.value, this.path, `the run's ${key}`);
  }

  // ---- events ----

  recordEvent(kind: string, fields: Record<string, unknown>, time: Date = new Date()): Result<number, ProlongError> {
    return this.io(`record a ${kind} event`, () => this.insertEvent(kind, fields, time));
  }

  private insertEvent(kind: string, fields: Record<string, unknown>, time: Date): number {
    const r = this.db
      .query(`INSERT INTO events (time, kind, fields) VALUES (?, ?, ?)`)
      .run(time.toISOString(), kind, JSON.stringify(fields));
    return Number(r.lastInsertRowid);
  }

  events(kind?: string): Result<IndexEvent[], ProlongError> {
    const read = this.io(
      "read the events",
      () =>
        (kind === undefined
          ? this.db.query(`SELECT id, time, kind, fields FROM events ORDER BY id`).all()
          : this.db.query(`SELECT id, time, kind, fields FROM events WHERE kind = ? ORDER BY id`).all(kind)) as {
          id: number;
          time: string;
          kind: string;
          fields: string;
        }[],
    );
    if (read.isErr()) return err(read.error);
    const out: IndexEvent[] = [];
    for (const r of read.value) {
      const fields = parseJson(r.fields, this.path, `event ${r.id}`);
      if (fields.isErr()) return err(fields.error);
      out.push({ ...r, fields: fields.value as Record<string, unknown> });
    }
    return ok(out);
  }
}

// ---- checking what the index holds: it is a file in the run directory, so anything may be in it ----

/** Thrown inside io() by a read that found a value no run writes; io() turns it into damaged(). */
class DamagedIndex extends Error {}

/** A byte offset a log can have: a whole number from 0 to 2^53 − 1. */
function isOffset(n: unknown): n is number {
  return typeof n === "number" && Number.isSafeInteger(n) && n >= 0;
}

function isHash(h: unknown): boolean {
  return typeof h === "string" && /^[0-9a-f]{32}$/.test(h);
}

const isCount = (n: unknown) => n === null || (typeof n === "number" && Number.isSafeInteger(n));

function spanIsSound(s: SectionSpan): boolean {
  return isOffset(s.ordinal) && isOffset(s.start) && isOffset(s.end) && s.start <= s.end && typeof s.kind === "string";
}

/** A section row as a run writes it, or the "index damaged" error naming what is wrong. */
function checkRow(r: SectionRow, path: string): Result<SectionRow, ProlongError> {
  if (!spanIsSound(r)) return err(damaged(path, `section ${String(r.ordinal)} spans ${String(r.start)}..${String(r.end)}`));
  if (!isHash(r.xxh3)) return err(damaged(path, `section ${r.ordinal} has no valid checksum`));
  if (![r.action, r.level, r.attempt, r.score].every(isCount) || !isOffset(r.frames))
    return err(damaged(path, `section ${r.ordinal} has header fields no log holds`));
  return ok(r);
}

/** The one error for an index holding what no run writes (absurd offsets, a bad checksum, a gap). */
function damaged(path: string, what: string): ProlongError {
  return prolongError("index-damaged", `index damaged: ${what}`, {
    path,
    fix: "the file was edited or damaged; restore it from a backup, or start a new run with `prolong play`",
  });
}

const SQLITE_WRITE_FAILURES: Record<string, string> = {
  SQLITE_FULL: "the disk is full",
  SQLITE_IOERR: "an I/O error (often a full disk)",
  SQLITE_READONLY: "the file cannot be written",
  SQLITE_CANTOPEN: "the file cannot be opened",
};

/**
 * The error for what bun:sqlite threw, or null when it is not an SQLite error (a bug). A write that failed
 * for space or permissions can be retried with `prolong resume` (the master is the truth); anything else
 * (a damaged file, SQLITE_CORRUPT, SQLITE_NOTADB) means the index is not one this run wrote.
 */
export function indexFailure(e: unknown, path: string, doing: string): ProlongError | null {
  const code = (e as { code?: unknown })?.code;
  if (typeof code !== "string" || !code.startsWith("SQLITE_")) return null;
  const what = SQLITE_WRITE_FAILURES[code] ?? SQLITE_WRITE_FAILURES[code.split("_").slice(0, 2).join("_")];
  const runDir = dirname(path);
  if (what !== undefined) {
    return prolongError("index-failed", `the run index: cannot ${doing}: ${what} (${code}: ${(e as Error).message})`, {
      path,
      fix: `free disk space (or make the run directory writable), then \`prolong resume ${runDir}\``,
    });
  }
  return prolongError("bad-index", `the run index: cannot ${doing} (${code}: ${(e as Error).message})`, {
    path,
    fix: "the file is damaged or not a prolong index.sqlite; restore it from a backup, or start a new run with `prolong play`",
  });
}

function parseJson(text: string, path: string, what: string): Result<unknown, ProlongError> {
  try {
    return ok(JSON.parse(text) as unknown);
  } catch (e) {
    return err(
      prolongError("bad-index", `the run index holds ${what} that is not JSON (${(e as Error).message})`, {
        path,
        fix: "the file was edited or damaged; restore it from a backup, or start a new run with `prolong play`",
      }),
    );
  }
}

/** The read-only open's check: a prolong index at this schema, with its tables; nothing is changed. */
function checkReadOnly(db: Database, path: string): Result<void, ProlongError> {
  try {
    const version = (db.query(`PRAGMA user_version`).get() as { user_version: number }).user_version;
    const tables = new Set(
      (db.query(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[]).map((t) => t.name),
    );
    const missing = INDEX_TABLES.filter((t) => !tables.has(t));
    if (version !== MIGRATIONS.length || missing.length > 0)
      return err(
        prolongError(
          "bad-index",
          version === 0 || missing.length > 0
            ? "index.sqlite is an SQLite file but not a prolong run index (it was left as it is)"
            : `the run index has schema version ${version}; this prolong reads ${MIGRATIONS.length}`,
          {
            path,
            fix:
              version > MIGRATIONS.length
                ? "use the prolong version that wrote this run"
                : "give a run directory that prolong wrote",
          },
        ),
      );
    return ok(undefined);
  } catch (e) {
    return err(
      indexFailure(e, path, "read it") ??
        prolongError("bad-index", `cannot read the run index: ${(e as Error).message}`, {
          path,
          fix: "give a run directory that prolong wrote",
        }),
    );
  }
}

function migrate(db: Database, path: string, fresh: boolean): Result<void, ProlongError> {
  // Even reading the version touches the WAL's shared memory, which a full disk refuses.
  const failed = (e: unknown): ProlongError =>
    indexFailure(e, path, `bring it to schema ${MIGRATIONS.length}`) ??
    prolongError("index-migrate", `cannot bring the run index to schema ${MIGRATIONS.length}: ${(e as Error).message}`, {
      path,
      fix: "check that the run directory is writable and the file is a prolong index.sqlite",
    });
  let current: number;
  try {
    current = (db.query(`PRAGMA user_version`).get() as { user_version: number }).user_version;
  } catch (e) {
    return err(failed(e));
  }
  if (current === 0 && !fresh) {
    // An existing file at schema 0 is not one a run wrote (an emptied index, or another program's database):
    // migrating it would make an index that records no section, and everything checked against it passes.
    return err(
      prolongError("bad-index", "index.sqlite is not a prolong run index (it records no schema); it was left as it is", {
        path,
        fix: "restore index.sqlite from a backup; without it this run cannot be resumed, start a new one with `prolong play`",
      }),
    );
  }
  if (current > MIGRATIONS.length) {
    return err(
      prolongError(
        "index-version",
        `the run index has schema version ${current}, newer than this prolong knows (${MIGRATIONS.length})`,
        { path, fix: "use the prolong version that wrote this run" },
      ),
    );
  }
  try {
    db.transaction(() => {
      for (let v = current; v < MIGRATIONS.length; v++) db.run(MIGRATIONS[v] as string);
      db.run(`PRAGMA user_version = ${MIGRATIONS.length}`);
    })();
  } catch (e) {
    return err(failed(e));
  }
  return ok(undefined);
}

/**
 * The cheap check before every agent call: the master (by its own descriptor's fstat) ends exactly where the
 * index says, and its last section still has the checksum recorded when it was written. An edit of the
 * master's tail or an append by anything but this harness is caught during the run, not only at resume.
 */
export function verifyMasterTail(master: MasterLog, index: RunIndex): Result<void, ProlongError> {
  const fix =
    "the master log was changed outside prolong (another process, or an agent that reached it); restore it from a backup";
  const size = master.fileSize();
  if (size.isErr()) return err(size.error);
  const end = index.lastEnd();
  if (end.isErr()) return err(end.error);
  if (size.value !== end.value) {
    return err(
      prolongError("master-changed", `the master log is ${size.value} bytes but this run wrote ${end.value}`, {
        path: master.path,
        fix,
      }),
    );
  }
  const count = index.count();
  if (count.isErr()) return err(count.error);
  if (count.value === 0) return ok(undefined);
  const row = index.section(count.value - 1);
  if (row.isErr()) return err(row.error);
  const last = row.value as SectionRow;
  const bytes = master.read(last.start, last.end);
  if (bytes.isErr()) return err(bytes.error);
  if (xxh3_128(bytes.value) !== last.xxh3) {
    return err(
      prolongError(
        "master-changed",
        `the master log's last section (bytes ${last.start}..${last.end}) no longer matches its checksum`,
        { path: master.path, fix },
      ),
    );
  }
  return ok(undefined);
}

/** The index row for a section just appended: its range, the checksum of its bytes and its header fields. */
export function sectionRow(
  range: AppendRange,
  bytes: Uint8Array,
  header: SectionHeader | null,
  frames: number,
): Omit<SectionRow, "ordinal"> {
  if (bytes.length !== range.end - range.start)
    throw new RangeError(`sectionRow: ${bytes.length} bytes for range ${range.start}..${range.end}`);
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
export function appendSection(
  master: MasterLog,
  index: RunIndex,
  s: LogSection,
  mode: GridMode,
): Result<SectionRow, ProlongError> {
  return appendSectionText(master, index, (logIsEmpty) => sectionAppendText(s, mode, logIsEmpty), s.header, s.frames.length + 1);
}

/**
 * The same for a section whose body an environment writes itself (a terminal game's screen): `text` gives
 * the section's bytes as appended to a log that is or is not empty (the join "\n" first unless it is).
 */
export function appendSectionText(
  master: MasterLog,
  index: RunIndex,
  text: (logIsEmpty: boolean) => string,
  header: SectionHeader,
  frames: number,
): Result<SectionRow, ProlongError> {
  const bytes = encoder.encode(text(master.size === 0));
  const join = master.size === 0 ? 0 : SECTION_JOIN.length;
  return master.append(bytes).andThen((range) => {
    const own = { start: range.start + join, end: range.end };
    return index.addSection(sectionRow(own, bytes.subarray(join), header, frames));
  });
}
