import { describe, expect, test } from "bun:test";
import { parseTarget, resolveOne, resolveTarget } from "../../src/inspect/target.ts";
import { generateLog } from "../../src/bench/gen-log.ts";
import { loaded } from "./helpers.ts";

describe("parseTarget", () => {
  test("single numbers, closed and open ranges, last", () => {
    expect(parseTarget("12")._unsafeUnwrap()).toMatchObject({ from: 12, to: 12 });
    expect(parseTarget("3..9")._unsafeUnwrap()).toMatchObject({ from: 3, to: 9 });
    expect(parseTarget("3..")._unsafeUnwrap()).toMatchObject({ from: 3, to: null });
    expect(parseTarget("..9")._unsafeUnwrap()).toMatchObject({ from: null, to: 9 });
    expect(parseTarget("last")._unsafeUnwrap()).toMatchObject({ from: -1, to: -1 });
  });

  test("bad forms are errors that name the forms", () => {
    for (const bad of ["", "..", "x", "-3", "1..2..3", "1.5", "9..3"]) {
      const r = parseTarget(bad);
      expect(r.isErr()).toBe(true);
      expect(r._unsafeUnwrapErr().code).toBe("bad-target");
    }
    expect(parseTarget("9..3")._unsafeUnwrapErr().fix).toContain("3..9");
  });
});

describe("resolveTarget", () => {
  const log = loaded(generateLog({ sections: 30, seed: 4 }));

  test("action numbers select the sections that carry them", () => {
    const ids = resolveTarget(log.table, parseTarget("5..8")._unsafeUnwrap())._unsafeUnwrap();
    expect(ids.map((i) => log.table.action[i])).toEqual([5, 6, 7, 8]);
    expect(resolveTarget(log.table, parseTarget("..2")._unsafeUnwrap())._unsafeUnwrap()).toEqual([0, 1, 2]);
    expect(resolveTarget(log.table, parseTarget("last")._unsafeUnwrap())._unsafeUnwrap()).toEqual([29]);
  });

  test("--sections: indices; out of range is an error naming the span", () => {
    expect(resolveTarget(log.table, parseTarget("28..", true)._unsafeUnwrap())._unsafeUnwrap()).toEqual([28, 29]);
    const missing = resolveTarget(log.table, parseTarget("400")._unsafeUnwrap());
    expect(missing._unsafeUnwrapErr().message).toContain("actions 0..29");
  });

  test("resolveOne refuses a range", () => {
    expect(resolveOne(log.table, "7")._unsafeUnwrap()).toBe(7);
    expect(resolveOne(log.table, "3..4")._unsafeUnwrapErr().message).toContain("is a range");
  });
});
