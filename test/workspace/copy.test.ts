import { describe, expect, test } from "bun:test";
import {
  appendFileSync,
  chmodSync,
  closeSync,
  constants,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Grid } from "../../src/game-model.ts";
import { writeLog, writeSection, type LogSection } from "../../src/log/format.ts";
import { appendSection, RunIndex } from "../../src/log/run-index.ts";
import { MasterLog } from "../../src/log/master.ts";
import { syncAgentCopy, type SyncReport } from "../../src/workspace/copy.ts";
import { WorkspaceDir } from "../../src/workspace/dir.ts";
import type { LogWindow } from "../../src/config/log-window.ts";

function grid(seed: number): Grid {
  return { width: 8, height: 8, cells: Uint8Array.from({ length: 64 }, (_, i) => (i * 13 + seed * 7) % 16) };
}

function section(action: number): LogSection {
  if (action === 0) return { header: { action: 0, level: 1, attempt: 1, score: 0, kind: "initial" }, frames: [], board: grid(0) };
  return {
    header: { action, level: 1, attempt: 1, score: 0, kind: "action" },
    plan: `step ${action}`,
    toolCall: { id: 3 },
    frames: action % 3 === 0 ? [grid(action + 50), grid(action + 51)] : [],
    board: grid(action),
  };
}

/** A run directory with a master, an index and a workspace; `add(k)` appends k sections as the runner does. */
function run(window: LogWindow = { kind: "full" }) {
  const dir = mkdtempSync(join(tmpdir(), "prolong-sync-"));
  const workspace = join(dir, "workspace");
  mkdirSync(workspace);
  const masterPath = join(dir, "logs.txt");
  const copyPath = join(workspace, "logs.txt");
  const master = MasterLog.open(masterPath)._unsafeUnwrap();
  const index = RunIndex.open(join(dir, "index.sqlite"))._unsafeUnwrap();
  const ws = WorkspaceDir.open(workspace)._unsafeUnwrap();
  const written: LogSection[] = [];
  return {
    dir,
    workspace,
    ws,
    masterPath,
    copyPath,
    master,
    index,
    written,
    add(k: number) {
      for (let i = 0; i < k; i++) {
        const s = section(written.length);
        appendSection(master, index, s, "ascii")._unsafeUnwrap();
        written.push(s);
      }
    },
    sync(w: LogWindow = window): SyncReport {
      return syncAgentCopy({ master, workspace: ws, index, window: w, mode: "ascii" })._unsafeUnwrap();
    },
    masterText: () => readFileSync(masterPath, "utf8"),
    copyText: () => readFileSync(copyPath, "utf8"),
  };
}

/** A run whose copy has been synced twice (so it holds two chunks) and then gets one more section. */
function synced() {
  const r = run();
  r.add(3);
  r.sync();
  r.add(2);
  r.sync();
  r.add(1);
  return r;
}

