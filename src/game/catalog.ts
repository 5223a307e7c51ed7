// The committed local games: data/games/*.json, embedded in the binary by static imports, checked against a
// valibot schema (common fields here, rule-specific fields by each rule kind) and turned into playable games.
// A malformed file is an error naming the file, the level and the field.
import { err, ok } from "neverthrow";
import { createHash } from "node:crypto";
import { didYouMean } from "../suggest.ts";
import type { Result } from "neverthrow";
import * as v from "valibot";
import { parseActionEntry } from "../action-text.ts";
import { prolongError } from "../errors.ts";
import type { ProlongError } from "../errors.ts";
import { LocalGame } from "./engine.ts";
import type { GameDef, LevelDef, Rules } from "./engine.ts";
import { countRules } from "./rules/count.ts";
import { echoRules } from "./rules/echo.ts";
import { flipRules } from "./rules/flip.ts";
import { fogRules } from "./rules/fog.ts";
import { pushRules } from "./rules/push.ts";
import { slideRules } from "./rules/slide.ts";
import { sortRules } from "./rules/sort.ts";
import { switchRules } from "./rules/switches.ts";
import { tideRules } from "./rules/tide.ts";
import { vaultRules } from "./rules/vault.ts";
import type { Action, ActionId, Game, GameInfo } from "../game-model.ts";
import barsFile from "../../data/games/bars.json";
import cratesFile from "../../data/games/crates.json";
import echoFile from "../../data/games/echo.json";
import glideFile from "../../data/games/glide.json";
import lumenFile from "../../data/games/lumen.json";
import murkFile from "../../data/games/murk.json";
import switchyardFile from "../../data/games/switchyard.json";
import tallyFile from "../../data/games/tally.json";
import tideFile from "../../data/games/tide.json";
import vaultFile from "../../data/games/vault.json";

/** Every committed game file, by its path relative to the project root. */
const GAME_FILES: readonly { readonly file: string; readonly raw: unknown }[] = [
  { file: "data/games/glide.json", raw: glideFile },
  { file: "data/games/lumen.json", raw: lumenFile },
  { file: "data/games/vault.json", raw: vaultFile },
  { file: "data/games/murk.json", raw: murkFile },
  { file: "data/games/switchyard.json", raw: switchyardFile },
  { file: "data/games/echo.json", raw: echoFile },
  // Written as a check set for the explorer (mechanics its rules were not tuned on; docs/explorer.md).
  { file: "data/games/crates.json", raw: cratesFile },
  { file: "data/games/bars.json", raw: barsFile },
  { file: "data/games/tally.json", raw: tallyFile },
  { file: "data/games/tide.json", raw: tideFile },
];

/** Rule kinds by the name a game file gives in "rules". Type-erased: each file's levels go to its own kind. */
const RULE_KINDS: Readonly<Record<string, Rules<unknown, unknown>>> = Object.fromEntries(
  [slideRules, flipRules, vaultRules, fogRules, switchRules, echoRules, pushRules, sortRules, countRules, tideRules].map((r) => [
    r.kind,
    r as unknown as Rules<unknown, unknown>,
  ]),
);

/** The rule kinds by name, for dev tools that solve levels (test/game/solver.ts). */
export const RULE_KINDS_FOR_TOOLS = RULE_KINDS;

const count = v.pipe(v.number(), v.integer(), v.minValue(1));
const levelCommon = v.looseObject({
  /** Actions before GAME_OVER; drawn as the bar on the bottom row. */
  budget: count,
  /** Action count of a good human solution (RHAE's baseline); at most the stored solution's length. */
  baseline: count,
  /** A stored solution: action strings such as "ACTION1" or "ACTION6(12,40)". */
  solution: v.pipe(v.array(v.string()), v.minLength(1)),
});
const gameFile = v.object({
  id: v.pipe(v.string(), v.regex(/^[a-z][a-z0-9-]*$/, "must be lowercase letters, digits and '-'")),
  title: v.pipe(v.string(), v.minLength(1)),
  rules: v.picklist(Object.keys(RULE_KINDS)),
  actions: v.pipe(v.array(v.picklist([1, 2, 3, 4, 5, 6, 7] as const)), v.minLength(1)),
  tags: v.array(v.string()),
  backdrop: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(15)),
  /** One sentence for humans (`prolong games`); agents are never told the rules. */
  about: v.string(),
  levels: v.pipe(v.array(v.unknown()), v.minLength(1)),
});

export interface GameEntry {
  readonly file: string;
  readonly info: GameInfo;
  readonly about: string;
  readonly levels: readonly LevelDef<unknown>[];
  readonly rules: Rules<unknown, unknown>;
  create(seed: number): LocalGame<unknown, unknown>;
}

