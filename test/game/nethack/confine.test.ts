// NetHack inside the sandbox (game/nethack/confine.ts): the game process a run starts under bwrap is not root,
// holds no capability, has no network, sees no shell and can write nowhere but its own game folder; it plays
// the same game, screen for screen, as the unconfined one.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, readlinkSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_CHARACTER } from "../../../src/game/nethack/character.ts";
import { NethackEpisode } from "../../../src/game/nethack/episode.ts";
import { err } from "neverthrow";
import { NO_ENV_CONTEXT } from "../../../src/game/env.ts";
import { nethackPlay } from "../../../src/game/nethack/play.ts";
import { gameSandbox, noBwrap, probeBwrap } from "../../../src/sandbox/bwrap.ts";
import { playGame } from "../../run/helpers.ts";
import { gameRoot, gamesBelowUs, NO_NETHACK } from "./helpers.ts";

const BWRAP = probeBwrap();
const SKIP = NO_NETHACK || BWRAP === null;

/** What a look at a live game process found. */
interface Seen {
  readonly uid: string;
  readonly caps: Record<string, string>;
  readonly sameNetwork: boolean;
  /** Places inside its sandbox a write reached (as root, through /proc/PID/root: only the mounts' flags stop it). */
  readonly written: readonly string[];
  readonly shell: boolean;
}

function look(pid: number): Seen | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "latin1");
    const field = (k: string) => new RegExp(`^${k}:\\s*(.*)$`, "m").exec(status)?.[1] ?? "";
    const root = `/proc/${pid}/root`;
    const written: string[] = [];
    for (const dir of ["/", "/etc", "/etc/nethack", "/opt/prolong", "/usr/lib/games/nethack", "/nethack/save", "/nethack"]) {
      const probe = join(root, dir, `prolong-probe-${process.pid}`);
      try {
        writeFileSync(probe, "x");
        written.push(dir);
        unlinkSync(probe);
      } catch {
        // read-only (or not there): what the test wants
      }
    }
    return {
      uid: field("Uid"),
      caps: Object.fromEntries(["CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"].map((k) => [k, field(k)])),
      sameNetwork: readlinkSync(`/proc/${pid}/ns/net`) === readlinkSync("/proc/self/ns/net"),
      written,
      shell: ["/bin/sh", "/bin/bash", "/usr/bin/sh", "/usr/bin/bash"].some((s) => existsSync(join(root, s))),
    };
  } catch {
    return null;
  }
}

const NO_CAPS = "0000000000000000";

