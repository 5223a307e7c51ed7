// Settings as data: each run setting is one declaration (setting/declaration.ts, the table in run-config.ts), and
// the flag, run.json's schema, the default, the applicability check, the help line and the arm's fingerprint
// are derived from it. Runs written before the table must read back byte for byte and keep their arms: the
// golden cases below were written by the hand-kept schema and fingerprint list the table replaced.
import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { armOf, armSettingsOf } from "../../src/config/arm.ts";
import { flag } from "../../src/setting/flag.ts";
import { newConfig, validateConfig, type RunConfigInput } from "../../src/config/run-config.ts";
import {
  defaultsOf,
  fieldsFromFlagValues,
  notApplicable,
  notArmKeys,
  schemaEntries,
  setting,
  settingFlags,
  settingsHelp,
} from "../../src/setting/declaration.ts";
import { parseArgv } from "../../src/cli/args.ts";
import { playFlags } from "../../src/cli/play.ts";
import { fieldsFromFlags } from "../../src/config/run-config.ts";

/** [settings given, run.json as the run wrote it, its arm] — from main before settings were declared once. */
const GOLDEN: [Record<string, unknown>, string, { name: string; fingerprint: string }][] = [
  [
    { game: "glide" },
    '{\n  "game": "glide",\n  "env": "local",\n  "sandbox": "auto",\n  "agent": "explorer",\n  "maxActions": 500,\n  "actionCap": 20,\n  "logWindow": {\n    "kind": "full"\n  },\n  "workspace": "persistent",\n  "episodes": 1,\n  "gridMode": "ascii",\n  "seed": 0,\n  "agentRetries": 3,\n  "agentTimeoutSec": 600,\n  "version": "0.0.0-test"\n}',
    { name: "explorer", fingerprint: "0f6cc258050c" },
  ],
  [
    { game: "nethack", env: "nethack", role: "wizard", race: "elf", alignment: "chaotic", seed: 3 },
    '{\n  "game": "nethack",\n  "env": "nethack",\n  "role": "wizard",\n  "race": "elf",\n  "alignment": "chaotic",\n  "sandbox": "auto",\n  "agent": "explorer",\n  "maxActions": 20000,\n  "actionCap": 30,\n  "logWindow": {\n    "kind": "full"\n  },\n  "workspace": "persistent",\n  "episodes": 1,\n  "gridMode": "ascii",\n  "seed": 3,\n  "agentRetries": 3,\n  "agentTimeoutSec": 600,\n  "version": "0.0.0-test"\n}',
    { name: "nethack-agent --alignment chaotic --env nethack --race elf --role wizard", fingerprint: "3fc8ec4e186e" },
  ],
  [
    { game: "ft09-0d8bbf25", env: "arc-local", arcGames: "/games/arc", maxActions: 80 },
    '{\n  "game": "ft09-0d8bbf25",\n  "env": "arc-local",\n  "arcGames": "/games/arc",\n  "sandbox": "auto",\n  "agent": "explorer",\n  "maxActions": 80,\n  "actionCap": 20,\n  "logWindow": {\n    "kind": "full"\n  },\n  "workspace": "persistent",\n  "episodes": 1,\n  "gridMode": "ascii",\n  "seed": 0,\n  "agentRetries": 3,\n  "agentTimeoutSec": 600,\n  "version": "0.0.0-test"\n}',
    { name: "explorer --env arc-local --max-actions 80", fingerprint: "3a43391718a0" },
  ],
  [
    {
      game: "ls20",
      env: "arc-online",
      agent: "claude",
      model: "m-1",
      effort: "high",
      tools: "read,grep",
      noWrite: true,
      contextLimit: 64000,
      sandbox: "bwrap",
      passEnv: ["MY_TOKEN"],
    },
    '{\n  "game": "ls20",\n  "env": "arc-online",\n  "sandbox": "bwrap",\n  "passEnv": [\n    "MY_TOKEN"\n  ],\n  "agent": "claude",\n  "model": "m-1",\n  "effort": "high",\n  "contextLimit": 64000,\n  "tools": "read,grep",\n  "noWrite": true,\n  "maxActions": 500,\n  "actionCap": 20,\n  "logWindow": {\n    "kind": "full"\n  },\n  "workspace": "persistent",\n  "episodes": 1,\n  "gridMode": "ascii",\n  "seed": 0,\n  "agentRetries": 3,\n  "agentTimeoutSec": 600,\n  "version": "0.0.0-test"\n}',
    {
      name: "claude --context-limit 64000 --effort high --env arc-online --model m-1 --no-write --tools read,grep",
      fingerprint: "f8c1eb08aeb4",
    },
  ],
  [
    {
      game: "glide",
      agent: "mini",
      model: "qwen",
      baseUrl: "http://127.0.0.1:8080/v1",
      apiKeyEnv: "KEY",
      toolFormat: "text",
      stepLimit: 7,
      logWindow: 25,
      workspace: "stateless",
      episodes: 3,
      gridMode: "hex",
      agentRetries: 1,
      agentTimeoutSec: 30,
      arm: "my arm",
      job: "j-0123456789ab",
      actionCap: 5,
    },
    '{\n  "game": "glide",\n  "arm": "my arm",\n  "env": "local",\n  "sandbox": "auto",\n  "agent": "mini",\n  "model": "qwen",\n  "baseUrl": "http://127.0.0.1:8080/v1",\n  "apiKeyEnv": "KEY",\n  "toolFormat": "text",\n  "stepLimit": 7,\n  "maxActions": 500,\n  "actionCap": 5,\n  "logWindow": {\n    "kind": "last",\n    "sections": 25\n  },\n  "workspace": "stateless",\n  "episodes": 3,\n  "gridMode": "hex",\n  "seed": 0,\n  "agentRetries": 1,\n  "agentTimeoutSec": 30,\n  "version": "0.0.0-test",\n  "job": "j-0123456789ab"\n}',
    { name: "my arm", fingerprint: "0d1dee388be0" },
  ],
  [
    { game: "glide", agent: "command", cmd: "python3 a.py", logWindow: -1 },
    '{\n  "game": "glide",\n  "env": "local",\n  "sandbox": "auto",\n  "agent": "command",\n  "cmd": "python3 a.py",\n  "maxActions": 500,\n  "actionCap": 20,\n  "logWindow": {\n    "kind": "none"\n  },\n  "workspace": "persistent",\n  "episodes": 1,\n  "gridMode": "ascii",\n  "seed": 0,\n  "agentRetries": 3,\n  "agentTimeoutSec": 600,\n  "version": "0.0.0-test"\n}',
    { name: "command --cmd 'python3 a.py' --log-window none", fingerprint: "8e0747f00e50" },
  ],
  [
    { game: "glide", logWindow: "newest" },
    '{\n  "game": "glide",\n  "env": "local",\n  "sandbox": "auto",\n  "agent": "explorer",\n  "maxActions": 500,\n  "actionCap": 20,\n  "logWindow": {\n    "kind": "newest"\n  },\n  "workspace": "persistent",\n  "episodes": 1,\n  "gridMode": "ascii",\n  "seed": 0,\n  "agentRetries": 3,\n  "agentTimeoutSec": 600,\n  "version": "0.0.0-test"\n}',
    { name: "explorer --log-window newest", fingerprint: "3e776e94302e" },
  ],
];

