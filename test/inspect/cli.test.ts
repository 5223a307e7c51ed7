// The four `prolong log` subcommands as a user runs them: exit codes, --json shapes, bad input.
import { describe, expect, test } from "bun:test";
import { generateLog } from "../../src/bench/gen-log.ts";
import { prolong as prolongProcess } from "../support/prolong-process.ts";
import { logFile } from "./helpers.ts";

const prolong = (...args: string[]) => prolongProcess(args, { env: { NO_COLOR: "" } });

const text = generateLog({ sections: 25, seed: 8 });
const file = logFile(text);

describe("prolong log sections|show|diff|grep", () => {
  test("sections --json: a row per section", () => {
    const r = prolong("log", "sections", file, "--json");
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.out) as Array<{ index: number; action: number }>;
    expect(rows.map((x) => x.action)).toEqual(Array.from({ length: 25 }, (_, i) => i));
  });

  test("show: a range in colour or plain; --json carries the board rows", () => {
    const plain = prolong("log", "show", file, "3..4", "--color", "never");
    expect(plain.code).toBe(0);
    expect(plain.out).toContain("-- Action 3 | Level");
    expect(plain.out).toContain("-- Action 4 | Level");
    expect(plain.out).not.toContain("\x1b[");
    const colour = prolong("log", "show", file, "3", "--color", "always");
    expect(colour.out).toContain("\x1b[38;2;");
    expect(colour.out).toContain("\u2580");
    const json = JSON.parse(prolong("log", "show", file, "last", "--json").out);
    expect(json.length).toBe(1);
    expect(json[0].action).toBe(24);
    expect(json[0].board.length).toBe(64);
    expect(json[0].board[0].length).toBe(64);
  });

  test("diff --json and grep --json", () => {
    const d = JSON.parse(prolong("log", "diff", file, "2", "9", "--json").out);
    expect(d.from).toEqual({ section: 2, action: 2 });
    expect(d.changed).toBe(d.cells.length);
    const g = prolong("log", "grep", file, "Tool Call: ACTION", "--json");
    expect(g.code).toBe(0);
    expect(JSON.parse(g.out).lines).toBe(24);
    expect(prolong("log", "grep", file, "nothing like this").code).toBe(1);
  });

  test("a foreign file: exit 2 and a message that names the file and what a log is", () => {
    const foreign = logFile("just some notes\nnot a log at all\n");
    for (const sub of [["sections"], ["show", "1"], ["diff", "1", "2"], ["grep", "x"]]) {
      const r = prolong("log", sub[0]!, foreign, ...sub.slice(1));
      expect(r.code).toBe(2);
      expect(r.err).toContain(foreign);
      expect(r.err).toContain("80 '='");
    }
  });

  test("a truncated log: what can be read is shown, the cut section named", () => {
    const cut = logFile(text.slice(0, text.length - 3000));
    const rows = prolong("log", "sections", cut);
    expect(rows.code).toBe(0);
    expect(rows.out.trimEnd().split("\n").at(-1)).toContain("CUT");
    const shown = prolong("log", "show", cut, "last", "--sections", "--color", "never");
    expect(shown.code).toBe(0);
    expect(shown.out).toContain("not a readable section");
    expect(shown.out).toContain("action 24: board row");
    expect(shown.out).toContain("more line(s)");
    expect(prolong("log", "show", cut, "23", "--color", "never").out).toContain("-- Action 23 |");
  });

  test("bad targets and unknown options: exit 2 with usage or a fix", () => {
    expect(prolong("log", "show", file, "9..3").err).toContain("3..9");
    expect(prolong("log", "show", file, "999").err).toContain("not in this log");
    const r = prolong("log", "sections", file, "--bogus");
    expect(r.code).toBe(2);
    expect(r.err).toContain("unknown option '--bogus'");
    expect(r.err).toContain("prolong log sections --help");
  });
});
