// compareCopy over a master mapped only past the copy's end gives the report of the whole master.
import { describe, expect, test } from "bun:test";
import { generateLog } from "../../src/bench/gen-log.ts";
import { atSectionBoundary, compareCopy } from "../../src/verify/two-files.ts";

const master = new TextEncoder().encode(generateLog({ sections: 30, seed: 6 }));
const sep = new TextEncoder().encode("\n" + "=".repeat(80));

function boundaries(): number[] {
  const out: number[] = [];
  for (let i = Buffer.from(master).indexOf(sep); i >= 0; i = Buffer.from(master).indexOf(sep, i + 1)) out.push(i);
  return out;
}

describe("compareCopy", () => {
  test("section boundaries are where the harness ends copies; other offsets are mid-section", () => {
    const b = boundaries();
    expect(b.length).toBe(29);
    for (const at of b) expect(atSectionBoundary(master, at)).toBe(true);
    for (const at of [1, 100, (b[3] as number) + 1, (b[3] as number) - 1]) expect(atSectionBoundary(master, at)).toBe(false);
    expect(atSectionBoundary(master, master.length)).toBe(true);
  });

  test("a partial master (past the copy's end) gives the whole master's report", () => {
    const b = boundaries();
    const changed = master.slice(0, b[10]);
    changed[5000] = (changed[5000] as number) ^ 1;
    const longer = new Uint8Array(master.length + 5);
    longer.set(master);
    const copies = [
      master.subarray(0, b[10]),
      master.subarray(0, (b[10] as number) - 3),
      master.subarray(0, 0),
      changed,
      master,
      longer,
    ];
    for (const copy of copies) {
      const whole = compareCopy("m", master, "c", copy);
      const partial = compareCopy(
        "m",
        master.subarray(0, Math.min(master.length, copy.length + 83)),
        "c",
        copy,
        null,
        master.length,
      );
      expect(partial).toEqual(whole);
    }
    expect(compareCopy("m", master, "c", copies[0] as Uint8Array).verdict).toBe("ok");
    expect(compareCopy("m", master, "c", copies[1] as Uint8Array).verdict).toBe("mid-section");
    expect(compareCopy("m", master, "c", copies[2] as Uint8Array).verdict).toBe("empty");
    expect(compareCopy("m", master, "c", changed)).toMatchObject({ verdict: "differs", firstDiff: 5000 });
    expect(compareCopy("m", master, "c", longer)).toMatchObject({
      verdict: "differs",
      firstDiff: master.length,
      copyBytesAfterDiff: 5,
    });
  });
});
