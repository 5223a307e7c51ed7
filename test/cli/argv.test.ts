// The argv layer: every flag checked with a message in its own name, negative values as the docs write them,
// "did you mean", and every documented example (README, docs/, each --help) accepted by the real parser.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { flag, parseArgv } from "../../src/cli/args.ts";
import type { Command } from "../../src/cli/command.ts";
import { commands as entries } from "../../src/cli/commands.ts";
import { closest } from "../../src/suggest.ts";
import { prolong } from "../support/prolong-process.ts";

const commands: Command[] = await Promise.all(entries.map((e) => e.load()));
/** Each command's subcommands, loaded. */
const subcommandsOf = new Map<string, Command[]>(
  await Promise.all(commands.map(async (c) => [c.name, await Promise.all((c.subcommands ?? []).map((s) => s.load()))] as const)),
);
const allSubcommands: Command[] = [...subcommandsOf.values()].flat();
const ROOT = path.resolve(import.meta.dir, "../..");

describe("parseArgv", () => {
  const flags = {
    "log-window": flag.int(-1, 100),
    cap: flag.intOr(20, 1, 1000),
    timeout: flag.num(1, 600, { unit: " of seconds" }),
    kind: flag.choice(["explorer", "claude", "codex"]),
    "fixed-strings": flag.bool({ short: "F" }),
    "ignore-case": flag.bool({ short: "i" }),
    out: flag.text({ short: "o" }),
    client: flag.list(),
  } as const;

  test("a value may start with '-' when written after its flag, and negative operands stay operands", () => {
    const r = parseArgv(["--log-window", "-1", "x", "-3"], flags)._unsafeUnwrap();
    expect(r.values["log-window"]).toBe(-1);
    expect(r.positionals).toEqual(["x", "-3"]);
    expect(parseArgv(["--log-window=-1"], flags)._unsafeUnwrap().values["log-window"]).toBe(-1);
  });

  test("defaults, switches together, short values, repeated lists, --", () => {
    const r = parseArgv(["-Fi", "-o", "a.png", "--client", "claude", "--client=codex", "--", "--cap"], flags)._unsafeUnwrap();
    expect(r.values).toMatchObject({
      cap: 20,
      "fixed-strings": true,
      "ignore-case": true,
      out: "a.png",
      client: ["claude", "codex"],
    });
    expect(r.positionals).toEqual(["--cap"]);
  });

  test("numbers: range and integrality, named by the flag as typed", () => {
    expect(parseArgv(["--cap", "99999999999999999999"], flags)._unsafeUnwrapErr()).toBe(
      "--cap must be a whole number from 1 to 1000, got '99999999999999999999'",
    );
    expect(parseArgv(["--cap", "2.5"], flags)._unsafeUnwrapErr()).toContain("--cap must be a whole number");
    expect(parseArgv(["--cap", "ten"], flags)._unsafeUnwrapErr()).toContain("got 'ten'");
    expect(parseArgv(["--timeout", "1e9"], flags)._unsafeUnwrapErr()).toBe(
      "--timeout must be a number of seconds from 1 to 600, got '1e9'",
    );
    expect(parseArgv(["--timeout", "1e2"], flags)._unsafeUnwrap().values.timeout).toBe(100);
    expect(parseArgv(["--log-window", "-2"], flags)._unsafeUnwrapErr()).toContain(
      "--log-window must be a whole number from -1 to 100",
    );
  });

  test("mistakes: did you mean, missing values, values on switches, stray operands", () => {
    expect(parseArgv(["--kind", "claud"], flags)._unsafeUnwrapErr()).toContain("did you mean 'claude'?");
    expect(parseArgv(["--cpa", "3"], flags)._unsafeUnwrapErr()).toBe("unknown option '--cpa'; did you mean '--cap'?");
    expect(parseArgv(["--cap"], flags)._unsafeUnwrapErr()).toBe(
      "--cap needs a value (one that starts with -- goes as --cap=VALUE)",
    );
    expect(parseArgv(["--cap", "--kind", "codex"], flags)._unsafeUnwrapErr()).toStartWith("--cap needs a value");
    expect(parseArgv(["--out=--odd-name"], flags)._unsafeUnwrap().values.out).toBe("--odd-name");
    expect(parseArgv(["-F=1"], flags).isErr()).toBe(true);
    expect(parseArgv(["a"], flags, 0)._unsafeUnwrapErr()).toBe("takes no arguments, got 'a'");
  });

  test("closest: typos and unique prefixes, nothing for unrelated words", () => {
    expect(closest("ply", ["play", "replay", "log"])).toBe("play");
    expect(closest("max-action", ["max-actions", "action-cap"])).toBe("max-actions");
    expect(closest("sw", ["switchyard", "glide"])).toBe("switchyard");
    expect(closest("zzzzzz", ["play", "replay"])).toBeUndefined();
  });
});

