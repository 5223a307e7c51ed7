// What plays ARC, loaded by its kinds (kind.ts) when a run needs it: the engine offline through the Python
// bridge, or the REST service.
import { err } from "neverthrow";
import type { KindPlay } from "../kind.ts";
import { arcLocalEnv } from "./arc-local.ts";
import { arcOnlineEnv } from "./arc-online.ts";
import { arcGamesDir, type arcLocalSettings } from "./kind.ts";

export const arcLocalPlay: Omit<KindPlay<typeof arcLocalSettings>, "codec"> = {
  open(run) {
    const dir = arcGamesDir(run);
    return dir.isErr() ? err(dir.error) : arcLocalEnv({ gamesDir: dir.value, game: run.game, seed: run.seed });
  },
};

export const arcOnlinePlay: Omit<KindPlay<{}>, "codec"> = {
  open: (run, context) => arcOnlineEnv({ game: run.game, context }),
};
