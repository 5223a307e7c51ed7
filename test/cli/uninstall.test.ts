// `prolong uninstall` through the real CLI: the session log it keeps stays out of git (its .gitignore entry
// stays with it), and the follow-ups it prints (--force, --remove-log) work.
import { expect, test } from "bun:test";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const MAIN = path.resolve(import.meta.dir, "../../src/main.ts");

function prolong(...args: string[]) {
  const p = Bun.spawnSync([process.execPath, MAIN, ...args], { stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

test("uninstall keeps the log and its .gitignore entry; the printed follow-ups remove the rest", () => {
  const root = mkdtempSync(path.join(tmpdir(), "prolong-uninstall-"));
  writeFileSync(path.join(root, ".gitignore"), "node_modules/\n");
  expect(prolong("init", "--client", "claude", "--dir", root).code).toBe(0);
  appendFileSync(
    path.join(root, ".prolong/log.jsonl"),
    '{"time":"t","client":"claude","session":"s","type":"prompt","content":"secret prompt"}\n',
  );
  const hook = path.join(root, ".prolong/hook.mjs");
  appendFileSync(hook, "// a local edit\n");

  const first = prolong("uninstall", "--dir", root);
  expect(first.err).toBe("");
  expect(first.code).toBe(0);
  expect(first.out).toContain("'prolong uninstall --force' removes it): .prolong/hook.mjs");
  expect(first.out).toContain("'prolong uninstall --remove-log' deletes both");
  expect(readFileSync(path.join(root, ".gitignore"), "utf8")).toContain(".prolong/log.jsonl");
  expect(existsSync(hook)).toBe(true);

  const forced = prolong("uninstall", "--dir", root, "--force");
  expect(forced.err).toBe("");
  expect(forced.code).toBe(0);
  expect(existsSync(hook)).toBe(false);
  expect(readFileSync(path.join(root, ".gitignore"), "utf8")).toContain(".prolong/log.jsonl");

  const last = prolong("uninstall", "--dir", root, "--remove-log");
  expect(last.err).toBe("");
  expect(last.code).toBe(0);
  expect(existsSync(path.join(root, ".prolong"))).toBe(false);
  expect(readFileSync(path.join(root, ".gitignore"), "utf8")).toBe("node_modules/\n");
  // Nothing is left: a further uninstall says so.
  expect(prolong("uninstall", "--dir", root).err).toContain("no manifest");
});