describe("full log: incremental sync", () => {
  test("the first sync writes the whole master; later syncs append only the new bytes from the owned offset", () => {
    const r = run();
    r.add(2);
    const first = r.sync();
    expect(first.write).toBe("rewrite");
    expect(first.tamper).toBeNull();
    expect(r.copyText()).toBe(r.masterText());
    const before = first.ownedAfter;
    r.add(3);
    const second = r.sync();
    expect(second).toEqual({
      window: { kind: "full" },
      ownedBefore: before,
      ownedAfter: r.master.size,
      write: "append",
      bytesWritten: r.master.size - before,
      copyBytes: r.master.size,
      tamper: null,
    });
    expect(r.copyText()).toBe(writeLog(r.written, "ascii"));
    const third = r.sync();
    expect(third.write).toBe("none");
    expect(third.bytesWritten).toBe(0);
    expect(r.index.copyState()._unsafeUnwrap()?.owned).toBe(r.master.size);
  });

  test("bytes past the index's last section (a torn or unrecorded append) never reach the agent", () => {
    const r = run();
    r.add(2);
    r.sync();
    const indexed = r.index.lastEnd()._unsafeUnwrap();
    r.master.append("\n" + "=".repeat(80) + "\nAction 2 | Lev");
    const rep = r.sync();
    expect(rep.ownedAfter).toBe(indexed);
    expect(rep.write).toBe("none");
    expect(r.copyText()).toBe(r.masterText().slice(0, indexed));
  });

  test("the copy keeps its inode across appends (the agent's open file handles stay valid)", () => {
    const r = run();
    r.add(1);
    r.sync();
    const ino = statSync(r.copyPath).ino;
    r.add(2);
    r.sync();
    expect(statSync(r.copyPath).ino).toBe(ino);
  });

  test("many syncs fold the checksum list and still catch an edit", () => {
    const r = run();
    r.add(1);
    for (let i = 0; i < 40; i++) {
      r.add(1);
      expect(r.sync().tamper).toBeNull();
    }
    expect(r.index.copyState()._unsafeUnwrap()?.chunks.length).toBeLessThanOrEqual(32);
    expect(r.copyText()).toBe(r.masterText());
    const fd = openSync(r.copyPath, constants.O_WRONLY);
    writeSync(fd, "X", 1234);
    closeSync(fd);
    r.add(1);
    const rep = r.sync();
    expect(rep.tamper?.kind).toBe("edited");
    expect(rep.tamper?.firstDiff).toBe(1234);
    expect(r.copyText()).toBe(r.masterText());
  });
});

describe("the published defect: the agent writes 32 bytes into its copy between two syncs", () => {
  test("after the next sync the copy equals the master exactly: no byte lost, none duplicated", () => {
    const r = synced();
    const owned = r.index.copyState()._unsafeUnwrap()?.owned as number;
    appendFileSync(r.copyPath, "# my notes: try the red block..\n"); // 32 bytes
    expect(statSync(r.copyPath).size).toBe(owned + 32);
    // What the published harness would do: take the copy's size as the synced offset, append the rest.
    const naive = readFileSync(r.copyPath, "utf8") + r.masterText().slice(statSync(r.copyPath).size);
    expect(naive.length).toBe(r.master.size); // same length ...
    expect(naive).not.toBe(r.masterText()); // ... but 32 real log bytes lost to the agent's text
    const rep = r.sync();
    expect(rep.tamper).toEqual({
      kind: "appended",
      detail: `32 byte(s) were added after the ${owned} the harness wrote`,
      firstDiff: owned,
      expectedBytes: owned,
      foundBytes: owned + 32,
    });
    expect(readFileSync(r.copyPath).equals(readFileSync(r.masterPath))).toBe(true);
  });

  test("32 bytes written over the copy's end in place (same size) are caught too", () => {
    const r = synced();
    const owned = r.index.copyState()._unsafeUnwrap()?.owned as number;
    const fd = openSync(r.copyPath, constants.O_WRONLY);
    writeSync(fd, "x".repeat(32), owned - 32);
    closeSync(fd);
    const rep = r.sync();
    expect(rep.tamper?.kind).toBe("edited");
    expect(rep.tamper?.firstDiff).toBe(owned - 32);
    expect(readFileSync(r.copyPath).equals(readFileSync(r.masterPath))).toBe(true);
  });
});

