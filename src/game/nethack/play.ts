// What plays NetHack, loaded by its kind (kind.ts) when a run needs it: the game in a terminal, its named
// actions, its instructions, and its section codec.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { KindPlay } from "../kind.ts";
import { nethackEntry } from "./actions.ts";
import { DEFAULT_CHARACTER } from "./character.ts";
import { nethackCodec } from "./codec.ts";
import { nethackEnv } from "./env.ts";
import { findNethack } from "./install.ts";
import { nethackInstructions } from "./instructions.ts";
import { nethackKeys } from "./keys.ts";
import { confinementLine } from "./confine.ts";
import type { nethackSettings } from "./kind.ts";

export const nethackPlay: KindPlay<typeof nethackSettings> = {
  open(run, context) {
    const character = {
      ...DEFAULT_CHARACTER,
      ...(run.role ? { role: run.role } : {}),
      ...(run.race ? { race: run.race } : {}),
      ...(run.alignment ? { alignment: run.alignment } : {}),
    };
    context.summaryLine(confinementLine(context.sandbox));
    return findNethack().map(() =>
      nethackEnv({
        folder: join(context.workDir ?? mkdtempSync(join(tmpdir(), "prolong-nethack-")), "nethack"),
        seed: run.seed,
        character,
        ...(context.sandbox ? { sandbox: context.sandbox } : {}),
      }),
    );
  },
  actionEntry: nethackEntry,
  instructions: nethackInstructions,
  screenLog: nethackCodec,
  keys: nethackKeys,
};
