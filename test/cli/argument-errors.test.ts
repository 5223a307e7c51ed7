// Every command's argument errors, through the real command (`bun src/main.ts …`): a missing or extra
// argument, a flag without its value, a value of the wrong shape. Each says what was wrong, naming the
// argument or flag, then the fix and a pointer to --help — two lines, never the whole usage.
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Exited, prolongAsync, prolongEach } from "../support/prolong-process.ts";

const dir = mkdtempSync(path.join(tmpdir(), "prolong-arg-errors-"));
const FILE = path.join(dir, "a-file");
const DIR = path.join(dir, "a-dir");
writeFileSync(FILE, "");
mkdirSync(DIR);

interface Case {
  /** The command as its messages name it ("log show"). */
  readonly command: string;
  readonly args: readonly string[];
  /** What the first line must name: the argument or flag, and what was given. */
  readonly names: readonly string[];
  /** What the fix line must name, where the fix is the point (the flag that was missing). */
  readonly fixNames?: readonly string[];
}

const CASES: Case[] = [
  { command: "play", args: [], names: ["missing <game>"] },
  // A flag of one kind of game without that kind: the kind is what is missing, not a <game>.
  { command: "play", args: ["--protocol", "balrog"], names: ["--protocol", "--env local"], fixNames: ["--env nethack"] },
  { command: "play", args: ["glide", "extra"], names: ["unexpected argument 'extra'"] },
  { command: "play", args: ["glide", "lumen", "--games", "tide"], names: ["unexpected argument 'glide'", "--games"] },
  { command: "play", args: ["glide", "--max-actions"], names: ["--max-actions needs a value"] },
  { command: "play", args: ["glide", "--max-actions", "abc"], names: ["--max-actions must be a whole number", "'abc'"] },
  { command: "play", args: ["glide", "--agent", "human", "--runs", "2"], names: ["--agent human", "--runs"] },
  { command: "resume", args: [], names: ["missing <run-dir|batch-dir>"] },
  { command: "resume", args: ["a", "b"], names: ["unexpected argument 'b'"] },
  { command: "score", args: [], names: ["missing <run-dir | dir above runs>"] },
  { command: "score", args: ["--compare", "a"], names: ["--compare takes exactly two paths", "(got 1)"] },
  { command: "score", args: ["--seed", "x", "a"], names: ["--seed must be a whole number", "'x'"] },
  { command: "score", args: ["--json", "--csv", "a"], names: ["--json and --csv"] },
  { command: "report", args: [], names: ["missing <run-dir | dir above runs>"] },
  { command: "plan", args: [], names: ["missing --games", "--arm"] },
  { command: "plan", args: ["--games", "glide"], names: ["missing --arm"] },
  { command: "plan", args: ["show"], names: ["missing <plan.json>"] },
  { command: "plan", args: ["foo"], names: ["unexpected argument 'foo'"] },
  { command: "plan", args: ["--estimate"], names: ["--estimate"] },
  { command: "run-plan", args: [], names: ["missing <plan.json>"] },
  { command: "run-plan", args: ["plan.json"], names: ["missing --out DIR"] },
  { command: "run-plan", args: ["plan.json", "--out", "x", "--shard", "1/2", "--job", "j"], names: ["--shard and --job"] },
  { command: "trace", args: [], names: ["missing <run-dir>"] },
  { command: "trace", args: ["a", "b"], names: ["unexpected argument 'b'"] },
  { command: "trace", args: ["a", "--turns"], names: ["--turns needs a value"] },
  { command: "trace", args: ["a", "--turns", "x"], names: ["--turns must be", "'x'"] },
  { command: "replay", args: [], names: ["missing <run-dir|logs.txt>"] },
  { command: "replay", args: ["a", "b"], names: ["unexpected argument 'b'"] },
  { command: "replay", args: [FILE], names: ["missing --game"] },
  { command: "log", args: [], names: ["missing <subcommand>"] },
  { command: "log", args: ["foo"], names: ["unknown subcommand 'foo'"] },
  { command: "log show", args: ["log", "show", "f"], names: ["missing <action|a..b|a..|..b|last>"] },
  { command: "log show", args: ["log", "show", "f", "1", "2"], names: ["unexpected argument '2'"] },
  {
    command: "log show",
    args: ["log", "show", "f", "1", "--color", "sometimes"],
    names: ["--color must be one of", "'sometimes'"],
  },
  { command: "log grep", args: ["log", "grep", "f"], names: ["missing PATTERN"] },
  { command: "log diff", args: ["log", "diff", "f", "1"], names: ["missing <b>"] },
  { command: "log sections", args: ["log", "sections"], names: ["missing <log|run-dir>"] },
  { command: "log stats", args: ["log", "stats", "a", "b"], names: ["unexpected argument 'b'"] },
  { command: "verify", args: [], names: ["missing <run-dir|master-log>"] },
  { command: "verify", args: ["a", "b", "c"], names: ["unexpected argument 'c'"] },
  { command: "verify", args: [FILE], names: ["missing <copy>", "a-file"] },
  { command: "view", args: [], names: ["missing <run-dir|log>"] },
  { command: "view", args: ["a", "b"], names: ["unexpected argument 'b'"] },
  { command: "view", args: ["--png", "a"], names: ["missing <action|last>"] },
  { command: "view", args: ["--png", "a", "1", "--scale", "0"], names: ["--scale", "'0'"] },
  { command: "mcp-observe", args: [], names: ["missing --file PATH"] },
  { command: "mcp-observe", args: ["--file", "x", "y"], names: ["unexpected argument 'y'"] },
  { command: "status", args: ["x"], names: ["'x'"] },
  { command: "games", args: ["x"], names: ["'x'"] },
];