describe("tampering: each case is repaired from the master and reported", () => {
  test("appended to", () => {
    const r = synced();
    appendFileSync(r.copyPath, "extra");
    const rep = r.sync();
    expect(rep.tamper?.kind).toBe("appended");
    expect(rep.write).toBe("rewrite");
    expect(r.copyText()).toBe(r.masterText());
  });

  test("truncated", () => {
    const r = synced();
    const owned = r.index.copyState()._unsafeUnwrap()?.owned as number;
    truncateSync(r.copyPath, 100);
    const rep = r.sync();
    expect(rep.tamper).toEqual({
      kind: "truncated",
      detail: `the copy was cut to 100 of ${owned} bytes`,
      firstDiff: 100,
      expectedBytes: owned,
      foundBytes: 100,
    });
    expect(r.copyText()).toBe(r.masterText());
  });

  test("edited in place", () => {
    const r = synced();
    const fd = openSync(r.copyPath, constants.O_WRONLY);
    writeSync(fd, "Action 9", 81);
    closeSync(fd);
    const rep = r.sync();
    expect(rep.tamper?.kind).toBe("edited");
    expect(rep.tamper?.firstDiff).toBe(r.masterText().slice(81).startsWith("Action 0") ? 88 : 81);
    expect(r.copyText()).toBe(r.masterText());
  });

  test("deleted", () => {
    const r = synced();
    const owned = r.index.copyState()._unsafeUnwrap()?.owned as number;
    unlinkSync(r.copyPath);
    const rep = r.sync();
    expect(rep.tamper).toEqual({ kind: "deleted", detail: "the copy was deleted", expectedBytes: owned, foundBytes: 0 });
    expect(r.copyText()).toBe(r.masterText());
  });

  test("replaced by a symlink to the master: the sync never writes through it, the master is unchanged", () => {
    const r = synced();
    const masterBefore = readFileSync(r.masterPath);
    unlinkSync(r.copyPath);
    symlinkSync(r.masterPath, r.copyPath);
    const rep = r.sync();
    expect(rep.tamper?.kind).toBe("symlink");
    expect(rep.tamper?.detail).toContain(r.masterPath);
    expect(lstatSync(r.copyPath).isSymbolicLink()).toBe(false);
    expect(readFileSync(r.masterPath).equals(masterBefore)).toBe(true);
    expect(r.copyText()).toBe(r.masterText());
    // And what the agent then writes to its copy stays in the copy.
    appendFileSync(r.copyPath, "agent text");
    expect(readFileSync(r.masterPath).equals(masterBefore)).toBe(true);
  });

  test("replaced by a symlink to another file: that file is untouched", () => {
    const r = synced();
    const other = join(r.dir, "secret.txt");
    writeFileSync(other, "do not touch");
    unlinkSync(r.copyPath);
    symlinkSync(other, r.copyPath);
    expect(r.sync().tamper?.kind).toBe("symlink");
    expect(readFileSync(other, "utf8")).toBe("do not touch");
    expect(r.copyText()).toBe(r.masterText());
  });

  test("replaced by a hard link to the master: the sync's appends cannot reach the master", () => {
    const r = synced();
    const masterBefore = readFileSync(r.masterPath);
    unlinkSync(r.copyPath);
    linkSync(r.masterPath, r.copyPath);
    const rep = r.sync();
    expect(rep.tamper?.kind).toBe("hardlink");
    expect(readFileSync(r.masterPath).equals(masterBefore)).toBe(true);
    expect(statSync(r.copyPath).ino).not.toBe(statSync(r.masterPath).ino);
    expect(r.copyText()).toBe(r.masterText());
  });

  test("replaced by a directory (with files in it)", () => {
    const r = synced();
    unlinkSync(r.copyPath);
    mkdirSync(r.copyPath);
    writeFileSync(join(r.copyPath, "inner.txt"), "x");
    const rep = r.sync();
    expect(rep.tamper?.kind).toBe("directory");
    expect(lstatSync(r.copyPath).isFile()).toBe(true);
    expect(r.copyText()).toBe(r.masterText());
  });

  test("made read-only", () => {
    const r = synced();
    chmodSync(r.copyPath, 0o444);
    const rep = r.sync();
    expect(rep.tamper?.kind).toBe("read-only");
    expect(rep.tamper?.detail).toContain("444");
    expect(statSync(r.copyPath).mode & 0o777).toBe(0o644);
    expect(r.copyText()).toBe(r.masterText());
  });

  test("every tamper event lands in the index; the sync after a repair is clean again", () => {
    const r = synced();
    appendFileSync(r.copyPath, "a");
    r.sync();
    unlinkSync(r.copyPath);
    r.sync();
    r.add(1);
    expect(r.sync()).toMatchObject({ write: "append", tamper: null });
    expect(
      r.index
        .events("tamper")
        ._unsafeUnwrap()
        .map((e) => e.fields.kind),
    ).toEqual(["appended", "deleted"]);
    expect(r.copyText()).toBe(r.masterText());
  });

  test("repairs leave nothing behind in the workspace but the copy", () => {
    const r = synced();
    appendFileSync(r.copyPath, "x");
    r.sync();
    unlinkSync(r.copyPath);
    mkdirSync(r.copyPath);
    r.sync();
    expect(readdirSync(r.workspace)).toEqual(["logs.txt"]);
  });
});

