// The tool-call distribution in `prolong report`, in a real browser: two arms of mini-agent runs against the
// scripted chat server — a full-log arm that searches, reads and analyses logs.txt, a no-log arm that keeps
// notes — give the figure one stacked bar per arm whose segments equal the report's JSON (which equals
// `prolong score --json`), and the table beside it. Skips the browser part with the reason when chromium or
// playwright-core is missing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ReportData } from "../../src/report/data.ts";
import { browserSkipReason, launchBrowser, type BrowserContext } from "../browser.ts";
import { withEnv } from "../agent/backends/helpers.ts";
import { startChatServer, type ChatStep } from "../support/chat-server.ts";
import { playGame } from "../run/helpers.ts";

declare const document: {
  querySelectorAll(sel: string): ArrayLike<{ dataset: Record<string, string | undefined> }>;
};

const MAIN = path.resolve(import.meta.dir, "../../src/main.ts");
const work = mkdtempSync(path.join(tmpdir(), "prolong-tool-figure-"));
const runs = path.join(work, "runs");
const MOVE = `echo '{"actions": ["ACTION4"]}' > actions.json`;

/** One turn of each arm: what the model asks for, command by command; the last writes actions.json. */
const FULL_TURN: ChatStep[] = [
  { commands: ["grep -c '^Action ' logs.txt"] },
  { commands: [`python3 -c "print(open('logs.txt').read().count('Level'))"`] },
  { commands: ["tail -n 5 logs.txt"] },
  { commands: [MOVE], text: "[PLAN]\nright" },
];
const NO_LOG_TURN: ChatStep[] = [
  { commands: ["cat notes.md 2>/dev/null; echo seen >> notes.md"] },
  { commands: [MOVE], text: "[PLAN]\nright" },
];
const RUNS = 2;
const ACTIONS = 2;

async function playArm(arm: string, turn: ChatStep[], logWindow: string | null): Promise<void> {
  const server = startChatServer(Array.from({ length: RUNS * ACTIONS }, () => turn).flat());
  try {
    for (let seed = 0; seed < RUNS; seed++)
      await withEnv({ OPENAI_API_KEY: "scripted" }, () =>
        playGame(
          {
            game: "glide",
            seed,
            maxActions: ACTIONS,
            agent: "mini",
            model: "scripted",
            baseUrl: server.baseUrl,
            arm,
            logWindow,
            sandbox: "none",
            agentRetries: 0,
          },
          path.join(runs, arm, `glide-${seed}`),
        ),
      );
  } finally {
    server.stop();
  }
}

await playArm("full-log", FULL_TURN, null);
await playArm("no-log", NO_LOG_TURN, "none");

function prolong(args: string[]): { code: number; out: string; err: string } {
  const p = Bun.spawnSync([process.execPath, MAIN, ...args], { stdout: "pipe", stderr: "pipe", cwd: work });
  return { code: p.exitCode ?? -1, out: p.stdout.toString(), err: p.stderr.toString() };
}

const out = path.join(work, "report.html");
const made = prolong(["report", runs, "-o", out, "--budgets", "1,2", "--json"]);
const data = JSON.parse(made.out) as ReportData;

describe("the tool-call distribution", () => {
  test("per arm, the shares the scripts asked for; equal to `prolong score --json`; per run too", () => {
    expect(made.code).toBe(0);
    const [full, none] = ["full-log", "no-log"].map((n) => data.arms.find((a) => a.name === n)!.toolUse!);
    expect(full!.byClass).toMatchObject({ "search-log": 4, code: 4, "read-log": 4, "action-file": 4, workspace: 0 });
    expect(full!.shares["search-log"]).toBe(0.25);
    expect(full!.logBytesPulledPerTurn).toBeGreaterThan(0);
    expect(none!.byClass).toMatchObject({ workspace: 4, "action-file": 4, "search-log": 0, "read-log": 0, code: 0 });
    // The no-log arm had no log: nothing was pulled, and there is no share of a log to give.
    expect(none!.logBytesGivenPerTurn).toBe(0);
    expect(none!.meanPulledShare).toBeNull();
    const score = JSON.parse(prolong(["score", runs, "--json"]).out);
    expect(score.arms.map((a: { toolUse: unknown }) => a.toolUse)).toEqual(data.arms.map((a) => a.toolUse));
    expect(score.runs.map((r: { toolUse: { calls: number } }) => r.toolUse.calls)).toEqual([8, 8, 4, 4]);
  });
});

describe.skipIf(browserSkipReason !== null)("the tool-call figure in chromium", () => {
  let context: BrowserContext | null = null;
  beforeAll(async () => {
    context = await launchBrowser(mkdtempSync(path.join(work, "profile-")), { width: 1400, height: 900 });
  });
  afterAll(async () => {
    await context?.close();
  });

  test("one segment per arm and class with calls, each equal to the JSON; the table has a row per arm", async () => {
    const page = await context!.newPage();
    await page.goto(`file://${out}`);
    await page.waitForSelector("body[data-ready]");
    const segments = await page.evaluate(() =>
      Array.from(document.querySelectorAll("#tool-calls .segment")).map((m) => ({ ...m.dataset }) as Record<string, string>),
    );
    const want = data.arms.flatMap((a) =>
      Object.entries(a.toolUse!.byClass)
        .filter(([, n]) => n > 0)
        .map(([c, n]) => [a.name, c, n, (a.toolUse!.shares as Record<string, number>)[c]]),
    );
    expect(segments.map((s) => [s["series"], s["class"], Number(s["calls"]), Number(s["share"])])).toEqual(want);
    const rows = await page.$$eval("#tool-calls-table tbody tr", (trs) => trs.length);
    expect(rows).toBe(2);
    const figures = await page.$$eval("svg.figure", (svgs) => svgs.map((s) => s.id));
    expect(figures).toContain("tool-calls");
  }, 120_000);
});
