// `prolong verify <run-dir>`: is workspace/logs.txt exactly what the harness last wrote there? The run's index
// says what that was — the window, and the master offset the copy was owned up to — so the check is the
// harness's own before its next sync, made by hand and without repairing anything: for the full log, the
// master's bytes up to the owned offset; for a window (last:N, newest), that window rebuilt from the master
// as it was then; for no log (none), no file at all. A difference is reported as the tamper kind the harness
// would record, in its own words (workspace/dir.ts and workspace/copy.ts classify, here as in the sync). The
// master is mapped, never copied; the copy is mapped once it is known to be a regular file.
import { existsSync, lstatSync, type Stats } from "node:fs";
import { err, ok, type Result } from "neverthrow";
import { windowText, type LogWindow } from "../setting/log-window.ts";
import { prolongError, type ProlongError } from "../errors.ts";
import { RunIndex } from "../log/run-index.ts";
import { checkRegularFile } from "../safe-file.ts";
import { readLogBytes } from "../log/load.ts";
import { bytesSource, renderWindow } from "../log/window.ts";
import { readConfigFile, type RunConfig } from "../config/run-config.ts";
import { envKind } from "../game/kinds.ts";
import { runPaths } from "../run-files/layout.ts";
import { contentTamper, COPY_FILE } from "../workspace/copy.ts";
import { entryOf, structural, type TamperKind } from "../workspace/dir.ts";

export interface RunDirTamper {
  readonly kind: TamperKind;
  readonly detail: string;
  /** First byte where the copy differs from what the harness wrote (content cases only). */
  readonly firstDiff?: number;
}

