// The master is checked before every agent call (its size, and its last section's checksum against the
// index), so an edit made by any means is caught during the run: here a same-size one-byte edit of the
// master's last section by an agent that can reach it (no sandbox), which went unnoticed before.
import { describe, expect, test } from "bun:test";
import { playGame } from "./helpers.ts";

describe("the master checked before every agent call", () => {
  test("a same-size one-byte edit of the master's tail ends the run at the next call, naming the master and the fix", async () => {
    // At turn 2 the agent overwrites the master's last byte but one (a board cell) with the same count of bytes.
    const edit = `if [ "$PROLONG_TURN" = 2 ]; then n=$(stat -c %s ../logs.txt); printf 'Z' | dd of=../logs.txt bs=1 seek=$((n - 3)) conv=notrunc 2>/dev/null; fi`;
    const run = await playGame({
      game: "glide",
      agent: "command",
      cmd: `${edit}; printf '{"actions":["ACTION1"]}' > actions.json; echo plan`,
      maxActions: 5,
      sandbox: "none",
    });
    expect(run.end.reason).toBe("log-failed");
    expect(run.end.detail).toContain("last section");
    expect(run.end.detail).toContain("no longer matches its checksum");
    expect(run.session.tally.agentCalls).toBe(2);
  });

  test("bytes appended to the master by another process end the run at the next call", async () => {
    const append = `if [ "$PROLONG_TURN" = 2 ]; then printf 'forged\\n' >> ../logs.txt; fi`;
    const run = await playGame({
      game: "glide",
      agent: "command",
      cmd: `${append}; printf '{"actions":["ACTION1"]}' > actions.json; echo plan`,
      maxActions: 5,
      sandbox: "none",
    });
    expect(run.end.reason).toBe("log-failed");
    expect(run.end.detail).toMatch(/master/);
  });
});
