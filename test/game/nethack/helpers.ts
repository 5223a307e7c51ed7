// Real NetHack for the tests: is it installed, a fresh folder per game, a game started with a seed, an episode
// in debug mode.
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseNethackAction } from "../../../src/game/nethack/actions.ts";
import { DEFAULT_CHARACTER } from "../../../src/game/nethack/character.ts";
import { NethackEpisode, type NethackFrame } from "../../../src/game/nethack/episode.ts";
import { NethackGame } from "../../../src/game/nethack/game.ts";
import { findNethack } from "../../../src/game/nethack/install.ts";

export const NO_NETHACK = findNethack().isErr();

export function gameRoot(): string {
  return mkdtempSync(join(tmpdir(), "prolong-nethack-test-"));
}

export async function startGame(seed: number, folder = join(gameRoot(), "game")): Promise<NethackGame> {
  const started = await NethackGame.start({ folder, seed, character: DEFAULT_CHARACTER });
  if (started.isErr()) throw new Error(started.error.message);
  return started.value.game;
}

export function action(name: string) {
  const a = parseNethackAction(name);
  if (!a.ok) throw new Error(a.reason);
  return a.action;
}

/** Plays the named actions, returning the screen text after each. */
export async function play(game: NethackGame, names: readonly string[]): Promise<string[]> {
  const screens: string[] = [];
  for (const n of names) {
    const r = await game.step(action(n));
    if (r.isErr()) throw new Error(r.error.message);
    screens.push(r.value.observation.screen.rows.join("\n"));
  }
  return screens;
}

/** Debug mode (-D) is what reaches the Quest, Fort Ludios or a polymorph in a test; sysconf lets root use it. */
export const NO_WIZARD = NO_NETHACK || process.getuid?.() !== 0;

/** A debug-mode episode driven by key presses and named actions; `frame` is the latest. */
export interface WizardEpisode {
  readonly frame: NethackFrame;
  /** Sends the keys; the screen after them. */
  press(keys: string): Promise<string>;
  play(name: string): Promise<void>;
  /** Answers the --More-- prompts on the screen (twelve at the most). */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export async function wizardEpisode(seed = 1): Promise<WizardEpisode> {
  const started = (
    await NethackEpisode.start({ folder: join(gameRoot(), "g"), seed, character: DEFAULT_CHARACTER, wizard: true })
  )._unsafeUnwrap();
  const ep = started.episode;
  let frame = started.frame;
  const press = async (keys: string) => {
    frame = (await ep.step({ name: "key", keys, help: "" }))._unsafeUnwrap();
    return frame.observation.screen.rows.join("\n");
  };
  return {
    get frame() {
      return frame;
    },
    press,
    play: async (name) => {
      frame = (await ep.step(action(name)))._unsafeUnwrap();
    },
    settle: async () => {
      for (let i = 0; i < 12 && /--More--/.test(frame.observation.screen.rows.join("\n")); i++) await press("\r");
    },
    close: () => ep.close(),
  };
}

/**
 * The processes named `nethack` below this one, a dead one not yet reaped included (the test is the harness:
 * the game is its descendant).
 */
export function gamesBelowUs(): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/comm`, "latin1").trimEnd() !== "nethack") continue;
      for (let p = Number(name); p > 1; ) {
        p = Number(/^\d+ \(.*\) \S (\d+)/s.exec(readFileSync(`/proc/${p}/stat`, "latin1"))![1]);
        if (p === process.pid) {
          out.push(Number(name));
          break;
        }
      }
    } catch {
      // gone meanwhile
    }
  }
  return out;
}