function issueField(issue: v.BaseIssue<unknown>, prefix: string): string {
  const path = v.getDotPath(issue);
  return path === null ? prefix || "(top level)" : prefix ? `${prefix}.${path}` : path;
}

function fileError(file: string, where: string, problem: string): ProlongError {
  return prolongError("game-file", `${where}: ${problem}`, {
    path: file,
    fix: "correct that field; every level needs budget, baseline, solution and its rule kind's fields",
  });
}

function levelWhere(index: number, field: string): string {
  return `level ${index + 1}, field ${field}`;
}

/** Validates one game file's contents; `file` is only used in messages. */
export function loadGameFile(file: string, raw: unknown): Result<GameEntry, ProlongError> {
  const top = v.safeParse(gameFile, raw);
  if (!top.success) {
    const issue = top.issues[0];
    const field = issueField(issue, "");
    const m = /^levels\.(\d+)/.exec(field);
    const where = m ? levelWhere(Number(m[1]), field) : `field ${field}`;
    return err(fileError(file, where, issue.message));
  }
  const game = top.output;
  const rules = RULE_KINDS[game.rules];
  if (rules === undefined) return err(fileError(file, "field rules", `unknown rule kind '${game.rules}'`));
  const levels: LevelDef<unknown>[] = [];
  for (const [i, rawLevel] of game.levels.entries()) {
    const level = loadLevel(game.actions, rules, rawLevel);
    if (level.isErr()) return err(fileError(file, levelWhere(i, level.error.field), level.error.problem));
    levels.push(level.value);
  }
  const info: GameInfo = {
    id: game.id,
    title: game.title,
    winLevels: levels.length,
    availableActions: [...game.actions].sort() as ActionId[],
    baselineActions: levels.map((l) => l.baseline),
    tags: game.tags,
    version: createHash("sha256").update(JSON.stringify(raw), "utf8").digest("hex").slice(0, 12),
  };
  const def: GameDef<unknown, unknown> = { info, rules, levels, backdrop: game.backdrop };
  return ok({ file, info, about: game.about, levels, rules, create: (seed) => new LocalGame(def, { seed }) });
}

function loadLevel(
  offered: readonly number[],
  rules: Rules<unknown, unknown>,
  raw: unknown,
): Result<LevelDef<unknown>, { field: string; problem: string }> {
  const common = v.safeParse(levelCommon, raw);
  if (!common.success) return err({ field: issueField(common.issues[0], ""), problem: common.issues[0].message });
  const specific = v.safeParse(rules.levelSchema, raw);
  if (!specific.success) return err({ field: issueField(specific.issues[0], ""), problem: specific.issues[0].message });
  const bad = rules.check(specific.output);
  if (bad) return err(bad);
  const solution: Action[] = [];
  for (const [j, text] of common.output.solution.entries()) {
    const parsed = parseActionEntry(text);
    if (parsed.isErr()) return err({ field: `solution[${j}]`, problem: parsed.error });
    const action = parsed.value;
    if (action.id !== 0 && !offered.includes(action.id))
      return err({ field: `solution[${j}]`, problem: `${text} is not in the game's actions` });
    solution.push(action);
  }
  const { budget, baseline } = common.output;
  if (baseline > solution.length)
    return err({ field: "baseline", problem: `${baseline} is more than the stored solution's ${solution.length} actions` });
  if (budget < solution.length)
    return err({ field: "budget", problem: `${budget} is less than the stored solution's ${solution.length} actions` });
  return ok({ params: specific.output, budget, baseline, solution });
}

let loaded: readonly GameEntry[] | undefined;

/** Every committed game, validated once. A broken committed file is a bug the tests catch, hence the throw. */
export function catalog(): readonly GameEntry[] {
  if (loaded === undefined) {
    loaded = GAME_FILES.map(({ file, raw }) =>
      loadGameFile(file, raw).match(
        (g) => g,
        (e) => {
          throw new Error(`${e.path}: ${e.message}`);
        },
      ),
    );
  }
  return loaded;
}

export function listGames(): GameInfo[] {
  return catalog().map((g) => g.info);
}

export function findGame(id: string): Result<GameEntry, ProlongError> {
  const entry = catalog().find((g) => g.info.id === id);
  if (entry !== undefined) return ok(entry);
  const known = catalog().map((g) => g.info.id);
  return err(
    prolongError("unknown-game", `no committed game '${id}'${didYouMean(id, known)}`, {
      fix: `use one of: ${known.join(", ")} (\`prolong games\` lists them)`,
    }),
  );
}

export function createGame(id: string, options: { seed: number } = { seed: 0 }): Result<Game, ProlongError> {
  return findGame(id).map((entry) => entry.create(options.seed));
}
