// Starts one seeded NetHack game in its own freshly wiped folder: inside its sandbox when the run has one
// (confine.ts), else as the harness's user.
import { join } from "node:path";
import { ok, type Result } from "neverthrow";
import type { ProlongError } from "../../errors.ts";
import type { BwrapSupport } from "../../sandbox/bwrap.ts";
import type { Character } from "./character.ts";
import { confineNethack, DATA_DIR, GAME_COMM } from "./confine.ts";
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
  /** The sandbox to run the game in; absent: unconfined. */
  readonly sandbox?: BwrapSupport;
}

/** A fixed clock for every seeded game: 2024-01-03 12:00 UTC (no full or new moon, not Friday the 13th, daytime). */
export const FIXED_TIME = 1_704_283_200;

export async function launchNethack(opts: LaunchOptions): Promise<Result<GameTerminal, ProlongError>> {
  const args = opts.wizard ? ["-D"] : [];
  const started = findNethack()
    .andThen((install) =>
      prepareGameFolder(opts.folder, opts.sandbox ? DATA_DIR : install.hackdir, opts.character).map(() => install),
    )
    .andThen((install) => plainBinary(install.binary).map((binary) => ({ install, binary })))
    .andThen(({ install, binary }) => seedLibrary().map((shim) => ({ install, binary, shim })))
    .andThen(({ install, binary, shim }) =>
      opts.sandbox
        ? confineNethack(opts.sandbox, { binary, shim, hackdir: install.hackdir, folder: opts.folder }, args).map((c) => ({
            argv: c.argv,
            hackdir: c.hackdir,
            shim: c.seedLibrary,
          }))
        : ok({ argv: [binary, ...args], hackdir: opts.folder, shim }),
    );
  if (started.isErr()) return started.map(() => undefined as never);
  const { argv, hackdir, shim } = started.value;
  return GameTerminal.start({
    argv,
    cwd: opts.folder,
    env: {
      HACKDIR: hackdir,
      HOME: hackdir,
      NETHACKOPTIONS: join(hackdir, OPTIONS_FILE),
      TERM: "xterm",
      TZ: "UTC",
      LANG: "C",
      USER: "agent",
      PATH: "/usr/bin:/bin",
      LD_PRELOAD: shim,
      PROLONG_NETHACK_SEED: String(opts.seed),
      PROLONG_NETHACK_TIME: String(FIXED_TIME),
    },
    ...(opts.sandbox ? { gameComm: GAME_COMM } : {}),
    ...(opts.answerTimeoutMs !== undefined ? { answerTimeoutMs: opts.answerTimeoutMs } : {}),
  });
}
