// What outside prolong's build decides a NetHack run: the game binary (its bytes' hash: another NetHack build
// plays other games from the same seed) and the options file the run's character gives.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { characterOf, optionsText } from "./character.ts";
import { findNethack } from "./install.ts";

const short = (bytes: string | Uint8Array) => createHash("sha256").update(bytes).digest("hex").slice(0, 16);

// The binary does not change while a process runs: hashed once.
let binaryHash: string | null | undefined;

export function nethackProvenance(config: Parameters<typeof characterOf>[0]): Record<string, string> {
  if (binaryHash === undefined) {
    const found = findNethack();
    binaryHash = found.isOk() ? short(readFileSync(found.value.binary)) : null;
  }
  return {
    ...(binaryHash ? { "nethack binary": binaryHash } : {}),
    "nethack options": short(optionsText(characterOf(config))),
  };
}
