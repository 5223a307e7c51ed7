// `prolong bench` on a terminal says what it is timing while it works (it takes minutes at full size). The
// in-process part alone, on the generated log alone (--no-fixtures): the whole-process part is timed, with
// its progress lines, in test/bench/processes.test.ts.
import { expect, test } from "bun:test";
import { prolongInPty } from "../support/pty.ts";

test("bench in a terminal: a progress line naming each input before the report", async () => {
  const p = prolongInPty(["bench", "--lines", "2000", "--repeat", "1", "--no-commands", "--no-processes", "--no-fixtures"], {
    cols: 120,
    rows: 40,
  });
  expect(await p.exited).toBe(0);
  expect(p.output()).toContain("bench: generating a 2,000-line log");
  expect(p.output()).toContain("bench: timing generated (2,000 lines) (1 of");
  expect(p.output()).toContain("GB/s");
});