describe("through the real CLI", () => {
  test("the mistakes a new user makes each get one line naming what was typed, and exit 2", () => {
    const cases: Array<[string[], string]> = [
      [["ply"], "unknown command 'ply'; did you mean 'play'?"],
      [["play", "glid"], "no committed game 'glid'; did you mean 'glide'?"],
      [["play", "glide", "--max-action", "3"], "unknown option '--max-action'; did you mean '--max-actions'?"],
      [["play", "glide", "--max-actions", "99999999999999999999"], "--max-actions must be a whole number from 1 to 1000000"],
      [["play", "glide", "--agent-timeout", "1e9"], "--agent-timeout must be a number of seconds"],
      [["play", "glide", "--log-window", "-5"], "--log-window must be full, none, newest or last:N (or -1, 0, N)"],
      [["log", "stat", "x"], "unknown subcommand 'stat'; did you mean 'stats'?"],
      [["games", "extra"], "takes no arguments"],
      [["init", "--client", "claud", "--dir", "/nonexistent-prolong-dir"], "unknown client 'claud'; did you mean 'claude'?"],
    ];
    for (const [args, message] of cases) {
      const r = prolong(args, { cwd: ROOT });
      expect(r.err).toContain(message);
      expect(r.err).not.toContain("maxActions");
      expect(r.err).not.toContain("ERR_PARSE_ARGS");
      expect(r.code).toBe(2);
    }
  });

  test("`log <sub> --help` and `help log <sub>` show that subcommand's usage", () => {
    for (const sub of ["stats", "sections", "show", "diff", "grep"]) {
      for (const argv of [
        ["log", sub, "--help"],
        ["help", "log", sub],
      ]) {
        const r = prolong(argv, { cwd: ROOT });
        expect({ argv, code: r.code }).toEqual({ argv, code: 0 });
        expect(r.out).toStartWith(`usage: prolong log ${sub}`);
      }
    }
    expect(prolong(["help", "play"], { cwd: ROOT }).out).toStartWith("usage: prolong play");
  });

  test("--log-window -1 as written plays a run with no log file", () => {
    const runs = mkdtempSync(path.join(tmpdir(), "prolong-argv-"));
    const r = prolong(["play", "glide", "--max-actions", "3", "--log-window", "-1", "--runs-dir", runs, "--quiet", "--json"], {
      cwd: ROOT,
    });
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const [stamp] = readdirSync(runs);
    const config = JSON.parse(readFileSync(path.join(runs, stamp!, "glide", "run.json"), "utf8"));
    expect(config.logWindow).toEqual({ kind: "none" });
    expect(config.maxActions).toBe(3);
  });
});

// ---- documented examples ----------------------------------------------------------------------------------

/** Sample values for the placeholders of a synopsis, by the flag they follow. */
const CHOICE_SAMPLE: Record<string, string> = {
  env: "local",
  agent: "explorer",
  sandbox: "auto",
  workspace: "persistent",
  grid: "ascii",
  color: "auto",
  client: "claude",
};

