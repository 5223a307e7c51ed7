import { describe, expect, test } from "bun:test";
import { actionsFileText, parseActions } from "../../src/agent/actions.ts";
import { ENTRY_MAX_CHARS, parseActionEntry } from "../../src/action-text.ts";

const all = [1, 2, 3, 4, 5, 6, 7] as const;
const opts = { cap: 20, available: all, path: "ws/actions.json" };

describe("parseActionEntry", () => {
  test("reads every accepted spelling", () => {
    expect(parseActionEntry("RESET")._unsafeUnwrap()).toEqual({ id: 0 });
    expect(parseActionEntry("ACTION3")._unsafeUnwrap()).toEqual({ id: 3 });
    expect(parseActionEntry(" action7 ")._unsafeUnwrap()).toEqual({ id: 7 });
    expect(parseActionEntry("ACTION6(30,40)")._unsafeUnwrap()).toEqual({ id: 6, x: 30, y: 40 });
    expect(parseActionEntry("ACTION6( 0 , 63 )")._unsafeUnwrap()).toEqual({ id: 6, x: 0, y: 63 });
    expect(parseActionEntry('ACTION6({"x": 38, "y": 46})')._unsafeUnwrap()).toEqual({ id: 6, x: 38, y: 46 });
    expect(parseActionEntry("ACTION2({})").isErr()).toBe(false);
  });
  test("names what is wrong", () => {
    expect(parseActionEntry("ACTION6")._unsafeUnwrapErr()).toContain("needs coordinates");
    expect(parseActionEntry("ACTION6(64,0)")._unsafeUnwrapErr()).toContain("0..63");
    expect(parseActionEntry("ACTION6(-1,0)")._unsafeUnwrapErr()).toContain("0..63");
    expect(parseActionEntry("ACTION1(2,3)")._unsafeUnwrapErr()).toContain("only ACTION6");
    expect(parseActionEntry("ACTION8")._unsafeUnwrapErr()).toContain("is not an action");
    expect(parseActionEntry("jump")._unsafeUnwrapErr()).toContain("'jump'");
    expect(parseActionEntry("RESET(1,2)")._unsafeUnwrapErr()).toContain("RESET takes no");
  });
  test("the grammar's edges: spaces anywhere between tokens, case, the object form only for ACTION6", () => {
    const good: Record<string, object> = {
      reset: { id: 0 },
      "RESET()": { id: 0 },
      "RESET( { } )": { id: 0 },
      "\tACTION2 ( )\n": { id: 2 },
      "Action4({})": { id: 4 },
      "ACTION6 ( 1 , 2 )": { id: 6, x: 1, y: 2 },
      'action6( { "x" : 3 , "y" : 4 } )': { id: 6, x: 3, y: 4 },
      "ACTION6(007,08)": { id: 6, x: 7, y: 8 },
      "\u00a0ACTION1\u2003": { id: 1 },
      'ACTION6({"y": 1, "x": 2})': { id: 6, x: 2, y: 1 },
    };
    for (const [text, action] of Object.entries(good)) expect(parseActionEntry(text)._unsafeUnwrap()).toEqual(action as never);
    const bad = [
      "",
      "ACTION",
      "ACTION0",
      "ACTION 1",
      "ACTION12",
      "ACTION1x",
      "RESETX",
      "ACTION6(1)",
      "ACTION6(1,)",
      "ACTION6(,1)",
      "ACTION6(1,2",
      "ACTION6(1,2))",
      "ACTION6 1,2",
      'ACTION1({"x": 1, "y": 2})',
      'RESET({"x": 1, "y": 2})',
      "ACTION6(1.5,2)",
      "ACTION6(--1,2)",
      "ACTION6({)",
      'ACTION6({"x": 1, "x": 2})',
      'ACTION6({"x": 1})',
      "(ACTION1)",
    ];
    for (const text of bad) expect(parseActionEntry(text).isErr()).toBe(true);
  });
  test("an entry longer than the limit is dropped unparsed, quoted in at most 200 characters", () => {
    const long = `ACTION1${" ".repeat(200_000)}x`;
    const e = parseActionEntry(long)._unsafeUnwrapErr();
    expect(e).toContain(`longer than ${ENTRY_MAX_CHARS} characters`);
    expect(e.length).toBeLessThan(300);
    // Padding within the limit still parses, whatever its shape.
    expect(parseActionEntry(`ACTION1${" ".repeat(ENTRY_MAX_CHARS - 7)}`)._unsafeUnwrap()).toEqual({ id: 1 });
    const b = parseActions(JSON.stringify({ actions: [long, "x".repeat(50_000_000 / 1000), "ACTION2"] }), opts)._unsafeUnwrap();
    expect(b.actions).toEqual([{ id: 2 }]);
    for (const w of b.warnings) expect(w.length).toBeLessThan(300);
  });
});

describe("parseActions", () => {
  test("keeps valid entries in order", () => {
    const b = parseActions('{"actions": ["ACTION6(30,40)", "ACTION1", "RESET"]}', opts)._unsafeUnwrap();
    expect(b.actions).toEqual([{ id: 6, x: 30, y: 40 }, { id: 1 }, { id: 0 }]);
    expect(b.warnings).toEqual([]);
    expect(b.stop).toBe(false);
  });
  test("discards entries beyond the cap with a warning naming them", () => {
    const b = parseActions(JSON.stringify({ actions: ["ACTION1", "ACTION2", "ACTION3", "ACTION4"] }), {
      ...opts,
      cap: 2,
    })._unsafeUnwrap();
    expect(b.actions).toEqual([{ id: 1 }, { id: 2 }]);
    expect(b.warnings).toEqual(["2 action(s) beyond the cap of 2 discarded: 'ACTION3, ACTION4'"]);
  });
  test("drops invalid and unavailable entries, naming each", () => {
    const b = parseActions('{"actions": ["ACTION1", "fly", "ACTION5", "ACTION6(99,1)"]}', {
      ...opts,
      available: [1, 2, 6],
    })._unsafeUnwrap();
    expect(b.actions).toEqual([{ id: 1 }]);
    expect(b.warnings.length).toBe(3);
    expect(b.warnings[0]).toContain("'fly'");
    expect(b.warnings[1]).toContain("'ACTION5'");
    expect(b.warnings[1]).toContain("ACTION1, ACTION2, ACTION6");
    expect(b.warnings[2]).toContain("0..63");
  });
  test("malformed files are errors that name the file and the fix", () => {
    const notJson = parseActions("{actions: [ACTION1]}", opts)._unsafeUnwrapErr();
    expect(notJson.code).toBe("bad-actions-json");
    expect(notJson.path).toBe("ws/actions.json");
    expect(notJson.message).toContain("not valid JSON");
    expect(notJson.fix).toContain('"actions"');
    const noField = parseActions('{"moves": []}', opts)._unsafeUnwrapErr();
    expect(noField.message).toContain("actions");
    const numbers = parseActions('{"actions": [1, 2]}', opts)._unsafeUnwrapErr();
    expect(numbers.message).toContain("actions.0");
    expect(parseActions("[]", opts).isErr()).toBe(true);
  });
  test("stop flag and the writer round-trip", () => {
    const text = actionsFileText([{ id: 6, x: 5, y: 7 }, { id: 0 }, { id: 4 }], true);
    const b = parseActions(text, opts)._unsafeUnwrap();
    expect(b.actions).toEqual([{ id: 6, x: 5, y: 7 }, { id: 0 }, { id: 4 }]);
    expect(b.stop).toBe(true);
  });
});
