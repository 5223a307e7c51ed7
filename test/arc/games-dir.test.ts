// Bad input for --env arc-local: a games directory with a broken or missing file, a missing interpreter, an
// interpreter without arcengine. Each error names the file or the program and says how to fix it. These
// tests build their own tiny game directories, so they run everywhere (no ARC snapshot needed) except the
// last ones, which need python3 and skip with a printed reason without it.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { arcLocalEnv, hexToGrid } from "../../src/game/arc/arc-local.ts";
import { defaultClassName, findArcGame, listArcGames } from "../../src/game/arc/games-dir.ts";
import { arcLocalKind } from "../../src/game/arc/kind.ts";

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/** A games directory holding the given files (path → text). */
function gamesDir(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "prolong-arc-games-"));
  roots.push(root);
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(join(root, p, ".."), { recursive: true });
    writeFileSync(join(root, p), text);
  }
  return root;
}

const meta = (id: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ game_id: id, title: id.slice(0, 4).toUpperCase(), baseline_actions: [4, 7], tags: ["click"], ...extra });

describe("reading a games directory", () => {
  test("lists every version with its baselines and tags; a bare id means the latest downloaded version", async () => {
    const root = gamesDir({
      "ab12/v1/metadata.json": meta("ab12-v1", { date_downloaded: "2026-01-01T00:00:00Z" }),
      "ab12/v1/ab12.py": "# game",
      "ab12/v2/metadata.json": meta("ab12-v2", { date_downloaded: "2026-03-01T00:00:00Z", baseline_actions: [9, 9, 9] }),
      "ab12/v2/ab12.py": "# game",
      "cd34/x/metadata.json": meta("cd34-x", { class_name: "Thing" }),
      "cd34/x/thing.py": "# game",
    });
    const all = listArcGames(root)._unsafeUnwrap();
    expect(all.map((g) => g.gameId)).toEqual(["ab12-v1", "ab12-v2", "cd34-x"]);
    expect(all[2]!.className).toBe("Thing");
    expect(all[2]!.gameFile).toBe(join(root, "cd34/x/thing.py"));
    expect(findArcGame(root, "ab12")._unsafeUnwrap().gameId).toBe("ab12-v2");
    expect(findArcGame(root, "ab12-v1")._unsafeUnwrap().baselineActions).toEqual([4, 7]);
    const rows = (await arcLocalKind.listing!({ arcGames: root }))._unsafeUnwrap();
    expect(rows[1]).toMatchObject({
      id: "ab12-v2",
      title: "AB12",
      levels: 3,
      baselines: [9, 9, 9],
      tags: ["click"],
      actions: [],
    });
  });

  test("the toolkit's class name: first four characters, first letter upper case", () => {
    expect(defaultClassName("ft09-0d8bbf25")).toBe("Ft09");
    expect(defaultClassName("m0r0")).toBe("M0r0");
  });

  const cases: {
    name: string;
    files: Record<string, string>;
    game: string;
    code: string;
    path: string;
    message: RegExp;
    fix: RegExp;
  }[] = [
    {
      name: "missing metadata.json",
      files: { "ab12/v1/ab12.py": "#" },
      game: "ab12",
      code: "game-file",
      path: "ab12/v1/metadata.json",
      message: /metadata\.json is missing/,
      fix: /<id>\/<version>\/<id>\.py \+ metadata\.json/,
    },
    {
      name: "metadata.json that is not JSON",
      files: { "ab12/v1/metadata.json": "{ nope", "ab12/v1/ab12.py": "#" },
      game: "ab12",
      code: "game-file",
      path: "ab12/v1/metadata.json",
      message: /not valid JSON/,
      fix: /restore/,
    },
    {
      name: "metadata.json with a bad field",
      files: { "ab12/v1/metadata.json": meta("ab12-v1", { baseline_actions: [4, "seven"] }), "ab12/v1/ab12.py": "#" },
      game: "ab12",
      code: "game-file",
      path: "ab12/v1/metadata.json",
      message: /baseline_actions\.1: baseline_actions must hold numbers/,
      fix: /game_id/,
    },
    {
      name: "missing game file",
      files: { "ab12/v1/metadata.json": meta("ab12-v1") },
      game: "ab12",
      code: "game-file",
      path: "ab12/v1/ab12.py",
      message: /game file ab12\.py is missing/,
      fix: /beside metadata\.json/,
    },
    {
      name: "unknown game",
      files: { "ab12/v1/metadata.json": meta("ab12-v1"), "ab12/v1/ab12.py": "#" },
      game: "zz99",
      code: "unknown-game",
      path: "",
      message: /no ARC game "zz99"/,
      fix: /prolong games --arc-games .*\(ab12\)/,
    },
    {
      name: "unknown version",
      files: { "ab12/v1/metadata.json": meta("ab12-v1"), "ab12/v1/ab12.py": "#" },
      game: "ab12-v9",
      code: "unknown-game",
      path: "ab12",
      message: /no version "v9" \(it has: v1\)/,
      fix: /ab12-v1/,
    },
  ];
  for (const c of cases) {
    test(`${c.name} → an error naming the file, with the fix`, () => {
      const root = gamesDir(c.files);
      const e = arcLocalEnv({ gamesDir: root, game: c.game, seed: 0 })._unsafeUnwrapErr();
      expect(e.code).toBe(c.code);
      expect(e.path).toBe(join(root, c.path));
      expect(e.message).toMatch(c.message);
      expect(e.fix).toMatch(c.fix);
    });
  }

  test("a directory that does not exist, or holds no game", () => {
    expect(listArcGames(join(tmpdir(), "prolong-no-such-dir-4711"))._unsafeUnwrapErr().code).toBe("no-games-dir");
    expect(listArcGames(gamesDir({ "README.md": "hi" }))._unsafeUnwrapErr().code).toBe("no-games");
  });
});

