// The seeding library is preloaded into the game, so the cache folder it is copied to must be this user's
// own private directory: one planted first in a shared /tmp (another owner, writable by others, or a
// symlink) would let someone else's file run as this user.
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NETHACK_SEED_LIBRARY } from "../../../src/native.ts";
import { seedLibrary } from "../../../src/game/nethack/shim.ts";

const saved = process.env.PROLONG_CACHE_DIR;
afterEach(() => {
  if (saved === undefined) delete process.env.PROLONG_CACHE_DIR;
  else process.env.PROLONG_CACHE_DIR = saved;
});

function cacheRoot(): { root: string; dir: string } {
  const root = mkdtempSync(join(tmpdir(), "prolong-shim-"));
  process.env.PROLONG_CACHE_DIR = root;
  return { root, dir: join(root, `prolong-nethack-${process.getuid!()}`) };
}

describe("the seeding library's cache folder", () => {
  test("a fresh private folder receives the library's exact bytes", () => {
    const { dir } = cacheRoot();
    const path = seedLibrary()._unsafeUnwrap();
    expect(path.startsWith(dir + "/")).toBe(true);
    expect(Buffer.compare(readFileSync(path), readFileSync(NETHACK_SEED_LIBRARY))).toBe(0);
  });

  test("a folder writable by others is refused, naming it", () => {
    const { dir } = cacheRoot();
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    const e = seedLibrary()._unsafeUnwrapErr();
    expect(e.code).toBe("nethack-shim");
    expect(e.message).toContain(dir);
  });

  test("a symlink in its place is refused", () => {
    const { root, dir } = cacheRoot();
    const elsewhere = join(root, "elsewhere");
    mkdirSync(elsewhere, { mode: 0o700 });
    symlinkSync(elsewhere, dir);
    expect(seedLibrary()._unsafeUnwrapErr().message).toContain("not a private directory");
  });
});
