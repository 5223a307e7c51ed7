// ARC-AGI-3 as two environment kinds: its engine run offline over a directory of game files (arc-local), and
// its REST service (arc-online). What plays them (play.ts: the Python bridge, the HTTP client) loads only
// when a run needs it; the games directory is read where `--games` asks for it.
import { err, ok } from "neverthrow";
import * as v from "valibot";
import { prolongError } from "../../errors.ts";
import { resolve } from "node:path";
import { flag } from "../../setting/flag.ts";
import { setting, Text } from "../../setting/declaration.ts";
import { envKindOf, gridCodec } from "../kind.ts";

/** The environment variable that names the ARC games directory when --arc-games is not given. */
export const ARC_GAMES_VARIABLE = "PROLONG_ARC_GAMES";

export const arcLocalSettings = {
  /** The directory of ARC game files (<id>/<version>/<id>.py + metadata.json). */
  arcGames: setting({
    schema: v.optional(Text(4096, "--arc-games")),
    // Saved absolute: run.json must work from any directory.
    flag: { name: "arc-games", read: flag.text(), toField: (value) => resolve(String(value)) },
    // Where the game files lie on this machine: the game's version is checked instead.
    arm: false,
    help: {
      group: "games",
      arg: "DIR",
      text: `for arc-local: ARC game files laid out as <id>/<version>/<id>.py + metadata.json
(default: the directory ${ARC_GAMES_VARIABLE} names)`,
    },
  }),
};

/** The games directory of an arc-local run: --arc-games, or the environment's PROLONG_ARC_GAMES. */
export function arcGamesDir(run: { readonly arcGames?: string | undefined }) {
  const dir = run.arcGames ?? process.env[ARC_GAMES_VARIABLE];
  return dir
    ? ok(dir)
    : err(
        prolongError("bad-config", "--env arc-local needs the ARC games directory", {
          fix: `pass --arc-games DIR (<id>/<version>/<id>.py + metadata.json) or set ${ARC_GAMES_VARIABLE}`,
        }),
      );
}

export const arcLocalKind = envKindOf({
  name: "arc-local",
  title: "ARC's engine",
  about: "ARC-AGI-3's engine, offline, over a directory of game files",
  settings: arcLocalSettings,
  metric: "rhae",
  builtinPlayer: "explorer",
  provenance: () => (require("./engine-version.ts") as typeof import("./engine-version.ts")).arcEngineProvenance(),
  async games(run, ids) {
    const dir = arcGamesDir(run);
    if (dir.isErr()) return err(dir.error);
    const { findArcGame, listArcGames } = await import("./games-dir.ts");
    if (ids === "all") return listArcGames(dir.value).map((all) => all.map((g) => ({ id: g.gameId, version: g.version })));
    const out = [];
    for (const id of ids) {
      const g = findArcGame(dir.value, id);
      if (g.isErr()) return err(g.error);
      out.push({ id, version: g.value.version });
    }
    return ok(out);
  },
  async listing(run) {
    const dir = arcGamesDir(run);
    if (dir.isErr()) return err(dir.error);
    const { listArcGames } = await import("./games-dir.ts");
    // Actions are known once a game runs: none listed. The game file stands where a local game's description does.
    return listArcGames(dir.value).map((entries) =>
      entries.map((e) => ({
        id: e.gameId,
        title: e.title,
        about: e.gameFile,
        levels: e.baselineActions.length,
        actions: [],
        baselines: [...e.baselineActions],
        tags: [...e.tags],
      })),
    );
  },
  load: async () => (await import("./play.ts")).arcLocalPlay,
  codec: gridCodec,
});

export const arcOnlineKind = envKindOf({
  name: "arc-online",
  title: "ARC's service",
  about: "ARC-AGI-3's REST service (needs ARC_API_KEY)",
  settings: {},
  metric: "rhae",
  builtinPlayer: "explorer",
  async games(_run, ids) {
    // The service lists no games without a key and a scorecard: the games are named.
    if (ids === "all")
      return err(
        prolongError("bad-games", "--env arc-online has no list of all games", { fix: "name the games: --games a,b,c" }),
      );
    return ok(ids.map((id) => ({ id, version: null })));
  },
  load: async () => (await import("./play.ts")).arcOnlinePlay,
  codec: gridCodec,
});
