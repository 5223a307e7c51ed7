// What a hostile or careless answer does to a run: dropped entries and an unusable actions.json are told to
// the agent in its next prompt (one or two lines); a 200,000-space entry is dropped without a slow parse and
// quoted short; control bytes in the answer never reach the master raw, so every reader keeps taking it as text.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseLog } from "../../src/log/format.ts";
import { loadLog } from "../../src/log/load.ts";
import { playGame } from "./helpers.ts";

/** A command agent: turn 1 runs `first`, later turns write ACTION1 and keep the prompt they were given. */
function agent(first: string): string {
  return `if [ "$PROLONG_TURN" = 1 ]; then ${first}; else printf '{"actions":["ACTION1"]}' > actions.json; printf '%s' "$PROLONG_PROMPT" > ../prompt-$PROLONG_TURN.txt; fi; echo "plan"`;
}

describe("the agent hears what went wrong with its actions.json", () => {
  test("dropped entries (one of 200,000 spaces) are named in the next prompt, quoted short; the warnings stay short", async () => {
    const write = `printf '{"actions":["ACTION1","fly","ACTION1%200000sx"]}' '' > actions.json`; // 200,000 spaces
    const run = await playGame({ game: "glide", agent: "command", cmd: agent(write), maxActions: 2, sandbox: "none" });
    expect(run.end.reason).toBe("max-actions");
    const prompt = readFileSync(join(run.session.paths.dir, "prompt-2.txt"), "utf8");
    const notice = prompt.slice(prompt.indexOf("From your last actions.json"));
    expect(notice).toContain("'fly' is not an action");
    expect(notice).toContain("longer than 100 characters");
    expect(notice.split("\n").length).toBeLessThanOrEqual(2);
    expect(notice.length).toBeLessThan(600);
    const warnings = run.events.filter((e) => e.kind === "warning");
    expect(warnings.length).toBe(2);
    for (const w of warnings) expect(JSON.stringify(w).length).toBeLessThan(600);
  });

  test("an actions.json that is a FIFO is not read (the harness does not hang); the retry's prompt says why", async () => {
    const run = await playGame({
      game: "glide",
      agent: "command",
      cmd: agent("mkfifo actions.json"),
      maxActions: 1,
      sandbox: "none",
    });
    expect(run.end.reason).toBe("max-actions");
    const prompt = readFileSync(join(run.session.paths.dir, "prompt-2.txt"), "utf8");
    expect(prompt).toContain("Your last actions.json could not be used");
    expect(prompt).toContain("FIFO");
    expect(run.events.some((e) => e.kind === "tamper" && (e as { file?: string }).file === "actions.json")).toBe(true);
  });
});

describe("control bytes in the answer", () => {
  test("a NUL, ESC, CR and DEL in the agent's text reach the master as pictures; every reader takes the log as text and reads the plan back exactly", async () => {
    const cmd = `printf '{"actions":["ACTION1"]}' > actions.json; printf 'go\\000left\\r\\n\\033[31mred\\033[0m\\177 [PLAN] probe'`;
    const run = await playGame({ game: "glide", agent: "command", cmd, maxActions: 1, sandbox: "none" });
    expect(run.end.reason).toBe("max-actions");
    expect(/[\u0000-\u0008\u000b-\u001f\u007f]/.test(run.master)).toBe(false);
    expect(loadLog(run.session.paths.log).isOk()).toBe(true);
    const plan = parseLog(run.master).sections[1]?.plan;
    expect(plan).toBe("go\u0000left\r\n\u001b[31mred\u001b[0m\u007f [PLAN] probe");
  });
});