/** The command's own argv: a subcommand's cases carry `log <sub>` in their args already. */
function argvOf(c: Case): string[] {
  return c.command.includes(" ") ? [...c.args] : [c.command, ...c.args];
}

const outcomes = new Map<Case, Exited>();

const spawn = (args: readonly string[]) => prolongAsync(args, { cwd: dir });

beforeAll(async () => {
  // Two at a time: the cases are independent processes, and the machine may be busy.
  const ended = await prolongEach(CASES.map(argvOf), { cwd: dir });
  for (const [i, c] of CASES.entries()) outcomes.set(c, ended[i]!);
}, 120_000);

describe("an argument error names what was wrong and the fix, then points at --help (never the usage alone)", () => {
  for (const c of CASES)
    test(`prolong ${argvOf(c).join(" ") || "(nothing)"}`.replaceAll(dir, "TMP"), () => {
      const o = outcomes.get(c)!;
      const lines = o.err.trimEnd().split("\n");
      expect(o.code).toBe(2);
      expect(o.out).toBe("");
      expect(lines).toHaveLength(2);
      expect(lines[0]).toStartWith(`prolong ${c.command}: `);
      for (const n of c.names) expect(lines[0]).toContain(n);
      expect(lines[1]).toStartWith("  fix: ");
      for (const n of c.fixNames ?? []) expect(lines[1]).toContain(n);
      expect(lines[1]).toEndWith(`see 'prolong ${c.command} --help'`);
      expect(o.err).not.toContain("usage:");
    });
});

test("an output path under a file is named, with the fix that fits", async () => {
  const o = await spawn(["plan", "--games", "glide", "--arm", "a=", "-o", path.join(FILE, "plan.json")]);
  expect(o.code).toBe(2);
  const lines = o.err.trimEnd().split("\n");
  expect(lines).toHaveLength(2);
  expect(lines[0]).toStartWith(`prolong: ${path.join(FILE, "plan.json")}: cannot write`);
  expect(lines[1]).toContain("a part of the path that should be a directory is a file");
});

test("a plan that is a directory is named, with a fix for a plan (not for a run directory's file)", async () => {
  for (const args of [
    ["plan", "show", DIR],
    ["run-plan", DIR, "--out", path.join(dir, "out")],
  ]) {
    const o = await spawn(args);
    expect(o.code).toBe(2);
    expect(o.err).toBe(
      `prolong: ${DIR}: the plan is a directory, not a regular file\n  fix: give the plan's own file (made by \`prolong plan ... -o plan.json\`; a batch's is DIR/plan.json)\n`,
    );
  }
});

test("an output path that is a directory is named, with the fix; no stack trace", async () => {
  const o = await spawn(["plan", "--games", "glide", "--arm", "a=", "-o", DIR]);
  expect(o.code).toBe(2);
  const lines = o.err.trimEnd().split("\n");
  expect(lines).toHaveLength(2);
  expect(lines[0]).toStartWith(`prolong: ${DIR}: cannot write`);
  expect(lines[1]).toContain("a directory stands at that name");
});
