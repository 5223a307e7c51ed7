// Starts one seeded NetHack game in its own freshly wiped folder.
import { join } from "node:path";
import type { Result } from "neverthrow";
import type { ProlongError } from "../../errors.ts";
import type { Character } from "./character.ts";
import { OPTIONS_FILE, prepareGameFolder } from "./game-folder.ts";
import { findNethack } from "./install.ts";
import { plainBinary, seedLibrary } from "./shim.ts";
import { GameTerminal } from "./terminal.ts";

export interface LaunchOptions {
  /** The private game folder (created or wiped). */
  readonly folder: string;
  readonly seed: number;
  readonly character: Character;
  readonly answerTimeoutMs?: number;
  /** Debug mode (-D), for tests that need the Quest or a polymorph; needs the user in sysconf's WIZARDS. */
  readonly wizard?: boolean;
}

/** A fixed clock for every seeded game: 2024-01-03 12:00 UTC (no full or new moon, not Friday the 13th, daytime). */
export const FIXED_TIME = 1_704_283_200;

export async function launchNethack(opts: LaunchOptions): Promise<Result<GameTerminal, ProlongError>> {
  const found = findNethack()
    .andThen((install) => prepareGameFolder(opts.folder, install, opts.character).map(() => install))
    .andThen((install) => plainBinary(install.binary))
    .andThen((binary) => seedLibrary().map((shim) => ({ binary, shim })));
  if (found.isErr()) return found.map(() => undefined as never);
  const { binary, shim } = found.value;
  return GameTerminal.start({
    argv: opts.wizard ? [binary, "-D"] : [binary],
    cwd: opts.folder,
    env: {
      HACKDIR: opts.folder,
      HOME: opts.folder,
      NETHACKOPTIONS: join(opts.folder, OPTIONS_FILE),
      TERM: "xterm",
      TZ: "UTC",
      LANG: "C",
      USER: "agent",
      PATH: "/usr/bin:/bin",
      LD_PRELOAD: shim,
      PROLONG_NETHACK_SEED: String(opts.seed),
      PROLONG_NETHACK_TIME: String(FIXED_TIME),
    },
    ...(opts.answerTimeoutMs !== undefined ? { answerTimeoutMs: opts.answerTimeoutMs } : {}),
  });
}
