// Breadth-first search over a level's rule states: finds a shortest solution, used to write the stored
// solutions in data/games/*.json (`bun test/game/solver.ts <game-file> [--write]`) and by tests.
// A test helper, not an agent: it reads the hidden rule state, which no agent ever sees.
import { layoutFor, tileCentre } from "../../src/game/engine.ts";
import type { Move, Rules } from "../../src/game/engine.ts";
import type { Action } from "../../src/game-model.ts";

interface Node<S> {
  readonly state: S;
  readonly parent: Node<S> | undefined;
  readonly action: Action | undefined;
}

/** Shortest action list that solves the level, or undefined within `maxNodes` states. */
export function solveLevel(
  rules: Rules<unknown, unknown>,
  params: unknown,
  offered: readonly number[],
  maxNodes = 500_000,
): Action[] | undefined {
  const { width, height } = rules.size(params);
  const layout = layoutFor(width, height);
  const moves: { action: Action; move: Move }[] = [];
  const dirs = [
    [1, 0, -1],
    [2, 0, 1],
    [3, -1, 0],
    [4, 1, 0],
  ] as const;
  for (const [id, dx, dy] of dirs) if (offered.includes(id)) moves.push({ action: { id }, move: { kind: "move", dx, dy } });
  if (offered.includes(5)) moves.push({ action: { id: 5 }, move: { kind: "interact" } });
  if (offered.includes(6)) {
    for (let ty = 0; ty < height; ty++) {
      for (let tx = 0; tx < width; tx++) {
        const c = tileCentre(layout, tx, ty);
        moves.push({ action: { id: 6, x: c.x, y: c.y }, move: { kind: "click", tx, ty } });
      }
    }
  }
  const start = rules.start(params, { attempt: 1, seed: 0 });
  const seen = new Set<string>([rules.key(start)]);
  let frontier: Node<unknown>[] = [{ state: start, parent: undefined, action: undefined }];
  while (frontier.length > 0 && seen.size < maxNodes) {
    const next: Node<unknown>[] = [];
    for (const node of frontier) {
      for (const { action, move } of moves) {
        const t = rules.step(params, node.state, move);
        if (t.outcome === "dead") continue;
        const child: Node<unknown> = { state: t.state, parent: node, action };
        if (t.outcome === "solved") return pathTo(child);
        const key = rules.key(t.state);
        if (seen.has(key)) continue;
        seen.add(key);
        next.push(child);
      }
    }
    frontier = next;
  }
  return undefined;
}

function pathTo(node: Node<unknown>): Action[] {
  const path: Action[] = [];
  for (let n: Node<unknown> | undefined = node; n?.action !== undefined; n = n.parent) path.push(n.action);
  return path.reverse();
}

if (import.meta.main) {
  const { readFileSync, writeFileSync } = await import("node:fs");
  const { actionText } = await import("../../src/action-text.ts");
  const { RULE_KINDS_FOR_TOOLS } = await import("../../src/game/catalog.ts");
  const [file, flag] = process.argv.slice(2);
  if (file === undefined) throw new Error("usage: bun test/game/solver.ts data/games/<game>.json [--write]");
  const game = JSON.parse(readFileSync(file, "utf8"));
  const rules = RULE_KINDS_FOR_TOOLS[game.rules];
  if (rules === undefined) throw new Error(`unknown rules ${game.rules}`);
  for (const [i, level] of game.levels.entries()) {
    const found = solveLevel(rules, level, game.actions);
    const text = found?.map((a) => actionText(a, "entry"));
    console.log(`level ${i + 1}: ${text ? `${text.length} actions: ${text.join(" ")}` : "NOT SOLVED"} (budget ${level.budget})`);
    if (text && flag === "--write") {
      level.solution = text;
      level.baseline = text.length;
    }
  }
  if (flag === "--write") writeFileSync(file, JSON.stringify(game, null, 2) + "\n");
}