describe("runs written before settings were declared once", () => {
  for (const [input, json, arm] of GOLDEN) {
    test(`${JSON.stringify(input)}: run.json's bytes and the arm are unchanged`, () => {
      const c = newConfig({ ...(input as Partial<RunConfigInput> & { game: string }), version: "0.0.0-test" })._unsafeUnwrap();
      expect(JSON.stringify(c, null, 2)).toBe(json);
      expect(armOf(c)).toEqual(arm);
      // Read back from run.json (as resume and score do), written again: the same bytes, the same arm.
      const back = validateConfig(JSON.parse(json), "run.json")._unsafeUnwrap();
      expect(JSON.stringify(back, null, 2)).toBe(json);
      expect(armOf(back)).toEqual(arm);
    });
  }

  test("play's flags give the settings they gave (a path made absolute, switches and lists left out when not given)", () => {
    const argv = [
      "--agent",
      "mini",
      "--model",
      "q",
      "--base-url",
      "http://127.0.0.1:8080/v1",
      "--pass-env",
      "A",
      "--pass-env",
      "B",
    ];
    const f = parseArgv([...argv, "--log-window", "25", "--grid", "hex", "--align", "lawful"], playFlags)._unsafeUnwrap().values;
    expect(fieldsFromFlags(f)).toEqual({
      agent: "mini",
      model: "q",
      baseUrl: "http://127.0.0.1:8080/v1",
      passEnv: ["A", "B"],
      logWindow: { kind: "last", sections: 25 },
      gridMode: "hex",
      alignment: "lawful",
    });
    const arc = parseArgv(["--env", "arc-local", "--arc-games", "some/dir", "--no-write"], playFlags)._unsafeUnwrap().values;
    expect(fieldsFromFlags(arc)).toEqual({ env: "arc-local", arcGames: `${process.cwd()}/some/dir`, noWrite: true });
  });
});

