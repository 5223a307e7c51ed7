// `prolong view --png` on a NetHack log: one error saying a screen is text, not a board, and where to see it
// (it once blamed the screen's characters for not being hex cells).
import { expect, test } from "bun:test";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildLog } from "../agent/nethack/log-builder.ts";

const MAIN = path.resolve(import.meta.dir, "../../src/main.ts");

test("view --png of a NetHack log names the screen, not hex cells, and points to log show and the HTML replay", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "prolong-png-screen-"));
  const log = path.join(dir, "logs.txt");
  writeFileSync(
    log,
    buildLog([{ map: ["  -----", "  |.@.|", "  -----"] }, { action: "search", map: ["  -----", "  |.@.|", "  -----"] }]),
  );
  const out = path.join(dir, "x.png");
  const p = Bun.spawnSync([process.execPath, MAIN, "view", "--png", log, "last", "-o", out], { stdout: "pipe", stderr: "pipe" });
  expect(p.exitCode).toBe(2);
  const text = p.stderr.toString();
  expect(text).toContain("is a NetHack screen (text), not a grid board");
  expect(text).toContain(`prolong log show ${log} last`);
  expect(text).not.toContain("hex");
  expect(existsSync(out)).toBe(false);
});
