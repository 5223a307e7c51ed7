// Every arm sees what its instructions claim. For each environment kind (local grid, arc-local on the stand-in
// engine, NetHack, toy) and each memory arm (full log, last 5, newest, no log, stateless, observe with and
// without a log, a lifetime of 3 episodes, the lowest rung of the tool ladder), a real run with a probe agent that records, at every call, what its workspace, its prompt
// and the observe tool hold. The instructions as given are golden files (test/agent/golden/<arm>.md for the
// local grid game, which are also prompts.test.ts's; test/agent/golden/<kind>/<arm>.md for the others), and
// every claim the text makes is checked against what the agent's files held at each call: a text that
// mentions sections, `[PLAN]` blocks, plans.txt or an inventory must have them there; one that says there is
// no log must have none. Regenerate the golden files after a deliberate change with PROLONG_UPDATE_GOLDEN=1.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ok } from "neverthrow";
import { NO_TOKENS, type Agent } from "../../src/agent/agent.ts";
import type { RunConfigInput } from "../../src/config/run-config.ts";
import { observationPath } from "../../src/run-files/layout.ts";
import { STAND_IN_ENGINE, useStandInEngine } from "../arc/arc-setup.ts";
import { NO_NETHACK } from "../game/nethack/helpers.ts";
import { bridgePython, usePython } from "../support/python.ts";
import { playGame } from "./helpers.ts";

/** What the agent had at one call. */
interface Call {
  readonly turn: number;
  readonly prompt: string;
  readonly instructions: string;
  readonly claude: string;
  /** workspace/logs.txt, null when there is none. */
  readonly log: string | null;
  readonly plans: string | null;
  /** What the observe tool would return now, null without the arm. */
  readonly observed: string | null;
  /** The notes file the probe wrote at the call before, if it is still there. */
  readonly notesKept: boolean | null;
  /** The names in the workspace when the call began. */
  readonly files: readonly string[];
}

const SEPARATOR_LINE = /^={80}$/m;
const planOf = (turn: number) => `plan of turn ${turn}`;

/** Plays 3 actions, then 1, then 3, then 1, then gives up: windows cut, and a newest section sometimes holds a plan. */
function probe(moves: readonly string[], calls: Call[]): Agent {
  return {
    name: "probe",
    async turn(input) {
      const ws = input.workspace;
      const read = (name: string) => (existsSync(join(ws, name)) ? readFileSync(join(ws, name), "utf8") : null);
      const observe = observationPath(dirname(ws));
      calls.push({
        turn: input.turn,
        prompt: input.prompt,
        instructions: read("AGENTS.md") ?? "",
        claude: read("CLAUDE.md") ?? "",
        log: read("logs.txt"),
        plans: read("plans.txt"),
        observed: existsSync(observe) ? readFileSync(observe, "utf8") : null,
        notesKept: input.turn === 1 ? null : existsSync(join(ws, `notes-${input.turn - 1}.txt`)),
        files: readdirSync(ws).sort(),
      });
      writeFileSync(join(ws, `notes-${input.turn}.txt`), "what I learned");
      const n = input.turn === 5 ? 0 : input.turn % 2 === 1 ? 3 : 1;
      const actions = Array.from({ length: n }, (_, i) => moves[(input.turn + i) % moves.length]);
      writeFileSync(join(ws, "actions.json"), JSON.stringify(n === 0 ? { actions: [], stop: true } : { actions }));
      return ok({
        text: `I believe little yet.\n[PLAN]\n${planOf(input.turn)}`,
        toolCalls: 0,
        tokens: NO_TOKENS,
        wallMs: 0,
        exitCode: 0,
      });
    },
  };
}

/**
 * A claim an instruction text can make, and what must then hold at the calls. `at` says which calls: every
 * one, every one after the first (something must have happened first), or at least one.
 */
interface Claim {
  readonly name: string;
  readonly said: RegExp;
  readonly at: "every" | "after-first" | "some";
  holds(c: Call, kind: string): boolean;
}

/** What the agent can read of the game besides its prompt: logs.txt and the observe tool. */
const readable = (c: Call) => `${c.log ?? ""}\n${c.observed ?? ""}`;

