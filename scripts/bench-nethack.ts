// Keys per second through the NetHack driver: N seeded games in this one process, each sent the same K
// single-byte keys (moves and searches), every key waited for until the game has answered it.
//
// usage: bun scripts/bench-nethack.ts [--games 1] [--keys 2000]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_CHARACTER } from "../src/game/nethack/character.ts";
import { launchNethack } from "../src/game/nethack/launch.ts";

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const games = flag("--games", 1);
const keys = flag("--keys", 2000);
const SEQUENCE = "hjklyubnsHJKL";
const root = mkdtempSync(join(tmpdir(), "prolong-bench-nethack-"));
const started = await Promise.all(
  Array.from({ length: games }, (_, k) =>
    launchNethack({ folder: join(root, `g${k}`), seed: k + 1, character: DEFAULT_CHARACTER }),
  ),
);
const terms = started.map((r) => r._unsafeUnwrap());
const t0 = performance.now();
const sent = await Promise.all(
  terms.map(async (t) => {
    let n = 0;
    for (; n < keys && t.exited === null; n++) {
      const r = await t.press(SEQUENCE[n % SEQUENCE.length]!);
      if (r.isErr()) throw new Error(r.error.message);
    }
    return n;
  }),
);
const seconds = (performance.now() - t0) / 1000;
const total = sent.reduce((a, b) => a + b, 0);
await Promise.all(terms.map((t) => t.close()));
rmSync(root, { recursive: true, force: true });
console.log(`bench-nethack: ${games} game(s), ${total} keys in ${seconds.toFixed(2)} s: ${Math.round(total / seconds)} keys/s`);
