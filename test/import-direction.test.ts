// The arrows between src/'s folders point one way: every import goes from a folder to one listed BELOW it
// in LAYERS, so no two folders import each other (directly or round a cycle), and no code under src/ imports
// code from outside it (test/, scripts/). A new folder or top-level file must be placed in LAYERS to pass.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative, sep } from "node:path";

const SRC = join(import.meta.dir, "..", "src");

/**
 * Lowest first. A folder may import only from folders in earlier entries. The top-level files come first,
 * one entry each (they import nothing of ours but the data they name); main.ts is the very top.
 */
const LAYERS: readonly (readonly string[])[] = [
  ["terminal-text"], // the one escaping of outside text for a terminal: imports nothing
  ["version", "errors", "clock", "random", "suggest", "game-model", "native", "libc", "assets.d"],
  ["action-text"], // an action as text, both ways: the one grammar and formatter
  // a run directory's file reader and writer; which build is running (version, commit, code hash)
  ["safe-file", "build-id"],
  ["sandbox"], //     bubblewrap's primitives: the probe, the dropped privileges, a tree of only what is bound
  ["setting"], //     what a setting is (a declaration, a flag's reading), the log window
  ["log"], //         the log format, the master, the run index, the agent's copy, windows
  ["workspace"], //   every harness access to the agent's directory
  ["game"], //        environment kinds and their registry: local games, ARC, NetHack (sections build on log/)
  ["config"], //      the run's settings (its own and each kind's): RunConfig, run.json, arms
  ["run-files"], //   a run directory's layout and its events.jsonl
  ["agent"], //       agents and what they read and write
  ["score"], //       scorecards, RHAE, statistics over runs
  ["run"], //         the turn loop over its parts, resume, swarms
  ["plan"], //        experiment plans: games × arms × runs, run in slices
  ["inspect"], //     `prolong log ...` over a log file
  ["verify"], //      `prolong verify`: a copy against its master, a whole run directory
  ["view"], //        the HTML replay
  ["report"], //      `prolong report`: HTML over scored runs
  ["bench"], //       benchmarks and the log generator
  ["init"], //        programmatic memory for everyday coding sessions
  ["cli"], //         one file per command
  ["main"],
];

/** Files outside src/ that src/ may import: data and built artefacts, never code. */
const OUTSIDE_ALLOWED = /\.(json|so|node|mjs)$/;

interface Edge {
  readonly from: string;
  readonly to: string;
  readonly file: string;
  readonly target: string;
}

const IMPORT =
  /^\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|^\s*import\s+['"](\.[^'"]+)['"]|(?:import|require)\(\s*['"](\.[^'"]+)['"]\s*\)/gm;
/** An import that loads its file when the importing file loads (not import() or require(), which load on use). */
const STATIC_IMPORT = /^\s*(?:import|export)\s(?!type\s)[^'"]*?from\s+['"](\.[^'"]+)['"]|^\s*import\s+['"](\.[^'"]+)['"]/gm;

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith(".ts") ? [p] : [];
  });
}

/** The folder a path belongs to: the first directory under src/, or a top-level file's name without .ts; "<x>" outside src/. */
function folderOf(path: string): string {
  const rel = relative(SRC, path);
  if (rel.startsWith("..")) return `<${relative(join(SRC, ".."), path).split(sep)[0]}>`;
  const parts = rel.split(sep);
  return parts.length > 1 ? parts[0]! : parts[0]!.replace(/\.ts$/, "");
}

function importEdges(): Edge[] {
  const edges: Edge[] = [];
  for (const file of tsFiles(SRC)) {
    for (const m of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3]!;
      const target = normalize(join(dirname(file), spec));
      // A line that only looks like an import (inside a template: the hook files init writes) names no file
      // here; a real import of a missing file is tsc's to report.
      if (!existsSync(target)) continue;
      const from = folderOf(file);
      const to = folderOf(target);
      if (from !== to) edges.push({ from, to, file: relative(SRC, file), target: relative(SRC, target) });
    }
  }
  return edges;
}

