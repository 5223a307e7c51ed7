// The committed local games (data/games/, played by the rules engine in game/) as an environment kind.
import { err, ok } from "neverthrow";
import type { KindPlay } from "../kind.ts";
import { envKindOf, gridCodec } from "../kind.ts";

export const localKind = envKindOf({
  name: "local",
  title: "the committed game",
  about: "the committed games (`prolong games` lists them)",
  settings: {},
  metric: "rhae",
  builtinPlayer: "explorer",
  async games(_run, ids) {
    const { findGame, listGames } = await import("../catalog.ts");
    const out = [];
    for (const id of ids === "all" ? listGames().map((g) => g.id) : ids) {
      const g = findGame(id);
      if (g.isErr()) return err(g.error);
      out.push({ id, version: g.value.info.version ?? null });
    }
    return ok(out);
  },
  async listing() {
    const { catalog } = await import("../catalog.ts");
    return ok(
      catalog().map((g) => ({
        id: g.info.id,
        title: g.info.title,
        about: g.about,
        levels: g.info.winLevels,
        actions: g.info.availableActions.map((a) => `ACTION${a}`),
        baselines: [...g.info.baselineActions],
        tags: [...g.info.tags],
      })),
    );
  },
  codec: gridCodec,
  async load(): Promise<Omit<KindPlay<{}>, "codec">> {
    const [{ createGame }, { localEnv }] = await Promise.all([import("../catalog.ts"), import("../env.ts")]);
    return { open: (run) => createGame(run.game, { seed: run.seed }).map(localEnv) };
  },
});
