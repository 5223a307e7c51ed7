// `prolong verify` through the real CLI: the run-directory form on real runs of every window arm, each tamper
// kind the harness records, and the two-file form's verdicts (ok, differs, mid-section, empty, symlink).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  appendFileSync,
  chmodSync,
  cpSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { prolong as prolongProcess } from "../support/prolong-process.ts";
import { playGame } from "../run/helpers.ts";

const root = mkdtempSync(path.join(tmpdir(), "prolong-verify-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const prolong = (...args: string[]) => prolongProcess(args);

/** The window arms, as --log-window takes them. */
const WINDOWS = ["full", "3", "0", "-1"] as const;
type Window = (typeof WINDOWS)[number];

/** Each window arm's run, played once: every test gets a copy of it to tamper with (see run()). */
const played = new Map<Window, string>();

// A finished run of the built-in explorer on glide under each window arm, played through the real loop in this
// process: verify, the command under test, is what runs as a process.
beforeAll(async () => {
  for (const window of WINDOWS) {
    const logWindow = window === "full" ? window : Number(window);
    const r = await playGame({ game: "glide", maxActions: 15, logWindow }, mkdtempSync(path.join(root, "runs-")));
    expect(r.end.reason).toBe("max-actions");
    played.set(window, r.session.paths.dir);
  }
});

/**
 * A run as the harness left it: a copy, in a directory of its own, of the one run played for that window arm
 * (a play per tamper made this file 16 runs long).
 */
function run(window: Window): string {
  const copy = path.join(mkdtempSync(path.join(root, "copy-")), "glide");
  cpSync(played.get(window)!, copy, { recursive: true });
  return copy;
}

function verifyJson(dir: string) {
  const r = prolong("verify", dir, "--json");
  return {
    code: r.code,
    report: JSON.parse(r.out) as {
      ok: boolean;
      window: string;
      tamper: { kind: string; firstDiff?: number } | null;
      expectedBytes: number;
      foundBytes: number;
    },
  };
}

describe("verify <run-dir>", () => {
  test("every window arm as the harness left it: exit 0", () => {
    for (const [flag, window] of [
      ["full", "full"],
      ["3", "last:3"],
      ["0", "newest"],
      ["-1", "none"],
    ] as const) {
      const { code, report } = verifyJson(run(flag));
      expect(report.window).toBe(window);
      expect(report.tamper).toBeNull();
      expect(code).toBe(0);
    }
  });

  test("full log: each tamper is named with the harness's kind, exit 1", () => {
    const cases: Array<[string, (copy: string, dir: string) => void]> = [
      [
        "edited",
        (c) => {
          const b = readFileSync(c);
          b[200] = b[200] === 65 ? 66 : 65;
          writeFileSync(c, b);
        },
      ],
      ["appended", (c) => appendFileSync(c, "Action 999 | cheat\n")],
      ["truncated", (c) => truncateSync(c, 1000)],
      ["deleted", (c) => rmSync(c)],
      [
        "symlink",
        (c, d) => {
          rmSync(c);
          symlinkSync(path.join(d, "logs.txt"), c);
        },
      ],
      [
        "directory",
        (c) => {
          rmSync(c);
          mkdirSync(c);
        },
      ],
      [
        "fifo",
        (c) => {
          rmSync(c);
          Bun.spawnSync(["mkfifo", c]);
        },
      ],
      ["read-only", (c) => chmodSync(c, 0o444)],
      ["hardlink", (c, d) => linkSync(c, path.join(d, "workspace", "second-name.txt"))],
    ];
    for (const [kind, tamper] of cases) {
      const dir = run("full");
      tamper(path.join(dir, "workspace", "logs.txt"), dir);
      const { code, report } = verifyJson(dir);
      expect(report.tamper?.kind).toBe(kind);
      expect(code).toBe(1);
      if (kind === "edited") expect(report.tamper?.firstDiff).toBe(200);
      if (kind === "truncated") expect(report.foundBytes).toBe(1000);
    }
  });

  test("a window copy edited, and a copy present under --log-window -1: edited, unexpected", () => {
    const windowed = run("3");
    const copy = path.join(windowed, "workspace", "logs.txt");
    const b = readFileSync(copy);
    b[b.length - 10] = 33;
    writeFileSync(copy, b);
    expect(verifyJson(windowed).report.tamper?.kind).toBe("edited");
    const none = run("-1");
    writeFileSync(path.join(none, "workspace", "logs.txt"), "my own notes\n");
    const r = verifyJson(none);
    expect(r.report.tamper?.kind).toBe("unexpected");
    expect(r.code).toBe(1);
    const human = prolong("verify", none);
    expect(human.out).toContain("TAMPERED (unexpected)");
  });

  test("a directory that is not a run: exit 2 naming it", () => {
    const r = prolong("verify", root);
    expect(r.code).toBe(2);
    expect(r.err).toContain(root);
    expect(r.err).toContain("not a run directory");
  });
});

describe("verify <master> <copy>", () => {
  let master = "";
  let bytes = Buffer.alloc(0);
  let cut = 0;
  beforeAll(() => {
    master = path.join(run("full"), "logs.txt");
    bytes = readFileSync(master);
    cut = bytes.indexOf("\n" + "=".repeat(80), 10) + 0; // the end of the first section: a boundary
  });
  const file = (name: string, b: Uint8Array | string) => {
    const p = path.join(root, name);
    writeFileSync(p, b);
    return p;
  };

  test("a prefix that ends where a section ends: ok, exit 0", () => {
    const r = prolong("verify", master, file("first-section.txt", bytes.subarray(0, cut)), "--json");
    expect(JSON.parse(r.out).verdict).toBe("ok");
    expect(r.code).toBe(0);
  });

  test("a prefix cut mid-section, an empty copy, a symlink: named, exit 1", () => {
    const mid = prolong("verify", master, file("mid.txt", bytes.subarray(0, cut - 7)));
    expect(mid.out).toStartWith("MID-SECTION:");
    expect(mid.code).toBe(1);
    const empty = prolong("verify", master, file("empty.txt", ""));
    expect(empty.out).toStartWith("EMPTY:");
    expect(empty.code).toBe(1);
    const link = path.join(root, "link.txt");
    symlinkSync(master, link);
    const sym = prolong("verify", master, link, "--json");
    expect(JSON.parse(sym.out)).toMatchObject({ verdict: "symlink", linkTarget: master, prefix: true });
    expect(sym.code).toBe(1);
  });

  test("a byte changed: the offset, line and action, exit 1", () => {
    const b = Buffer.from(bytes.subarray(0, cut));
    b[cut - 20] = b[cut - 20] === 48 ? 49 : 48;
    const r = prolong("verify", master, file("changed.txt", b), "--json");
    expect(JSON.parse(r.out)).toMatchObject({ verdict: "differs", firstDiff: cut - 20, diffAction: 0 });
    expect(r.code).toBe(1);
  });

  test("swapped arguments (the copy first): exit 1 with a hint that they look swapped, not one about windows", () => {
    const copy = file("swapped-copy.txt", bytes.subarray(0, cut));
    const r = prolong("verify", copy, master);
    expect(r.code).toBe(1);
    expect(r.out).toStartWith("DIFFERS:");
    expect(r.out).toContain(`the arguments look swapped`);
    expect(r.out).toContain(`prolong verify ${master} ${copy}`);
    expect(r.out).not.toContain("--log-window");
    expect(JSON.parse(prolong("verify", copy, master, "--json").out)).toMatchObject({ looksSwapped: true });
    // A copy with bytes appended past its master's end, not a whole section: no swap hint.
    const appended = prolong("verify", master, file("appended.txt", Buffer.concat([bytes, Buffer.from("extra")])));
    expect(appended.out).toContain("5 extra byte(s)");
    expect(appended.out).not.toContain("swapped");
  });
});
