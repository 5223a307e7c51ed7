// File I/O for the installer, as Results: every read or write names the file and the fix when it fails.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../errors.ts";

export function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The file's text, or null when it does not exist. */
export function readTextIfExists(abs: string): Result<string | null, ProlongError> {
  try {
    return ok(readFileSync(abs, "utf8"));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return ok(null);
    return err(prolongError("read-failed", `cannot read the file: ${message(e)}`, { path: abs, fix: "check its permissions" }));
  }
}

export function writeText(abs: string, text: string): Result<void, ProlongError> {
  try {
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, text);
    return ok(undefined);
  } catch (e) {
    return err(
      prolongError("write-failed", `cannot write the file: ${message(e)}`, {
        path: abs,
        fix: "check that the project directory is writable",
      }),
    );
  }
}

/** Removes a file, then each parent directory left empty by that, up to (not including) the project root. */
export function removeFileAndEmptyParents(root: string, abs: string): Result<void, ProlongError> {
  try {
    rmSync(abs, { force: true });
    let dir = path.dirname(abs);
    while (dir.startsWith(root + path.sep) && readdirSync(dir).length === 0) {
      rmdirSync(dir);
      dir = path.dirname(dir);
    }
    return ok(undefined);
  } catch (e) {
    return err(
      prolongError("remove-failed", `cannot remove the file: ${message(e)}`, { path: abs, fix: "check its permissions" }),
    );
  }
}