/** A synopsis line ("prolong play <game> [--agent explorer|command] [--max-actions 500]") as one argv. */
export function exampleArgv(line: string): string[] | null {
  let text = line.replace(/^\$\s*/, "").replace(/\s+#.*$/, "");
  // Description columns follow two spaces; "[--model M]" after two spaces is still the synopsis.
  const parts = text.split(/\s{2,}/);
  text = parts[0]!;
  for (const p of parts.slice(1)) {
    if (!/^[[<-]/.test(p)) break;
    text += ` ${p}`;
  }
  text = text
    .replace(/\s*\|\s*/g, "|")
    .replace(/\[\.\.\.\]|\[options\]/g, "")
    .replace(/[[\]]/g, "");
  const tokens: string[] = [];
  for (const m of text.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) tokens.push(m[1] ?? m[2] ?? m[3]!);
  if (tokens[0] !== "prolong") return null;
  const out: string[] = [];
  for (let i = 1; i < tokens.length; i++) {
    let t = tokens[i]!.replace(/(.)\.\.\.$/, "$1").replace(/[,;:]$/, "");
    if (t === "") continue;
    if (t === "...") t = "_"; // "[--client ...]": some value
    if (t.startsWith("<")) t = "_";
    else if (!t.startsWith("-") && t.includes("|")) t = t.split("|")[0]!;
    const prev = out[out.length - 1];
    if (/^[A-Z][A-Z0-9_,]*$/.test(t) || (t === "_" && prev?.startsWith("--")))
      t = prev?.startsWith("--") && CHOICE_SAMPLE[prev.slice(2)] ? CHOICE_SAMPLE[prev.slice(2)]! : "3";
    out.push(t);
  }
  if (out.length === 0 || out[0]!.startsWith("-") || out[0] === "_") return null;
  return out;
}

/** What main.ts does before running a command: find it (and its subcommand), then parse argv with its flags. */
function checkArgv(argv: string[]): string | null {
  const [name, ...rest] = argv;
  if (name === "_") return null; // "prolong <command> --help"
  let command: Command | undefined = commands.find((c) => c.name === name);
  if (!command) return `unknown command '${name}'`;
  let args = rest;
  if (command.subcommands) {
    if (rest[0] === "_") return null; // "prolong log <subcommand> ..."
    command = subcommandsOf.get(command.name)!.find((c) => c.name === rest[0]);
    if (!command) return `unknown subcommand '${rest[0]}'`;
    args = rest.slice(1);
  }
  if (args.includes("--help") || args.includes("-h")) return null;
  const parsed = parseArgv(args, command.flags);
  return parsed.isErr() ? parsed.error : null;
}

function docExamples(): Array<[string, string]> {
  const files = [
    "README.md",
    ...readdirSync(path.join(ROOT, "docs"))
      .filter((f) => f.endsWith(".md"))
      .map((f) => `docs/${f}`),
  ];
  const found: Array<[string, string]> = [];
  for (const file of files) {
    const text = readFileSync(path.join(ROOT, file), "utf8");
    let fenced = false;
    for (const line of text.split("\n")) {
      if (line.startsWith("```")) fenced = !fenced;
      const t = line.trim();
      const code = fenced || line.startsWith("    ");
      if (code && (t.startsWith("prolong ") || t.startsWith("$ prolong "))) found.push([file, t]);
      for (const m of line.matchAll(/`(prolong [^`]+)`/g)) found.push([file, m[1]!]);
    }
  }
  for (const c of [...commands, ...allSubcommands]) {
    for (const line of c.usage.split("\n")) {
      const t = line.trim().replace(/^usage:\s*/, "");
      if (t.startsWith("prolong ")) found.push([`${c.name} --help`, t]);
      for (const m of line.matchAll(/`(prolong [^`]+)`/g)) found.push([`${c.name} --help`, m[1]!]);
      for (const m of line.matchAll(/e\.g\. (prolong [^)]+)/g)) found.push([`${c.name} --help`, m[1]!]);
    }
  }
  return found;
}

describe("documented examples", () => {
  const examples = docExamples();

  test("there are many, from the README, docs/ and --help", () => {
    expect(examples.length).toBeGreaterThan(40);
    expect(examples.some(([f]) => f === "README.md")).toBe(true);
    expect(examples.some(([f]) => f === "play --help")).toBe(true);
  });

  test("each one parses with the real command table", () => {
    const bad: string[] = [];
    let checked = 0;
    for (const [file, line] of examples) {
      const argv = exampleArgv(line);
      if (!argv) continue;
      checked++;
      const why = checkArgv(argv);
      if (why) bad.push(`${file}: ${line}\n    -> ${argv.join(" ")}\n    -> ${why}`);
    }
    expect(bad).toEqual([]);
    expect(checked).toBeGreaterThan(40);
  });

  test("README, docs/ and every --help stand alone: no pointer into ../shared, which a clone does not have", () => {
    const texts: Array<[string, string]> = [["README.md", readFileSync(path.join(ROOT, "README.md"), "utf8")]];
    for (const f of readdirSync(path.join(ROOT, "docs")).filter((f) => f.endsWith(".md")))
      texts.push([`docs/${f}`, readFileSync(path.join(ROOT, "docs", f), "utf8")]);
    for (const c of [...commands, ...allSubcommands]) texts.push([`${c.name} --help`, c.usage]);
    expect(texts.filter(([, t]) => t.includes("../shared")).map(([f]) => f)).toEqual([]);
  });

  test("the README's first screen says what prolong is for, defines RHAE, and shows both quick starts", () => {
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    const first = readme.split("\n").slice(0, 40).join("\n");
    for (const needed of [
      "ARC-AGI-3",
      "coding agent",
      "programmatic memory",
      "RHAE",
      "npm start",
      "npm test",
      "prolong games",
      "prolong play glide --max-actions 100",
      "prolong view ",
    ]) {
      expect(first.toLowerCase()).toContain(needed.toLowerCase());
    }
  });

  test("each --help documents exactly the flags its command parses", () => {
    const problems: string[] = [];
    for (const c of [
      ...commands,
      ...commands.flatMap((c) => subcommandsOf.get(c.name)!.map((s) => ({ ...s, name: `${c.name} ${s.name}` }))),
    ]) {
      // Flags on the usage lines and at the start of option lines (prose may name other commands' flags).
      const optionLines = c.usage.split("\n").filter((l) => /^(usage:|\s+prolong |\s+(-\w, )?--)/.test(l));
      const documented = new Set(
        optionLines
          .flatMap((l) => [...l.matchAll(/(?<![\w-])--([a-z][a-z0-9-]*)/g)].map((m) => m[1]!))
          .filter((f) => f !== "help"),
      );
      const parsed = new Set(Object.keys(c.flags));
      for (const f of parsed) if (!documented.has(f)) problems.push(`${c.name}: --${f} is parsed but not in --help`);
      for (const f of documented)
        if (!parsed.has(f) && !c.subcommands) problems.push(`${c.name}: --${f} is in --help but not parsed`);
    }
    expect(problems).toEqual([]);
  });
});