/** Every edge that breaks the layering, each as one line naming the two files. */
export function violations(edges: readonly Edge[], layers: readonly (readonly string[])[]): string[] {
  const rank = new Map<string, number>();
  layers.forEach((group, i) => group.forEach((f) => rank.set(f, i)));
  const out: string[] = [];
  for (const e of edges) {
    if (e.to.startsWith("<")) {
      if (!OUTSIDE_ALLOWED.test(e.target)) out.push(`${e.file} imports ${e.target}: code outside src/ (move it under src/)`);
      continue;
    }
    const a = rank.get(e.from);
    const b = rank.get(e.to);
    if (a === undefined || b === undefined) {
      out.push(
        `${e.file} -> ${e.target}: folder '${a === undefined ? e.from : e.to}' is not in LAYERS (place it in test/import-direction.test.ts)`,
      );
    } else if (b >= a) {
      out.push(
        `${e.file} imports ${e.target}: '${e.from}' may import only folders below it, and '${e.to}' is ${b === a ? "beside" : "above"} it`,
      );
    }
  }
  return [...new Set(out)];
}

/**
 * Folders whose code plays or reads any environment without knowing which: the run's settings, the loop,
 * scores, plans, the log readers and the pages. They reach environments only through game/kinds.ts.
 */
const KIND_BLIND = ["config", "run", "score", "plan", "inspect", "verify", "view", "report"];

/** Whether a file is one environment kind's own code: under game/<kind>/, but not its description (kind.ts). */
function kindCode(target: string): boolean {
  const parts = target.split(sep);
  return parts.length > 2 && parts[0] === "game" && parts[parts.length - 1] !== "kind.ts";
}

/**
 * Imports from a kind-blind folder into one environment's own code (game/nethack/section.ts, game/arc/...):
 * the runner stays one code path by reaching an environment only through what its kind supplies.
 */
export function kindLeaks(edges: readonly Edge[]): string[] {
  return edges
    .filter((e) => KIND_BLIND.includes(e.from) && kindCode(e.target))
    .map((e) => `${e.file} imports ${e.target}: '${e.from}' reaches environments only through game/kinds.ts`);
}

/** The built-in players: agents that play one kind's games and may read that kind's own code. */
const BUILTIN_PLAYERS = [join("agent", "nethack"), join("agent", "explorer")];

/**
 * Imports of one environment's own code from anywhere but game/ and the built-in players (the human player,
 * `prolong games` included): everything else asks the kind (its keys, its listing) through game/kinds.ts.
 */
export function kindNamed(edges: readonly Edge[]): string[] {
  return edges
    .filter((e) => e.from !== "game" && !BUILTIN_PLAYERS.some((p) => e.file.startsWith(p + sep)) && kindCode(e.target))
    .map((e) => `${e.file} imports ${e.target}: only game/ and the built-in players name a kind; ask game/kinds.ts`);
}

/**
 * What loading a file loads with it, following static imports through every folder (import() and require()
 * load on use, so a kind's game or a built-in player loads only when a run plays it): each file, with the
 * chain of imports that reaches it.
 */
function staticClosure(start: string): Map<string, string[]> {
  const seen = new Map<string, string[]>([[start, [start]]]);
  const todo = [start];
  while (todo.length > 0) {
    const file = todo.pop()!;
    const abs = join(SRC, file);
    if (!file.endsWith(".ts") || !existsSync(abs)) continue;
    for (const m of readFileSync(abs, "utf8").matchAll(STATIC_IMPORT)) {
      const target = relative(SRC, normalize(join(dirname(abs), m[1] ?? m[2]!)));
      if (seen.has(target) || !existsSync(join(SRC, target))) continue;
      seen.set(target, [...seen.get(file)!, target]);
      todo.push(target);
    }
  }
  return seen;
}

/** Each file of a kind's own code that loading `start` loads, as the chain of imports that brings it. */
export function kindCodeLoaded(start: string): string[] {
  return [...staticClosure(start).entries()].filter(([f]) => kindCode(f)).map(([, chain]) => chain.join(" -> "));
}

