// One instruction text per memory arm, each pinned as a golden file (test/agent/golden/<arm>.md): a change of
// wording shows up as a diff to review. Regenerate after a deliberate change with PROLONG_UPDATE_GOLDEN=1.
// Also: what each arm's text must and must not promise, and the per-turn line saying what the agent has now.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { firstTurnPrompt, instructionsText, nextTurnPrompt, resumePrompt, type PromptContext } from "../../src/agent/prompts.ts";
import type { LogWindow } from "../../src/config/log-window.ts";

// glide as a real run offers it, so these files are also the local kind's texts as given (test/run/arm-texts.test.ts).
const base: PromptContext = {
  gameId: "glide",
  availableActions: [1, 2, 3, 4, 7],
  actionCap: 20,
  maxActions: 500,
  window: { kind: "full" } as LogWindow,
  stateless: false,
  episodes: 1,
};
const ARMS: Record<string, PromptContext> = {
  "full-log": base,
  "last-5": { ...base, window: { kind: "last", sections: 5 } },
  "newest-only": { ...base, window: { kind: "newest" } },
  "no-log": { ...base, window: { kind: "none" } },
  stateless: { ...base, stateless: true },
  "lifetime-5": { ...base, episodes: 5 },
  "no-log-observe": { ...base, window: { kind: "none" }, observe: "mcp" },
  "full-log-observe": { ...base, observe: "mcp" },
};
const golden = (arm: string) => path.join(import.meta.dir, "golden", `${arm}.md`);
const update = process.env.PROLONG_UPDATE_GOLDEN === "1";

describe("instruction text per arm", () => {
  for (const [arm, c] of Object.entries(ARMS)) {
    test(`${arm} equals its golden text`, () => {
      const text = instructionsText(c);
      if (update || !existsSync(golden(arm))) writeFileSync(golden(arm), text);
      expect(text).toBe(readFileSync(golden(arm), "utf8"));
    });
  }

  test("the six texts differ from each other", () => {
    const texts = Object.values(ARMS).map(instructionsText);
    expect(new Set(texts).size).toBe(texts.length);
  });

  test("only the full log is called complete; the windowed arms say what they hold", () => {
    const complete = "the complete, append-only record";
    expect(instructionsText(ARMS["full-log"]!)).toContain(complete);
    for (const arm of ["last-5", "newest-only", "no-log"]) expect(instructionsText(ARMS[arm]!)).not.toContain(complete);
    expect(instructionsText(ARMS["last-5"]!)).toContain("the last 5 action");
    expect(instructionsText(ARMS["newest-only"]!)).toContain("holds only the newest section");
  });

  test("the no-log arm promises no log file and no plan read back from it", () => {
    const t = instructionsText(ARMS["no-log"]!);
    expect(t).toContain("There is no log file");
    expect(t).not.toContain("logs.txt");
    expect(t).not.toContain("into the log");
  });

  test("stateless: plans go to plans.txt, not the log; the lifetime names its episodes", () => {
    const t = instructionsText(ARMS.stateless!);
    expect(t).toContain("appends your plan to plans.txt");
    expect(t).not.toContain("writes this text into the log");
    expect(t).toContain("wiped after every turn");
    expect(instructionsText(ARMS["lifetime-5"]!)).toContain("a lifetime of 5 episodes");
    expect(instructionsText(base)).not.toContain("episode");
  });
});

describe("each turn's prompt says what the agent has now", () => {
  const summary = "Now: action 7, level 1, attempt 1, score 0, state NOT_FINISHED.";
  test.each([
    ["full-log", "logs.txt holds everything so far."],
    ["last-5", "logs.txt holds the initial section and the last 5 action sections."],
    ["newest-only", "logs.txt holds only the newest section."],
    ["no-log", "There is no log; the board is below."],
    ["stateless", "The workspace was wiped except logs.txt, plans.txt and the instructions."],
  ])("%s", (arm, line) => {
    const c = ARMS[arm]!;
    expect(nextTurnPrompt(c, summary)).toContain(line);
    expect(resumePrompt(c, summary)).toContain(line);
  });
  test("a lifetime's prompt names the episode and where the earlier ones are", () => {
    expect(nextTurnPrompt({ ...ARMS["lifetime-5"]!, episode: 2 }, summary)).toContain(
      "Episode 2 of 5; the earlier episodes are in the log before this one's INITIAL STATE section. logs.txt holds everything so far.",
    );
    expect(nextTurnPrompt({ ...ARMS["lifetime-5"]!, episode: 1 }, summary)).toContain("Episode 1 of 5. logs.txt");
    expect(nextTurnPrompt({ ...base, episode: 1 }, summary)).not.toContain("Episode");
  });
  test("--observe: the prompts send the agent to the observe tool and carry no board; the instructions name the tool", () => {
    const c = ARMS["no-log-observe"]!;
    expect(firstTurnPrompt(c)).toBe("A new game has started. Call the observe tool for the board, then write actions.json.");
    expect(nextTurnPrompt(c, "Now: action 3.")).toContain("Call the observe tool for the board now");
    expect(nextTurnPrompt(c, "Now: action 3.")).not.toContain("Here is the board");
    // ...nor says the board is below it.
    expect(nextTurnPrompt(c, "Now: action 3.")).toContain("There is no log; the observe tool shows the board.");
    expect(resumePrompt(c, "Now: action 3.")).not.toContain("the board is below");
    expect(instructionsText(c)).toContain("the board is not in the prompt: call the `observe` tool");
    expect(instructionsText(c)).not.toContain("each prompt shows the current board");
    expect(instructionsText(ARMS["full-log-observe"]!)).toContain(
      "An `observe` tool (no arguments) also returns the current board",
    );
  });

  test("a window of a terminal game's log names what it also keeps (NetHack's inventory); the grid's does not", () => {
    const carried = "your `[INVENTORY]`";
    expect(nextTurnPrompt({ ...ARMS["last-5"]!, carried }, summary)).toContain(
      "logs.txt holds the initial section, the last 5 action sections and the newest section that lists your `[INVENTORY]`.",
    );
    expect(nextTurnPrompt({ ...ARMS["newest-only"]!, carried }, summary)).toContain(
      "logs.txt holds only the newest section (and the newest that lists your `[INVENTORY]`, when older).",
    );
    expect(nextTurnPrompt(ARMS["last-5"]!, summary)).not.toContain("lists");
  });

  test("the first turn of a windowed arm says so too", () => {
    expect(firstTurnPrompt(ARMS["last-5"]!)).toContain("the last 5 action sections");
    expect(firstTurnPrompt(ARMS["no-log"]!, "[CURRENT BOARD STATE]\n...")).toContain("[CURRENT BOARD STATE]");
  });
});