describe("a new setting is one declaration", () => {
  // A table as run-config.ts's, with one setting added: everything about it follows from its declaration.
  const table = {
    game: setting({ schema: v.string(), arm: false }),
    agent: setting({
      schema: v.picklist(["explorer", "claude"]),
      flag: { name: "agent", read: flag.choice(["explorer", "claude"]) },
      default: "explorer",
      arm: true,
    }),
    maxBilledTokens: setting({
      schema: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
      flag: { name: "max-billed-tokens", read: flag.int(1) },
      appliesTo: { agent: ["claude"] },
      arm: false,
      help: { group: "budget", arg: "N", text: "stop the run once its agent calls have billed N tokens" },
    }),
    budgetNote: setting({
      schema: v.string(),
      flag: { name: "budget-note", read: flag.text() },
      default: "none",
      arm: true,
      help: { group: "budget", arg: "TEXT", text: "a note (default {default})" },
    }),
  };

  test("its flag is in the flag table and parses to its field", () => {
    const flags = settingFlags(table);
    expect(Object.keys(flags)).toEqual(["agent", "max-billed-tokens", "budget-note"]);
    const parsed = parseArgv(["--max-billed-tokens", "5000", "--agent", "claude"], flags)._unsafeUnwrap().values;
    expect(fieldsFromFlagValues(table, parsed)).toEqual({ agent: "claude", maxBilledTokens: 5000 });
    expect(parseArgv(["--max-billed-tokens", "0"], flags)._unsafeUnwrapErr()).toContain(
      "--max-billed-tokens must be a whole number ≥ 1",
    );
  });

  test("run.json's schema checks it, its default fills in, and the fingerprint holds it unless declared otherwise", () => {
    const schema = v.object(schemaEntries(table));
    const c = v.parse(schema, { ...defaultsOf(table), game: "a", maxBilledTokens: 9 });
    expect(c).toEqual({ game: "a", agent: "explorer", maxBilledTokens: 9, budgetNote: "none" });
    expect(v.safeParse(schema, { ...c, maxBilledTokens: 1.5 }).success).toBe(false);
    expect([...notArmKeys(table)]).toEqual(["game", "maxBilledTokens"]);
  });

  test("given for an agent it does not apply to, it is named", () => {
    expect(notApplicable(table, { agent: "explorer", maxBilledTokens: 9 })).toEqual({
      label: "--max-billed-tokens",
      on: "agent",
      kind: "explorer",
      kinds: ["claude"],
    });
    expect(notApplicable(table, { agent: "claude", maxBilledTokens: 9 })).toBeUndefined();
  });

  test("its help line is in its section, with its declared default", () => {
    expect(settingsHelp(table, "budget")).toBe(
      [
        "  --max-billed-tokens N   stop the run once its agent calls have billed N tokens",
        "  --budget-note TEXT      a note (default none)",
      ].join("\n"),
    );
  });
});

describe("the real table", () => {
  test("every arm setting of a default run is fingerprinted, and the machine's own settings are not", () => {
    const c = newConfig({ game: "a", agent: "mini", apiKeyEnv: "K", sandbox: "none", passEnv: ["X"] })._unsafeUnwrap();
    const keys = Object.keys(armSettingsOf(c));
    for (const k of ["apiKeyEnv", "sandbox", "passEnv", "game", "seed", "agentTimeoutSec", "agentRetries"])
      expect(keys).not.toContain(k);
    for (const k of ["agent", "env", "maxActions", "actionCap", "logWindow", "workspace", "episodes", "gridMode", "version"])
      expect(keys).toContain(k);
  });
});