/** Folder cycles (strongly connected components of more than one folder), for a readable failure. */
function cycles(edges: readonly Edge[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const e of edges) if (!e.to.startsWith("<")) (next.get(e.from) ?? next.set(e.from, new Set()).get(e.from)!).add(e.to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  let i = 0;
  const visit = (v: string) => {
    index.set(v, i);
    low.set(v, i++);
    stack.push(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const c: string[] = [];
      for (let w = stack.pop()!; ; w = stack.pop()!) {
        c.push(w);
        if (w === v) break;
      }
      if (c.length > 1) found.push(c.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe("import direction", () => {
  const edges = importEdges();

  test("src/ has imports between folders to check (the scan works)", () => {
    expect(edges.length).toBeGreaterThan(100);
    expect(edges.some((e) => e.from === "run" && e.to === "log")).toBe(true);
  });

  test("no folder cycle", () => {
    expect(cycles(edges)).toEqual([]);
  });

  test("every import points down the layers, and none leaves src/ for code", () => {
    expect(violations(edges, LAYERS)).toEqual([]);
  });

  test("no kind-blind folder imports an environment's own code (game/nethack/, game/arc/): only game/kinds.ts", () => {
    expect(kindLeaks(edges)).toEqual([]);
    expect(edges.some((e) => e.from === "run" && e.target === join("game", "kinds.ts"))).toBe(true);
  });

  test("outside game/ and the built-in players no file imports an environment's own code (human play, `games` ask the kind)", () => {
    expect(kindNamed(edges)).toEqual([]);
  });

  test("no kind-blind file loads an environment's own code through other folders either (static imports followed)", () => {
    const loaded = tsFiles(SRC)
      .map((f) => relative(SRC, f))
      .filter((f) => KIND_BLIND.includes(folderOf(join(SRC, f))))
      .flatMap(kindCodeLoaded);
    expect([...new Set(loaded)]).toEqual([]);
  });

  test("`prolong score` loads no game, no terminal and no built-in player: only each kind's description", () => {
    const loaded = [...staticClosure(join("cli", "score.ts")).keys()];
    expect(kindCodeLoaded(join("cli", "score.ts"))).toEqual([]);
    expect(loaded.filter((f) => f.startsWith(`agent${sep}`) || f.endsWith(`${sep}terminal.ts`))).toEqual([]);
    expect(loaded).toContain(join("game", "kinds.ts"));
  });

  test("the closure check sees through a folder that is not kind-blind", () => {
    // run/ loads agent/, which may import game/nethack/: a static chain run -> agent -> game/nethack is caught.
    const chain = kindCodeLoaded(join("agent", "nethack", "read-log.ts"));
    expect(chain.some((c) => c.endsWith(join("game", "nethack", "section.ts")))).toBe(true);
  });

  test("the kind check fails on a run/ file importing game/nethack/ and passes game/'s own files", () => {
    const leak = (target: string): Edge => ({ from: "run", to: "game", file: join("run", "record.ts"), target });
    expect(kindLeaks([leak(join("game", "nethack", "section.ts"))])).toEqual([
      `${join("run", "record.ts")} imports ${join("game", "nethack", "section.ts")}: 'run' reaches environments only through game/kinds.ts`,
    ]);
    expect(
      kindLeaks([leak(join("game", "kinds.ts")), leak(join("game", "env.ts")), leak(join("game", "nethack", "kind.ts"))]),
    ).toEqual([]);
  });

  test("the check fails on an upward import, a sideways one, an unknown folder and code outside src/", () => {
    const layers = [["errors"], ["log"], ["game"], ["agent", "score"]];
    const bad: Edge[] = [
      { from: "log", to: "game", file: "log/format.ts", target: "game/env.ts" },
      { from: "agent", to: "score", file: "agent/x.ts", target: "score/y.ts" },
      { from: "game", to: "nowhere", file: "game/a.ts", target: "nowhere/b.ts" },
      { from: "cli", to: "<scripts>", file: "cli/bench.ts", target: "../scripts/gen-log.ts" },
    ];
    const v = violations(bad, layers);
    expect(v.length).toBe(4);
    expect(v[0]).toContain("'game' is above it");
    expect(v[1]).toContain("'score' is beside it");
    expect(v[2]).toContain("'nowhere' is not in LAYERS");
    expect(v[3]).toContain("code outside src/");
    expect(
      violations([{ from: "game", to: "<data>", file: "game/catalog.ts", target: "../data/games/glide.json" }], layers),
    ).toEqual([]);
    expect(
      cycles([
        { from: "a", to: "b", file: "", target: "" },
        { from: "b", to: "a", file: "", target: "" },
      ]),
    ).toEqual([["a", "b"]]);
  });
});