describe("window arms", () => {
  test("--log-window 2: the copy is the window, rewritten each turn; an edit is caught against the window last written", () => {
    const r = run({ kind: "last", sections: 2 });
    r.add(5);
    expect(r.sync().write).toBe("rewrite");
    expect(r.copyText()).toBe(writeLog([r.written[0], r.written[3], r.written[4]] as LogSection[], "ascii"));
    r.add(1);
    const clean = r.sync();
    expect(clean.tamper).toBeNull();
    expect(r.copyText()).toBe(writeLog([r.written[0], r.written[4], r.written[5]] as LogSection[], "ascii"));
    const fd = openSync(r.copyPath, constants.O_WRONLY);
    writeSync(fd, "Z", 300);
    closeSync(fd);
    r.add(1);
    const rep = r.sync();
    expect(rep.tamper?.kind).toBe("edited");
    expect(rep.tamper?.firstDiff).toBe(300);
    expect(r.copyText()).toBe(writeLog([r.written[0], r.written[5], r.written[6]] as LogSection[], "ascii"));
  });

  test("--log-window 2: 32 bytes appended to the window are caught, and the next window is exact", () => {
    const r = run({ kind: "last", sections: 2 });
    r.add(4);
    r.sync();
    appendFileSync(r.copyPath, "# my notes: try the red block..\n");
    r.add(1);
    expect(r.sync().tamper?.kind).toBe("appended");
    expect(r.copyText()).toBe(writeLog([r.written[0], r.written[3], r.written[4]] as LogSection[], "ascii"));
  });

  test("--log-window 0: the newest section without frames; a truncation is caught", () => {
    const r = run({ kind: "newest" });
    r.add(4); // action 3 is animated
    r.sync();
    expect(r.copyText()).toBe(writeSection({ ...(r.written[3] as LogSection), frames: [] }, "ascii"));
    truncateSync(r.copyPath, 10);
    r.add(1);
    expect(r.sync().tamper?.kind).toBe("truncated");
    expect(r.copyText()).toBe(writeSection(r.written[4] as LogSection, "ascii"));
  });

  test("--log-window -1: no copy; a logs.txt the agent creates is removed and reported", () => {
    const r = run({ kind: "none" });
    r.add(2);
    expect(r.sync()).toMatchObject({ write: "none", copyBytes: 0, tamper: null });
    expect(existsSync(r.copyPath)).toBe(false);
    writeFileSync(r.copyPath, "my own log");
    const rep = r.sync();
    expect(rep.write).toBe("remove");
    expect(rep.tamper?.kind).toBe("unexpected");
    expect(existsSync(r.copyPath)).toBe(false);
  });

  test("switching arms rewrites the copy without a tamper event", () => {
    const r = run({ kind: "last", sections: 1 });
    r.add(4);
    r.sync();
    r.add(1);
    expect(r.sync({ kind: "full" })).toMatchObject({ write: "rewrite", tamper: null });
    expect(r.copyText()).toBe(r.masterText());
  });
});

describe("errors", () => {
  test("a master shorter than the index records is an error, and the copy is left alone", () => {
    const r = run();
    r.add(2);
    r.sync();
    const shortMaster = { size: 10, read: r.master.read.bind(r.master) };
    const rep = syncAgentCopy({ master: shortMaster, workspace: r.ws, index: r.index, window: { kind: "full" } });
    expect(rep.isErr() && rep.error.code).toBe("master-short");
    expect(r.copyText()).toBe(r.masterText());
  });

  test("a missing workspace is an error naming the copy's path", () => {
    const r = run();
    r.add(1);
    rmSync(r.workspace, { recursive: true });
    const rep = syncAgentCopy({ master: r.master, workspace: r.ws, index: r.index, window: { kind: "full" } });
    expect(rep.isErr() && rep.error.path).toBe(r.copyPath);
  });
});