export interface RunDirReport {
  readonly runDir: string;
  readonly master: string;
  readonly copy: string;
  /** The window the copy was last written under (text form: full, last:N, newest, none); null before the first sync. */
  readonly window: string | null;
  /** The master offset the copy was synced up to. */
  readonly owned: number;
  /** Bytes the harness wrote to the copy, and bytes found there (0 when there is no regular file). */
  readonly expectedBytes: number;
  readonly foundBytes: number;
  readonly ok: boolean;
  readonly tamper: RunDirTamper | null;
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/** The harness's tamper for a copy that is not a regular file (its own wording), or null for a regular file. */
function structuralKind(st: Stats, path: string): RunDirTamper | null {
  const entry = entryOf(st);
  if (entry.kind === "file" || entry.kind === "missing") return null;
  const t = structural(COPY_FILE, entry.kind, path);
  return { kind: t.kind, detail: t.detail.replace(COPY_FILE, "the copy") };
}

/**
 * What the harness wrote to the copy last time, rebuilt from the master and the index as they were then. A
 * window depends on the run's settings (the grid mode; a terminal game's kind, whose windows keep the
 * state it writes only when it changes), read from run.json only for a window.
 */
function expectedBytes(
  master: Uint8Array,
  index: RunIndex,
  window: LogWindow,
  owned: number,
  config: () => Result<RunConfig, ProlongError>,
): Result<Uint8Array, ProlongError> {
  if (window.kind === "full") return ok(master.subarray(0, owned));
  const c = config();
  if (c.isErr()) return err(c.error);
  const codec = envKind(c.value.env).codec();
  const sections = index.windowLookup(window, owned);
  if (sections.isErr()) return err(sections.error);
  return renderWindow(bytesSource(master.subarray(0, owned)), sections.value, window, c.value.gridMode, codec).map(
    (b) => b ?? new Uint8Array(0),
  );
}

/** The copy's content against what was written: the harness's own edited / appended / truncated. */
function contentKind(expected: Uint8Array, found: Uint8Array, foundSize: number): RunDirTamper | null {
  const t = contentTamper(expected, found.subarray(0, Math.min(found.length, expected.length)), foundSize);
  return t === null ? null : { kind: t.kind, detail: t.detail, ...(t.firstDiff !== undefined ? { firstDiff: t.firstDiff } : {}) };
}

export function verifyRunDir(dir: string): Result<RunDirReport, ProlongError> {
  const paths = runPaths(dir);
  if (!existsSync(paths.index) || !existsSync(paths.log)) {
    return err(
      prolongError("not-a-run-dir", "is not a run directory (it needs logs.txt and index.sqlite)", {
        path: dir,
        fix: "give a run directory such as runs/<stamp>/<game>, or two files: prolong verify <master-log> <copy>",
      }),
    );
  }
  // Read-only: verify changes nothing (no migration, no checkpoint, no foreign file made into an index).
  const masterFile = checkRegularFile(paths.log, "the master log");
  if (masterFile.isErr()) return err(masterFile.error);
  const opened = RunIndex.open(paths.index, { mode: "read-only" });
  if (opened.isErr()) return err(opened.error);
  const index = opened.value;
  try {
    const state = index.copyState();
    if (state.isErr()) return err(state.error);
    const wrote = state.value;
    const owned = wrote?.owned ?? 0;
    const base = {
      runDir: paths.dir,
      master: paths.log,
      copy: paths.copy,
      window: wrote ? windowText(wrote.window) : null,
      owned,
    };
    const report = (expected: number, found: number, tamper: RunDirTamper | null): RunDirReport => ({
      ...base,
      expectedBytes: expected,
      foundBytes: found,
      ok: tamper === null,
      tamper,
    });

    const st = lstatOrNull(paths.copy);
    // No copy was ever written, or the no-log arm: nothing may be there.
    if (wrote === null || wrote.window.kind === "none") {
      if (st === null) return ok(report(0, 0, null));
      const detail =
        wrote === null
          ? "a logs.txt the harness did not write is in the workspace (it has not synced a copy yet)"
          : "a logs.txt is in the workspace of a run without a log file (--log-window none)";
      return ok(report(0, st.isFile() ? st.size : 0, { kind: "unexpected", detail }));
    }
    if (st === null) return ok(report(wrote.size, 0, { kind: "deleted", detail: "the copy was deleted" }));
    const structural = structuralKind(st, paths.copy);
    if (structural) return ok(report(wrote.size, 0, structural));
    if ((st.mode & 0o200) === 0)
      return ok(
        report(wrote.size, st.size, {
          kind: "read-only",
          detail: `the copy was made read-only (mode ${(st.mode & 0o777).toString(8)})`,
        }),
      );
    if (st.nlink > 1)
      return ok(report(wrote.size, st.size, { kind: "hardlink", detail: `the copy has ${st.nlink} names (hard links)` }));

    const master = readLogBytes(paths.log, owned);
    if (master.isErr()) return err(master.error);
    if (master.value.length < owned) {
      return err(
        prolongError(
          "master-short",
          `the master log has ${master.value.length} bytes but the index says the copy was synced up to ${owned}`,
          { path: paths.log, fix: "the master was truncated outside prolong; the copy cannot be checked against it" },
        ),
      );
    }
    const expected = expectedBytes(master.value, index, wrote.window, owned, () => readConfigFile(paths.config));
    if (expected.isErr()) return err(expected.error);
    // Mapped only one byte past what was written: a copy grown past it (a sparse 8 GiB file) is "appended"
    // by its size, never mapped whole.
    const want = expected.value.length;
    const copy = readLogBytes(paths.copy, want + 1);
    if (copy.isErr()) return err(copy.error);
    const found = copy.value.length <= want ? copy.value.length : Math.max(st.size, copy.value.length);
    return ok(report(want, found, contentKind(expected.value, copy.value, found)));
  } finally {
    // Only read here: a failed close loses nothing.
    index.close();
  }
}

export function describeRunDir(r: RunDirReport): string {
  const what =
    r.window === null
      ? "no copy synced yet"
      : r.window === "none"
        ? "no log file (--log-window none)"
        : r.window === "full"
          ? `the full log up to byte ${r.owned} of the master`
          : `window ${r.window} of the master up to byte ${r.owned}`;
  if (r.ok) {
    const found =
      r.window === null || r.window === "none"
        ? "no logs.txt in the workspace, as expected"
        : `${r.foundBytes} bytes, exactly what the harness last wrote`;
    return `ok: ${r.copy}: ${found} (${what})`;
  }
  const t = r.tamper as RunDirTamper;
  return `TAMPERED (${t.kind}): ${r.copy}: ${t.detail} (the harness wrote ${r.expectedBytes} bytes: ${what}; found ${r.foundBytes}); the harness repairs it from the master before the next agent call`;
}