const CLAIMS: readonly Claim[] = [
  { name: "a logs.txt", said: /`logs\.txt` in this directory/, at: "every", holds: (c) => c.log !== null && c.log.length > 0 },
  { name: "no log file", said: /There is no log file/, at: "every", holds: (c) => c.log === null },
  {
    name: "sections of 80 `=`",
    said: /exactly 80 `=`/,
    at: "every",
    // Before the first action the observe tool's last batch is empty: the log (when there is one) has the initial section.
    holds: (c) => SEPARATOR_LINE.test(readable(c)) || (c.turn === 1 && c.log === null),
  },
  {
    name: "`[PLAN]` blocks in what it reads",
    said: /`\[PLAN\]` (holds|is) YOUR earlier/,
    at: "some",
    // A batch's first section holds the whole answer (its own [PLAN] line escaped with a space), the others the plan.
    holds: (c) => /^ ?\[PLAN\]\nplan of turn \d+$/m.test(readable(c)),
  },
  {
    name: "the plan read back from the log",
    said: /into the log so you can read it back later/,
    at: "after-first",
    holds: (c) => (c.log ?? "").includes(`[PLAN]\n${planOf(c.turn - 1)}\n`),
  },
  {
    name: "plans.txt with the earlier plans",
    said: /plans\.txt/,
    at: "after-first",
    holds: (c) => (c.plans ?? "").includes(planOf(c.turn - 1)) && !(c.log ?? "").includes("[PLAN]"),
  },
  { name: "a wiped directory", said: /wiped after every turn/, at: "after-first", holds: (c) => c.notesKept === false },
  { name: "notes kept", said: /keep notes and scripts in this directory/, at: "after-first", holds: (c) => c.notesKept === true },
  {
    name: "the first section",
    said: /holds the first section/,
    at: "every",
    holds: (c) => /\| INITIAL STATE \|/.test(c.log ?? ""),
  },
  {
    name: "an inventory",
    said: /\[INVENTORY\]/,
    at: "every",
    holds: (c) => `${readable(c)}\n${c.prompt}`.includes("\n[INVENTORY]\n"),
  },
  {
    name: "episodes marked in the log",
    said: /`\[EPISODE i\/K\]`/,
    at: "some",
    holds: (c) => /^\[EPISODE 2\/3\]$/m.test(c.log ?? ""),
  },
  {
    name: "every --More-- answered by the harness",
    said: /The harness answers every `--More--`/,
    at: "every",
    holds: (c) => !/^\[MESSAGE\] .*--More--\s*$/m.test(readable(c)),
  },
  {
    name: "the board in the prompt",
    said: /each prompt shows the current/,
    at: "every",
    holds: (c) => /\[CURRENT (BOARD STATE|SCREEN)\]/.test(c.prompt),
  },
  {
    name: "the observe tool",
    said: /`observe` tool/,
    at: "every",
    holds: (c) => /\[CURRENT (BOARD STATE|SCREEN)\]/.test(c.observed ?? "") && !/\[CURRENT (BOARD STATE|SCREEN)\]/.test(c.prompt),
  },
];

/** A log's sections: each separator line starts one. */
const sectionsOf = (log: string) => log.split(/^(?=={80}$)/m).filter((t) => SEPARATOR_LINE.test(t));
const actionSections = (log: string) => sectionsOf(log).filter((t) => !/\| INITIAL STATE \|/.test(t.split("\n")[1] ?? ""));
const isCarried = (t: string) => /^\[INVENTORY\]$/m.test(t);

/**
 * What each turn's prompt says the agent has now (agent/prompts.ts's memoryNow), checked against that call's
 * files; `master` is the run's whole log at its end, of which every copy is a part.
 */
interface PromptClaim {
  readonly name: string;
  readonly said: RegExp;
  holds(c: Call, master: string, said: RegExpExecArray): boolean;
}

