// Where the arc tests find ARC's engine, the public game files and the published logs. None of them is
// committed: the engine and games are snapshots a developer fetches (docs/arc.md), named by environment
// variables; the logs live in ../shared beside the project. Each suite skips with a printed reason when its
// inputs are absent (as in CI, which has no network to fetch them).
import { afterAll, beforeAll } from "bun:test";
import { existsSync } from "node:fs";
import path from "node:path";

const projectRoot = path.resolve(import.meta.dir, "../..");
export const FIXTURES = path.resolve(projectRoot, "../shared/fixtures/prolong-release");

/** The small arcengine stand-in committed beside these tests, and its games: enough to run the bridge without ARC's engine. */
export const STAND_IN_ENGINE = path.join(import.meta.dir, "stand-in");

/** Points PROLONG_ARC_ENGINE at the stand-in for the test file's whole run, then puts back what was there. */
export function useStandInEngine(): void {
  const saved = process.env.PROLONG_ARC_ENGINE;
  beforeAll(() => {
    process.env.PROLONG_ARC_ENGINE = STAND_IN_ENGINE;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.PROLONG_ARC_ENGINE;
    else process.env.PROLONG_ARC_ENGINE = saved;
  });
}

export interface ArcSetup {
  /** Directory holding arcengine/ (PROLONG_ARC_ENGINE). */
  readonly engine: string;
  /** Games directory, <id>/<version>/<id>.py + metadata.json (PROLONG_ARC_GAMES). */
  readonly games: string;
}

/** The engine and games, or the reason the suite is skipped. */
export function arcSetup(): ArcSetup | string {
  const engine = process.env.PROLONG_ARC_ENGINE;
  const games = process.env.PROLONG_ARC_GAMES;
  if (!engine || !games)
    return "PROLONG_ARC_ENGINE and PROLONG_ARC_GAMES are not both set (see docs/arc.md to fetch ARC's engine and games)";
  if (!existsSync(path.join(engine, "arcengine", "__init__.py")))
    return `PROLONG_ARC_ENGINE=${engine} holds no arcengine/__init__.py`;
  if (!existsSync(games)) return `PROLONG_ARC_GAMES=${games} does not exist`;
  return { engine, games };
}

/** Like arcSetup, and the published logs must be present too. */
export function arcWithFixtures(): ArcSetup | string {
  const s = arcSetup();
  if (typeof s === "string") return s;
  if (!existsSync(FIXTURES)) return `${FIXTURES} is absent (it ships beside the project in ../shared)`;
  return s;
}

/** The four published runs: game directory in the fixtures, and the game version that wrote them. */
export const PUBLISHED = [
  { name: "ft09", version: "ft09-0d8bbf25" },
  { name: "lp85", version: "lp85-305b61c3" },
  { name: "m0r0", version: "m0r0-492f87ba" },
  { name: "cn04", version: "cn04-2fe56bfb" },
] as const;