describe("frames from the bridge", () => {
  test("one hex digit per cell, row-major; anything else is refused", () => {
    const g = hexToGrid("0f1a", 2, 2)!;
    expect([...g.cells]).toEqual([0, 15, 1, 10]);
    expect(hexToGrid("0f1", 2, 2)).toBeUndefined();
    expect(hexToGrid("0g1a", 2, 2)).toBeUndefined();
    expect(hexToGrid("0F1a", 2, 2)).toBeUndefined();
  });
});

const python = Bun.which("python3");
if (!python) console.log("skipping the interpreter tests: python3 is not on PATH");

describe.skipIf(!python)("the user's Python side", () => {
  const oneGame = () =>
    gamesDir({ "ab12/v1/metadata.json": meta("ab12-v1"), "ab12/v1/ab12.py": "raise SystemExit('never run')" });

  test("no interpreter → says exactly that and how to install one", async () => {
    const r = arcLocalEnv({ gamesDir: oneGame(), game: "ab12", seed: 0, python: "/nonexistent/python3" });
    const e = r.isErr() ? r.error : (await r.value.reset())._unsafeUnwrapErr();
    expect(e.code).toBe("python-missing");
    expect(e.message).toContain("cannot start /nonexistent/python3");
    expect(e.message).toContain("Python ≥ 3.11 with arcengine");
    expect(e.fix).toContain("pip install arc-agi");
  });

  // Only meaningful where arcengine is not installed for this interpreter.
  const engineInstalled =
    python !== null &&
    Bun.spawnSync([python, "-c", "import arcengine"], { env: { ...process.env, PYTHONPATH: "" } }).exitCode === 0;
  test.skipIf(engineInstalled)(
    `arcengine not importable → says exactly that and how to install it${engineInstalled ? " (skipped: arcengine is installed for python3, so it cannot be missing)" : ""}`,
    async () => {
      const saved = process.env.PROLONG_ARC_ENGINE;
      delete process.env.PROLONG_ARC_ENGINE;
      const savedPath = process.env.PYTHONPATH;
      delete process.env.PYTHONPATH;
      try {
        const env = arcLocalEnv({ gamesDir: oneGame(), game: "ab12", seed: 0 })._unsafeUnwrap();
        const e = (await env.reset())._unsafeUnwrapErr();
        await env.close();
        expect(e.code).toBe("arcengine-missing");
        expect(e.message).toMatch(/^arcengine is not importable by .*python.*: ModuleNotFoundError: No module named 'arcengine'/);
        expect(e.fix).toContain("pip install arc-agi");
        expect(e.fix).toContain("PROLONG_ARC_ENGINE");
      } finally {
        if (saved !== undefined) process.env.PROLONG_ARC_ENGINE = saved;
        if (savedPath !== undefined) process.env.PYTHONPATH = savedPath;
      }
    },
  );
});
