// treeHash (native) against its TypeScript twin: the same walk, order and framing written out in TS, the bytes
// hashed by the one blake3 both share, on this source tree and on a tree built to hold every case the contract
// names (byte order of names, nested directories, empty files, a link and a FIFO left out, a missing part).
import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { blake3, treeHash } from "../src/native.ts";

/** The contract in TS: every file's relative path, NUL, bytes, NUL, in walk order; blake3 of the whole. */
function twin(root: string, parts: readonly string[]): string {
  const chunks: Uint8Array[] = [];
  const add = (abs: string, rel: string) => chunks.push(Buffer.from(`${rel}\0`), readFileSync(abs), Buffer.from("\0"));
  const walk = (abs: string, rel: string) => {
    const entries = readdirSync(abs, { withFileTypes: true }).sort((a, b) =>
      Buffer.compare(Buffer.from(a.name), Buffer.from(b.name)),
    );
    for (const e of entries) {
      if (e.isDirectory()) walk(join(abs, e.name), `${rel}/${e.name}`);
      else if (e.isFile()) add(join(abs, e.name), `${rel}/${e.name}`);
    }
  };
  for (const part of parts) {
    const abs = join(root, part);
    let st: ReturnType<typeof statSync> | undefined;
    try {
      st = statSync(abs);
    } catch {
      continue;
    }
    if (st.isDirectory()) walk(abs, part);
    else if (st.isFile()) add(abs, part);
  }
  return blake3(Buffer.concat(chunks));
}

describe("treeHash = its twin", () => {
  test("this source tree's code parts", () => {
    const root = join(import.meta.dir, "..");
    const parts = ["src", "data", "native/prolong-native.node", "package.json"];
    expect(treeHash(root, parts)).toBe(twin(root, parts));
  });

  test("byte order, nesting, empty files, a link and a FIFO left out, a missing part, a file part", () => {
    const root = mkdtempSync(join(tmpdir(), "prolong-tree-"));
    mkdirSync(join(root, "src", "b", "deep"), { recursive: true });
    writeFileSync(join(root, "src", "B.ts"), "upper");
    writeFileSync(join(root, "src", "a.ts"), "a");
    writeFileSync(join(root, "src", "b", "deep", "e.ts"), "");
    writeFileSync(join(root, "src", "b", "c.ts"), "c");
    symlinkSync(join(root, "src", "a.ts"), join(root, "src", "link.ts"));
    execFileSync("mkfifo", [join(root, "src", "pipe")]);
    writeFileSync(join(root, "package.json"), "{}");
    const parts = ["src", "missing", "package.json"];
    const before = treeHash(root, parts);
    expect(before).toBe(twin(root, parts));
    // A byte changed anywhere changes it; the order of the parts is part of it.
    writeFileSync(join(root, "src", "b", "deep", "e.ts"), "x");
    expect(treeHash(root, parts)).not.toBe(before);
    expect(treeHash(root, parts)).toBe(twin(root, parts));
    expect(treeHash(root, ["package.json", "src"])).toBe(twin(root, ["package.json", "src"]));
    expect(treeHash(root, ["package.json", "src"])).not.toBe(treeHash(root, ["src", "package.json"]));
  });
});
