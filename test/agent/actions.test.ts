import { describe, expect, test } from "bun:test";
import { actionsFileText, parseActionEntry, parseActions } from "../../src/agent/actions.ts";

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
});

describe("parseActions", () => {
  test("keeps valid entries in order", () => {
    const b = parseActions('{"actions": ["ACTION6(30,40)", "ACTION1", "RESET"]}', opts)._unsafeUnwrap();
    expect(b.actions).toEqual([{ id: 6, x: 30, y: 40 }, { id: 1 }, { id: 0 }]);
    expect(b.warnings).toEqual([]);
    expect(b.stop).toBe(false);
  });
  test("discards entries beyond the cap with a warning naming them", () => {
    const b = parseActions(JSON.stringify({ actions: ["ACTION1", "ACTION2", "ACTION3", "ACTION4"] }), { ...opts, cap: 2 })._unsafeUnwrap();
    expect(b.actions).toEqual([{ id: 1 }, { id: 2 }]);
    expect(b.warnings).toEqual(["2 action(s) beyond the cap of 2 discarded: ACTION3, ACTION4"]);
  });
  test("drops invalid and unavailable entries, naming each", () => {
    const b = parseActions('{"actions": ["ACTION1", "fly", "ACTION5", "ACTION6(99,1)"]}', { ...opts, available: [1, 2, 6] })._unsafeUnwrap();
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