describe.skipIf(SKIP)(`NetHack in the sandbox${SKIP ? " (skipped: needs NetHack and a working bubblewrap)" : ""}`, () => {
  test("a run under bwrap: the game is not root, holds no capability, is offline, finds no shell and writes only its folder", async () => {
    const seen: Seen[] = [];
    const sampler = setInterval(() => {
      for (const pid of gamesBelowUs()) {
        const s = look(pid);
        if (s) seen.push(s);
      }
    }, 50);
    let run: Awaited<ReturnType<typeof playGame>>;
    try {
      run = await playGame({ game: "nethack", env: "nethack", seed: 5, maxActions: 20, sandbox: "bwrap" });
    } finally {
      clearInterval(sampler);
    }
    expect(seen.length).toBeGreaterThan(0);
    for (const s of seen) {
      const [real, effective] = s.uid.split(/\s+/);
      expect(real).not.toBe("0");
      expect(effective).not.toBe("0");
      expect(s.caps).toEqual({ CapInh: NO_CAPS, CapPrm: NO_CAPS, CapEff: NO_CAPS, CapBnd: NO_CAPS, CapAmb: NO_CAPS });
      expect(s.sameNetwork).toBe(false);
      expect(s.shell).toBe(false);
      // Only the game folder (and what is in it) takes a write; every other place is a read-only mount.
      expect(s.written).toEqual(["/nethack/save", "/nethack"]);
    }
    // The game folder is the game's: it wrote its lock and level files there as that uid.
    const folder = join(run.session.paths.dir, "nethack");
    expect(statSync(folder).uid).toBe(Number(seen[0]!.uid.split(/\s+/)[0]));
    expect(readFileSync(join(run.session.paths.dir, "summary.txt"), "utf8")).toMatch(
      /game {7}NetHack ran in bubblewrap as uid \d+, no network, only its game folder writable/,
    );
  }, 120_000);

  test("under --sandbox none the game runs as today, and the summary says so", async () => {
    const run = await playGame({ game: "nethack", env: "nethack", seed: 5, maxActions: 5, sandbox: "none" });
    expect(readFileSync(join(run.session.paths.dir, "summary.txt"), "utf8")).toContain(
      `NetHack ran unconfined, as the harness's user (uid ${process.getuid!()})`,
    );
  }, 60_000);

  test("the same seed and keys give the same screens inside the sandbox and out; the shell escape is refused", async () => {
    const keys = ["k", "l", "s", "j", "h", "h", "i", "\x1b", ",", "!", "\x1b", "20s", "L", "\x1b"];
    const play = async (confined: boolean) => {
      const started = (
        await NethackEpisode.start({
          folder: join(gameRoot(), "g"),
          seed: 11,
          character: DEFAULT_CHARACTER,
          ...(confined ? { sandbox: BWRAP! } : {}),
        })
      )._unsafeUnwrap();
      const screens = [started.frame.observation.screen.rows.join("\n")];
      for (const k of keys)
        screens.push(
          (await started.episode.step({ name: "key", keys: k, help: "" }))._unsafeUnwrap().observation.screen.rows.join("\n"),
        );
      await started.episode.close();
      return screens;
    };
    // Both games at once: each in its own folder, and the screens are compared after.
    const [inside, outside] = await Promise.all([play(true), play(false)]);
    expect(inside).toEqual(outside);
    expect(inside[keys.indexOf("!") + 1]!.split("\n")[0]).toContain("Unknown command '!'");
  }, 120_000);
});

describe("which sandbox a game's own process gets", () => {
  test("--sandbox bwrap where bubblewrap cannot run is refused, as for an agent; auto then runs unconfined; none never asks", () => {
    const missing = () => null;
    expect(gameSandbox("bwrap", missing)._unsafeUnwrapErr().fix).toContain("apt-get install bubblewrap");
    expect(gameSandbox("auto", missing)._unsafeUnwrap()).toBeNull();
    expect(
      gameSandbox("none", () => {
        throw new Error("not asked");
      })._unsafeUnwrap(),
    ).toBeNull();
  });

  test("NetHack refuses to start when the run's --sandbox bwrap cannot be had, naming the fix", () => {
    const opened = nethackPlay.open({ game: "nethack", seed: 0 } as never, { ...NO_ENV_CONTEXT, sandbox: () => err(noBwrap()) });
    expect(opened._unsafeUnwrapErr().code).toBe("no-sandbox");
  });
});

describe.skipIf(SKIP)("closing a confined game", () => {
  // Killing only bwrap closed the game's session: the kernel sent the game SIGHUP, NetHack's hangup handler
  // saved it, and that save reached the next episode's freshly wiped folder, whose first screen was then
  // "Restoring save file..." (a lifetime test saw it under load, 1 run in 4).
  test("kills the game itself first: no game process outlives close(), and no hangup save is left", async () => {
    const { launchNethack } = await import("../../../src/game/nethack/launch.ts");
    const folder = join(gameRoot(), "game");
    for (let round = 0; round < 3; round++) {
      const game = (await launchNethack({ folder, seed: 4, character: DEFAULT_CHARACTER, sandbox: BWRAP! }))._unsafeUnwrap();
      expect(game.text()).toContain("Dlvl:1");
      expect(gamesBelowUs().length).toBe(1);
      await game.close();
      expect(gamesBelowUs()).toEqual([]);
      await Bun.sleep(300);
      expect(readdirSync(join(folder, "save"))).toEqual([]);
    }
  }, 60_000);
});
