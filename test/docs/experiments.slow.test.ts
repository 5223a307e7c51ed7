// The committed experiments' replays the fast tier leaves out (test/docs/experiments.test.ts holds the rest): the
// windowed arm's longest run.
import { defineReplays } from "./experiment-replays.ts";

defineReplays({ memory: [{ arm: "window-25", game: "murk", run: 1 }] });
