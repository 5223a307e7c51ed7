// What plays NetHack, loaded by its kind (kind.ts) when a run needs it: the game in a terminal, its named
// actions, its instructions, its keyboard for a person (its section codec is codec.ts, loaded on its own).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { err, ok } from "neverthrow";
import { prolongError } from "../../errors.ts";
import type { KindPlay } from "../kind.ts";
import { BALROG_NO_PROGRESS } from "./episode.ts";
import { nethackEntry } from "./actions.ts";
import { characterOf } from "./character.ts";
import { nethackEnv, nethackReport } from "./env.ts";
import { findNethack } from "./install.ts";
import { nethackInstructions } from "./instructions.ts";
import { nethackKeys } from "./keys.ts";
import { confinementLine } from "./confine.ts";
import type { nethackSettings } from "./kind.ts";

export const nethackPlay: Omit<KindPlay<typeof nethackSettings>, "codec"> = {
  open(run, context) {
    const balrog = run.protocol === "balrog";
    const chosen = run.role ?? run.race ?? run.alignment;
    if (balrog && chosen !== undefined)
      return err(
        prolongError("preset-conflict", `--protocol balrog draws the character from the seed, as BALROG does: not ${chosen}`, {
          path: "command line",
          fix: "drop --role, --race and --align (or drop --protocol balrog to choose the character)",
        }),
      );
    const sandbox = context.sandbox?.() ?? ok(null);
    if (sandbox.isErr()) return err(sandbox.error);
    context.summaryLine(confinementLine(sandbox.value ?? undefined));
    return findNethack().map(() =>
      nethackEnv({
        folder: join(context.workDir ?? mkdtempSync(join(tmpdir(), "prolong-nethack-")), "nethack"),
        seed: run.seed,
        character: characterOf(run),
        ...(sandbox.value ? { sandbox: sandbox.value } : {}),
        ...(balrog ? { pressMore: "all" as const, noProgressAfter: BALROG_NO_PROGRESS } : {}),
      }),
    );
  },
  actionEntry: (entry, run) => nethackEntry(entry, run?.protocol === "balrog" ? "esc" : "drop"),
  instructions: nethackInstructions,
  report: nethackReport,
  keys: nethackKeys,
  atGameOver: "episode-ends",
};