const PROMPT_CLAIMS: readonly PromptClaim[] = [
  {
    name: "logs.txt holds everything so far",
    said: /logs\.txt holds everything so far\./,
    holds: (c, master) => c.log !== null && master.startsWith(c.log) && sectionsOf(c.log).length > 0,
  },
  {
    name: "the initial section and the last N action sections",
    said: /logs\.txt holds the initial section(?:,| and) the last (\d+) action sections?( and the newest section that lists)?/,
    holds: (c, master, m) => {
      const shown = sectionsOf(c.log ?? "").map((t) => t.trimEnd());
      const newest = shown[shown.length - 1];
      if (newest === undefined) return false;
      // The master as it was at this call: up to the copy's newest section.
      const then = sectionsOf(master.slice(0, master.indexOf(newest) + newest.length)).map((t) => t.trimEnd());
      const last = actionSections(then.join("\n"))
        .map((t) => t.trimEnd())
        .slice(-Number(m[1]));
      const carried = m[2] ? then.findLast(isCarried) : undefined;
      const keep = new Set([then[0], carried, ...last]);
      return JSON.stringify(shown) === JSON.stringify(then.filter((t) => keep.has(t)));
    },
  },
  {
    name: "only the newest section",
    said: /logs\.txt holds only the newest section/,
    holds: (c) => {
      const shown = sectionsOf(c.log ?? "");
      return shown.length === 1 || (shown.length === 2 && isCarried(shown[0]!) && !isCarried(shown[1]!));
    },
  },
  {
    name: "no log, the board below",
    said: /There is no log; the board is below\./,
    holds: (c) => c.log === null && /\[CURRENT (BOARD STATE|SCREEN)\]/.test(c.prompt),
  },
  {
    name: "no log, the board from the observe tool",
    said: /There is no log; the observe tool shows the board\./,
    holds: (c) =>
      c.log === null &&
      !/\[CURRENT (BOARD STATE|SCREEN)\]/.test(c.prompt) &&
      /\[CURRENT (BOARD STATE|SCREEN)\]/.test(c.observed ?? ""),
  },
  {
    name: "the workspace wiped but logs.txt, plans.txt and the instructions",
    said: /The workspace was wiped except (logs\.txt, )?plans\.txt and the instructions\./,
    holds: (c) => c.files.every((f) => ["logs.txt", "plans.txt", "AGENTS.md", "CLAUDE.md"].includes(f)),
  },
  {
    name: "the earlier episodes before this one's INITIAL STATE section",
    said: /Episode (\d+) of (\d+); the earlier episodes are in the log before this one's INITIAL STATE section/,
    holds: (c, _master, m) => {
      const log = c.log ?? "";
      const marker = log.indexOf(`[EPISODE ${m[1]}/${m[2]}]`);
      return marker > 0 && /\| Attempt 1 \|/.test(log.slice(0, marker));
    },
  },
];

const ARMS: Record<string, Partial<RunConfigInput>> = {
  "full-log": {},
  "last-5": { logWindow: "last:5" },
  "newest-only": { logWindow: "newest" },
  "no-log": { logWindow: "none" },
  stateless: { workspace: "stateless" },
  "no-log-observe": { logWindow: "none", observe: "mcp", agent: "mini" },
  "full-log-observe": { observe: "mcp", agent: "mini" },
  // Three episodes of 4 actions: the probe's batches of 3 and 1 end one every two calls.
  "lifetime-3": { episodes: 3, maxActions: 4 },
  // The tool ladder's lowest rung: what it allows is the agent's sandbox's to enforce; the text is pinned here.
  "tools-read": { tools: "read", agent: "mini" },
};

const python = bridgePython();
if ("path" in python) usePython(python.path);

/** Each kind: a game and the run's fields (the grid runs at the defaults prompts.test.ts's texts were written for). */
interface KindCase {
  readonly fields: Partial<RunConfigInput> & { game: string };
  readonly moves: string[];
  readonly skip: string | null;
  /** Arms of this kind only (its own settings). */
  readonly arms?: Record<string, Partial<RunConfigInput>>;
}
const KINDS: Record<string, KindCase> = {
  local: {
    fields: { game: "glide", actionCap: 20, maxActions: 500 },
    moves: ["ACTION4", "ACTION2", "ACTION3", "ACTION1"],
    skip: null,
  },
  "arc-local": {
    fields: { game: "tn01", env: "arc-local", arcGames: join(STAND_IN_ENGINE, "games"), maxActions: 40 },
    moves: ["ACTION1", "ACTION3", "ACTION1", "ACTION3"],
    skip: "skip" in python ? python.skip : null,
  },
  nethack: {
    fields: { game: "nethack", env: "nethack", seed: 2 },
    moves: ["search", "more", "search"],
    skip: NO_NETHACK ? "NetHack is not installed" : null,
    arms: { "protocol-balrog": { protocol: "balrog" } as Partial<RunConfigInput> },
  },
  toy: { fields: { game: "toy", env: "toy" }, moves: ["ACTION4", "ACTION3"], skip: null },
};

