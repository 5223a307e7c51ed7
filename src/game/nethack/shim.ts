// The seeding library (native/nethack-seed/seed.c, built by scripts/build-native.ts) and the plain copy of
// the game binary it needs. The library is imported as a file so `bun build --compile` embeds it in the
// single binary; the dynamic loader needs a real path, so both land in a per-user cache directory, written
// by temp + rename and reused while their bytes are the same.
import {
  chmodSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../../errors.ts";
import { NETHACK_SEED_LIBRARY as shimFile } from "../../native.ts";

/**
 * The per-user cache folder. What lands here is preloaded into the game, so a folder another user made first
 * in a shared /tmp (or a symlink planted there) would let them run code as this user: it must be a real
 * directory of ours that nobody else can write. Throws; both callers turn it into an error value.
 */
function cacheDir(): string {
  const uid = typeof process.getuid === "function" ? process.getuid() : 0;
  const dir = join(process.env.PROLONG_CACHE_DIR ?? tmpdir(), `prolong-nethack-${uid}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  if (!st.isDirectory() || st.uid !== uid || (st.mode & 0o022) !== 0) {
    throw new Error(
      `${dir} is not a private directory of this user (a symlink, another owner, or writable by others); remove it`,
    );
  }
  return dir;
}

function installAt(target: string, write: (tmp: string) => void): void {
  const tmp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  write(tmp);
  renameSync(tmp, target);
}

/** A real path to the seeding library. */
export function seedLibrary(): Result<string, ProlongError> {
  try {
    const bytes = new Uint8Array(readFileSync(shimFile));
    const target = join(cacheDir(), `nethack-seed-${Bun.hash(bytes).toString(16)}.so`);
    if (!existsSync(target)) installAt(target, (tmp) => writeFileSync(tmp, bytes, { mode: 0o755 }));
    return ok(target);
  } catch (e) {
    return err(
      prolongError("nethack-shim", `cannot write the NetHack seeding library: ${(e as Error).message}`, {
        fix: "set PROLONG_CACHE_DIR to a writable directory, or rebuild with npm run build:native",
      }),
    );
  }
}

/** A real path to a small file of `text` (the sandbox's sysconf, passwd), named by `stem` and its bytes' hash. */
export function cachedText(stem: string, text: string): Result<string, ProlongError> {
  try {
    const target = join(cacheDir(), `${stem}-${Bun.hash(text).toString(16)}`);
    if (!existsSync(target)) installAt(target, (tmp) => writeFileSync(tmp, text, { mode: 0o644 }));
    return ok(target);
  } catch (e) {
    return err(
      prolongError("nethack-shim", `cannot write the NetHack sandbox's ${stem}: ${(e as Error).message}`, {
        fix: "set PROLONG_CACHE_DIR to a writable directory",
      }),
    );
  }
}

/**
 * A copy of the game binary without the setgid bit (the loader ignores LD_PRELOAD for setgid programs). The
 * copy runs as the user; the game's writable files all live in the private game folder.
 */
export function plainBinary(binary: string): Result<string, ProlongError> {
  try {
    const st = statSync(binary);
    const target = join(cacheDir(), `nethack-console-${st.size}-${Math.floor(st.mtimeMs)}`);
    if (!existsSync(target)) {
      installAt(target, (tmp) => {
        copyFileSync(binary, tmp);
        chmodSync(tmp, 0o755);
      });
    }
    return ok(target);
  } catch (e) {
    return err(
      prolongError("nethack-copy", `cannot copy ${binary}: ${(e as Error).message}`, {
        path: binary,
        fix: "set PROLONG_CACHE_DIR to a writable directory",
      }),
    );
  }
}
