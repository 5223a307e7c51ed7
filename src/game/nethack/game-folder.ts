// One private folder per game: HACKDIR and HOME of the game process. NetHack keeps its lock, level files,
// saves and score files there, so games never share a file; it is wiped before each game because a killed
// game leaves lock files that would stop the next one.
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../../errors.ts";
import { optionsText, type Character } from "./character.ts";
import { DATA_FILES } from "./install.ts";

/** Score and log files the game appends to; present and empty so it never complains about them. */
const EMPTY_FILES = ["record", "logfile", "xlogfile", "perm"] as const;
export const OPTIONS_FILE = "nethackrc";

/** Prepares `dir` for one game: links to the data files in `dataDir` (where the game will see them), empty score files, the options. */
export function prepareGameFolder(dir: string, dataDir: string, character: Character): Result<string, ProlongError> {
  try {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(join(dir, "save"), { recursive: true, mode: 0o700 });
    for (const f of DATA_FILES) symlinkSync(join(dataDir, f), join(dir, f));
    for (const f of EMPTY_FILES) writeFileSync(join(dir, f), "");
    writeFileSync(join(dir, OPTIONS_FILE), optionsText(character));
    return ok(dir);
  } catch (e) {
    return err(
      prolongError("nethack-folder", `cannot prepare the game folder: ${(e as Error).message}`, {
        path: dir,
        fix: "check that the run directory is writable",
      }),
    );
  }
}
