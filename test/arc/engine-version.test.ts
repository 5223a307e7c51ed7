// The ARC engine in a run's provenance: the arcengine package the bridge would import (PROLONG_ARC_ENGINE first
// on the interpreter's path), by its version and a hash of its files. A stand-in package, imported by the real
// interpreter, stands for the engine (the real one is fetched, never committed).
import { expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { envKind } from "../../src/game/kinds.ts";

test("arc-local's provenance names the engine's version and a hash of its files", () => {
  const root = mkdtempSync(join(tmpdir(), "prolong-engine-"));
  mkdirSync(join(root, "arcengine"));
  writeFileSync(join(root, "arcengine", "__init__.py"), '__version__ = "9.8.7"\n');
  writeFileSync(join(root, "arcengine", "game.py"), "class Game: pass\n");
  const saved = process.env.PROLONG_ARC_ENGINE;
  process.env.PROLONG_ARC_ENGINE = root;
  try {
    const parts = envKind("arc-local").provenance?.({} as never) ?? {};
    expect(parts["arc engine"]).toMatch(/^9\.8\.7 [0-9a-f]{16}$/);
  } finally {
    if (saved === undefined) delete process.env.PROLONG_ARC_ENGINE;
    else process.env.PROLONG_ARC_ENGINE = saved;
  }
});
