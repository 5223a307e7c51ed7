// log stats groups digits by hand (no locale data at start-up): the same text as toLocaleString("en-US").
import { expect, test } from "bun:test";
import { groupDigits } from "../../src/cli/log-stats.ts";

test("groupDigits = toLocaleString('en-US') for integers of every length", () => {
  const values = [0, 7, 42, 999, 1000, 1001, 12_345, 999_999, 1_000_000, 19_761_341, 495_722_699, 2 ** 53 - 1];
  for (let d = 1; d <= 16; d++) values.push(Number("9".repeat(d)), 10 ** d, 10 ** d + 1);
  for (const n of values) expect([n, groupDigits(n)]).toEqual([n, n.toLocaleString("en-US")]);
});
