// The mini agent's fork bomb (slow tier: a whole-process trial that starts a thousand processes). The fast
// tier checks the process limit a command runs under (bounds.test.ts); this checks that a bomb meets it and
// the harness goes on.
import { describe, expect, test } from "bun:test";
import { HAVE_BWRAP } from "../backends/helpers.ts";
import { oneTurn, WRITE } from "./one-turn.ts";

describe("the mini agent's bounds (slow)", () => {
  test.skipIf(!HAVE_BWRAP)(
    "a fork bomb (bwrap) ends in the agent's own processes: the harness goes on, the turn ends",
    async () => {
      const { run, heard } = await oneTurn(
        [{ commands: ["bomb() { bomb | bomb & }; bomb; sleep 2; echo survived"] }, { commands: [WRITE], text: "[PLAN]\nright" }],
        { agentTimeoutSec: 20 },
      );
      expect(["max-actions", "agent-failed"]).toContain(run.end.reason);
      if (heard[0] !== undefined) expect(heard[0]).toMatch(/Resource temporarily unavailable|killed|exit status/);
    },
    90_000,
  );
});
