// Where Debian's NetHack lives, and the one message that says how to get it.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../../errors.ts";

/** The Debian package's game directory: the tty binary and its data files (nhdat, symbols, license). */
export const SYSTEM_HACKDIR = "/usr/lib/games/nethack";
export const INSTALL_COMMAND = "apt-get install -y nethack-console";
/** Files of the game directory each private game folder links to. */
export const DATA_FILES = ["nhdat", "symbols", "license"] as const;

export interface NethackInstall {
  /** The (setgid) console binary shipped by Debian; run through a plain copy so LD_PRELOAD is honoured. */
  readonly binary: string;
  readonly hackdir: string;
}

/** Finds NetHack 3.6 (Debian's nethack-console); PROLONG_NETHACK_DIR points elsewhere for other layouts. */
export function findNethack(env: Record<string, string | undefined> = process.env): Result<NethackInstall, ProlongError> {
  const hackdir = env.PROLONG_NETHACK_DIR ?? SYSTEM_HACKDIR;
  const binary = join(hackdir, "nethack-console");
  const missing = [binary, ...DATA_FILES.map((f) => join(hackdir, f))].find((p) => !existsSync(p));
  if (missing === undefined) return ok({ binary, hackdir });
  return err(
    prolongError("no-nethack", `NetHack is not installed: ${missing} is missing`, {
      path: missing,
      fix: `install Debian's NetHack 3.6 as root: apt-get update && ${INSTALL_COMMAND} (or set PROLONG_NETHACK_DIR to a directory holding nethack-console, nhdat, symbols and license)`,
    }),
  );
}