const GOLDEN = join(import.meta.dir, "..", "agent", "golden");
const golden = (kind: string, arm: string) => (kind === "local" ? join(GOLDEN, `${arm}.md`) : join(GOLDEN, kind, `${arm}.md`));
const update = process.env.PROLONG_UPDATE_GOLDEN === "1";

useStandInEngine();

/** Which claims each arm's text and prompts made, over every kind: no claim may go unchecked everywhere. */
const made = new Set<string>();
const madeInPrompts = new Set<string>();

const armsOf = (k: KindCase) => ({ ...ARMS, ...k.arms });

/** Each arm of a kind played once, all at once (the ARC bridge and NetHack wait more than they compute). */
type Played = Record<string, { calls: Call[]; reason: string; master: string }>;
const played = new Map<string, Promise<Played>>();
function playAll(kind: string): Promise<Played> {
  const k = KINDS[kind]!;
  let all = played.get(kind);
  if (!all) {
    all = Promise.all(
      Object.entries(armsOf(k)).map(async ([arm, fields]) => {
        const calls: Call[] = [];
        const run = await playGame({ ...k.fields, ...fields }, undefined, { agent: probe(k.moves, calls) });
        return [arm, { calls, reason: run.end.reason, master: run.master }] as const;
      }),
    ).then(Object.fromEntries);
    played.set(kind, all);
  }
  return all;
}

for (const [kind, k] of Object.entries(KINDS)) {
  describe.skipIf(k.skip !== null)(`${kind}: each arm's instructions${k.skip ? ` (skipped: ${k.skip})` : ""}`, () => {
    for (const arm of Object.keys(armsOf(k))) {
      test(`${arm}: the text as given equals its golden file, and what it claims is there at every call`, async () => {
        const { calls, reason, master } = (await playAll(kind))[arm]!;
        expect(["agent-stopped", "win", "max-actions"]).toContain(reason);
        expect(calls.length).toBeGreaterThanOrEqual(3);
        const text = calls[0]!.instructions;
        if (update || !existsSync(golden(kind, arm))) {
          mkdirSync(dirname(golden(kind, arm)), { recursive: true });
          writeFileSync(golden(kind, arm), text);
        }
        expect(text).toBe(readFileSync(golden(kind, arm), "utf8"));
        for (const c of calls) {
          expect(c.claude).toBe(c.instructions);
          expect(c.instructions).toBe(text); // one text for the whole run
        }
        const failed: string[] = [];
        for (const claim of CLAIMS) {
          if (!claim.said.test(text)) continue;
          made.add(claim.name);
          const at = claim.at === "after-first" ? calls.slice(1) : calls;
          const held = at.map((c) => claim.holds(c, kind));
          const good = claim.at === "some" ? held.some(Boolean) : held.every(Boolean);
          if (!good)
            failed.push(
              `${claim.name} (calls ${at
                .filter((_, i) => !held[i])
                .map((c) => c.turn)
                .join(", ")})`,
            );
        }
        for (const c of calls)
          for (const claim of PROMPT_CLAIMS) {
            const m = claim.said.exec(c.prompt);
            if (!m) continue;
            madeInPrompts.add(claim.name);
            if (!claim.holds(c, master, m)) failed.push(`the prompt's ${claim.name} (call ${c.turn})`);
          }
        expect(failed).toEqual([]);
      }, 120_000);
    }
  });
}

test("every claim was made by some arm's text (none is checked nowhere)", () => {
  const ran = Object.values(KINDS).some((k) => k.skip === null);
  if (!ran) return;
  expect(CLAIMS.map((c) => c.name).filter((n) => !made.has(n))).toEqual([]);
  expect(PROMPT_CLAIMS.map((c) => c.name).filter((n) => !madeInPrompts.has(n))).toEqual([]);
});

// Keep the golden directory free of files no arm writes.
test("no stray golden files", () => {
  for (const kind of Object.keys(KINDS).filter((k) => k !== "local")) {
    const dir = join(GOLDEN, kind);
    if (!existsSync(dir)) continue;
    expect(readdirSync(dir).filter((f) => !(f.replace(/\.md$/, "") in armsOf(KINDS[kind]!)))).toEqual([]);
  }
});
