// The replay page in a real browser: Debian's chromium driven by playwright-core loads a page written by
// `prolong view`, steps through it with the keyboard, and every cell's drawn colour is checked against the
// logged board. Skips with a printed reason when chromium or playwright-core is missing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ARC_RGB } from "../../src/game/render.ts";
import type { Grid } from "../../src/game-model.ts";
import { formatHeader, parseLog, type LogSection } from "../../src/log/format.ts";
import { generateLog } from "../../src/bench/gen-log.ts";
import { fixturesDir } from "../inspect/helpers.ts";
import { appendNethackSection } from "../../src/game/nethack/section.ts";
import { browserSkipReason, launchBrowser, type BrowserContext, type BrowserPage } from "../browser.ts";

const MAIN = path.resolve(import.meta.dir, "../../src/main.ts");

// The few browser globals the page.evaluate callbacks use (they run in the page; tsconfig has no DOM lib).
interface PageCanvas {
  width: number;
  height: number;
  dataset: Record<string, string | undefined>;
  getContext(kind: "2d"): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } | null;
}
declare const document: { getElementById(id: string): unknown };
interface PageSpan {
  dataset: Record<string, string | undefined>;
  textContent: string | null;
  style: { color: string };
}
declare const window: {
  prolongReplay: { state(): ReplayState; go(step: number): void; ticks(): [number, string][] };
  location: { hash: string };
};
interface ReplayState {
  step: number;
  frame: number;
  action: number | null;
  changed: number | null;
  boards: number;
}

const skipReason = browserSkipReason;
if (skipReason) console.log(`skipped: browser test: ${skipReason}`);

type Context = BrowserContext;
type Page = BrowserPage;

const work = mkdtempSync(path.join(tmpdir(), "prolong-browser-test-"));
let context: Context | null = null;

function writeView(target: string, out: string): void {
  const p = Bun.spawnSync([process.execPath, MAIN, "view", target, "-o", out], { stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`prolong view failed: ${p.stderr.toString()}`);
}

async function open(file: string, hash = ""): Promise<{ page: Page; errors: string[] }> {
  const page = await context!.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  // Offline by construction: any request other than the file itself is an error.
  await page.route(/^(?!file:)/, (route) => {
    errors.push(`network request: ${route.request().url()}`);
    return route.abort();
  });
  await page.goto(`file://${file}${hash}`);
  await page.waitForSelector("body[data-ready]", { timeout: 15_000 });
  return { page, errors };
}

interface Drawn {
  px: number;
  width: number;
  height: number;
  /** The colour at each cell's centre, and at the middle of its left edge (where a highlight ring sits). */
  centres: number[];
  edges: number[];
}

async function drawn(page: Page): Promise<Drawn> {
  return page.evaluate(() => {
    const c = document.getElementById("board") as PageCanvas;
    const px = Number(c.dataset.cellPx);
    const width = c.width / px;
    const height = c.height / px;
    const img = c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
    const at = (x: number, y: number) => (y * c.width + x) * 4;
    const centres: number[] = [];
    const edges: number[] = [];
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const m = at(x * px + (px >> 1), y * px + (px >> 1));
        centres.push(img[m]!, img[m + 1]!, img[m + 2]!);
        const e = at(x * px, y * px + (px >> 1));
        edges.push(img[e]!, img[e + 1]!, img[e + 2]!);
      }
    }
    return { px, width, height, centres, edges };
  });
}

function expectBoard(d: Drawn, g: Grid): void {
  expect([d.width, d.height]).toEqual([g.width, g.height]);
  const want: number[] = [];
  for (const c of g.cells) want.push(...ARC_RGB[c]!);
  // One comparison of all cells; on failure the first differing cell is named.
  const firstBad = want.findIndex((v, i) => v !== d.centres[i]);
  expect(firstBad === -1 ? "all cells match" : `cell ${Math.floor(firstBad / 3)} differs`).toBe("all cells match");
}

function changed(a: Grid, b: Grid): number[] {
  const out: number[] = [];
  for (let i = 0; i < b.cells.length; i++) if (a.cells[i] !== b.cells[i]) out.push(i);
  return out;
}

const state = (page: Page): Promise<ReplayState> => page.evaluate(() => window.prolongReplay.state());

describe.skipIf(skipReason !== null)("prolong view in chromium", () => {
  beforeAll(async () => {
    context = await launchBrowser(mkdtempSync(path.join(work, "profile-")));
  });
  afterAll(async () => {
    await context?.close();
  });

  test("keyboard stepping: header, every cell's colour and the changed-cell highlight match the log", async () => {
    const text = generateLog({ sections: 120, seed: 7 });
    const run = mkdtempSync(path.join(work, "run-"));
    writeFileSync(path.join(run, "logs.txt"), text);
    writeFileSync(path.join(run, "run.json"), "{}");
    const html = path.join(work, "generated.html");
    writeView(run, html);
    const sections: LogSection[] = parseLog(text).sections;
    const { page, errors } = await open(html);

    for (let i = 0; i < 12; i++) {
      const s = await state(page);
      expect(s.step).toBe(i);
      const sec = sections[i]!;
      expect(await page.textContent("#header-line")).toBe(formatHeader(sec.header));
      const d = await drawn(page);
      expectBoard(d, sec.board);
      if (i > 0) {
        const diff = changed(sections[i - 1]!.board, sec.board);
        expect(s.changed).toBe(diff.length);
        // A changed cell carries the white ring on its edge; an unchanged one shows its own colour there.
        const white = (k: number) => d.edges[k * 3] === 255 && d.edges[k * 3 + 1] === 255 && d.edges[k * 3 + 2] === 255;
        for (const k of diff) expect(white(k)).toBe(true);
        const same = sec.board.cells.findIndex((c, k) => c !== 0 && !diff.includes(k));
        if (same >= 0) expect(white(same)).toBe(false);
      }
      await page.keyboard.press("ArrowRight");
    }
    await page.keyboard.press("ArrowLeft");
    expect((await state(page)).step).toBe(11);
    await page.keyboard.press("End");
    expect((await state(page)).step).toBe(sections.length - 1);
    expectBoard(await drawn(page), sections.at(-1)!.board);
    expect(errors).toEqual([]);
    await page.close();
  });

  test("animation frames: the first frame and stepping through frames draw the logged frames", async () => {
    const text = generateLog({ sections: 120, seed: 7 });
    const sections = parseLog(text).sections;
    const animated = sections.findIndex((s) => s.frames.length >= 2);
    expect(animated).toBeGreaterThan(0);
    const html = path.join(work, "frames.html");
    writeFileSync(path.join(work, "frames.txt"), text);
    writeView(path.join(work, "frames.txt"), html);
    const { page, errors } = await open(html);
    await page.evaluate((n) => window.prolongReplay.go(n), animated);
    const sec = sections[animated]!;
    await page.keyboard.press("f");
    expect((await state(page)).frame).toBe(0);
    expectBoard(await drawn(page), sec.frames[0]!);
    await page.keyboard.press("ArrowUp");
    expectBoard(await drawn(page), sec.frames[1]!);
    for (let k = 2; k <= sec.frames.length; k++) await page.keyboard.press("ArrowUp");
    expect((await state(page)).frame).toBe(sec.frames.length);
    expectBoard(await drawn(page), sec.board);
    expect(errors).toEqual([]);
    await page.close();
  });

  test("tamper events are listed, marked and reachable with 't'", async () => {
    const run = mkdtempSync(path.join(work, "tamper-"));
    writeFileSync(path.join(run, "logs.txt"), generateLog({ sections: 30, seed: 3 }));
    const ev = (kind: string, f: object) => JSON.stringify({ time: "2026-12-01T00:00:00.000Z", run: "r/g", kind, ...f });
    writeFileSync(
      path.join(run, "events.jsonl"),
      [
        ev("action", { action: 9, call: "ACTION1({})", level: 1, attempt: 1, score: 0, state: "NOT_FINISHED", frames: 1 }),
        ev("tamper", {
          tamper: "rewritten",
          detail: "copy differs from master at byte 812",
          expectedBytes: 900,
          foundBytes: 900,
          firstDiff: 812,
          turn: 4,
        }),
      ].join("\n") + "\n",
    );
    const html = path.join(work, "tamper.html");
    writeView(run, html);
    const { page, errors } = await open(html);
    expect(await page.locator("#tampers li").count()).toBe(1);
    await page.keyboard.press("t");
    expect((await state(page)).action).toBe(9);
    expect(await page.textContent("#tamper-note")).toContain("TAMPER (rewritten): copy differs from master at byte 812");
    // The timeline's red mark at the top of the strip.
    const red = await page.evaluate(() => {
      const t = document.getElementById("timeline") as PageCanvas;
      const d = t.getContext("2d")!.getImageData(0, 0, t.width, 4).data;
      for (let i = 0; i < d.length; i += 4) if (d[i] === 0xf9 && d[i + 1] === 0x3c && d[i + 2] === 0x31) return true;
      return false;
    });
    expect(red).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  test("#step=N links: opening one shows that step, stepping rewrites it; the timeline's axis and the scores are labelled", async () => {
    const text = generateLog({ sections: 120, seed: 5 });
    const sections = parseLog(text).sections;
    const run = mkdtempSync(path.join(work, "links-"));
    writeFileSync(path.join(run, "logs.txt"), text);
    const html = path.join(work, "links.html");
    writeView(run, html);
    const { page, errors } = await open(html, "#step=7");
    expect((await state(page)).step).toBe(6);
    expect(await page.textContent("#header-line")).toBe(formatHeader(sections[6]!.header));
    await page.keyboard.press("ArrowRight");
    expect(await page.evaluate(() => window.location.hash)).toBe("#step=8");
    expect(await page.getAttribute("#step-label", "href")).toBe("#step=8");
    // Ticks about every 80 pixels at 1, 2 or 5 x 10^k steps, each labelled with its step's action number.
    const ticks = await page.evaluate(() => window.prolongReplay.ticks());
    expect(ticks.length).toBeGreaterThan(2);
    const every = ticks[1]![0] - ticks[0]![0];
    expect([1, 2, 5, 10, 20, 50]).toContain(every);
    for (const [i, label] of ticks) expect(label).toBe(String(sections[i]!.header.action));
    // One "score" is the log header's levels count, the other the scorecard's: each says which it is.
    const meta = (await page.textContent("#meta")) ?? "";
    expect(meta).toContain("levels completed at the last step");
    expect(meta).not.toMatch(/final score/);
    expect(errors).toEqual([]);
    await page.close();
  });

  test("a terminal game's log: each step's picture drawn as text rows in their colours, by its declared form", async () => {
    // Colour rows count the message line as row 0: board row y is screen row y + 1.
    const board = Array.from({ length: 23 }, (_, y) => (y === 5 ? "        @" : y === 21 ? "abcdefg" : "").padEnd(80));
    const status = "Dlvl:2 | $:0 | HP:12(16) | Pw:2(2) | AC:6 | Xp:1/0 | T:9 | Not Hungry | Unencumbered";
    const first = {
      header: { action: 0, level: 1, attempt: 1, score: 0, kind: "initial" as const },
      status: status.replace("Dlvl:2", "Dlvl:1"),
      message: "Hello Agent, welcome to NetHack!",
      board,
    };
    const second = {
      header: {
        action: 1,
        level: 2,
        attempt: 1,
        score: 154,
        kind: "action" as const,
        vitals: { xl: 1, hp: 12, hpMax: 16, turn: 9 },
      },
      action: "down",
      status,
      message: "You climb down the stairs.",
      events: ["dungeon level changed", "hp lost 4"],
      colours: [" 6 8W", " 22 0b3 5R"],
      board,
    };
    const file = path.join(work, "screens.txt");
    writeFileSync(file, appendNethackSection(first, true) + appendNethackSection(second, false));
    const html = path.join(work, "screens.html");
    writeView(file, html);
    const { page, errors } = await open(html);
    await page.keyboard.press("End");
    expect((await state(page)).step).toBe(1);
    expect(await page.isVisible("#text-rows")).toBe(true);
    expect(await page.isVisible("#board")).toBe(false);
    const rows = [second.message, ...board].map((r) => r.trimEnd()).join("\n");
    expect(await page.textContent("#text-rows")).toBe(rows);
    // Each coloured run is one span in the terminal colour of its palette index, over exactly its cells.
    const spans = await page.evaluate(() =>
      [...(document as unknown as { querySelectorAll(q: string): Iterable<PageSpan> }).querySelectorAll("#text-rows span")].map(
        (e) => [e.dataset.colour, e.textContent, e.style.color],
      ),
    );
    expect(spans).toEqual([
      ["15", "@", "rgb(255, 255, 255)"],
      ["4", "abc", "rgb(68, 102, 221)"],
      ["9", "f", "rgb(255, 102, 102)"],
    ]);
    expect(await page.textContent("#header-line")).toBe(formatHeader(second.header));
    expect(await page.textContent("#status-line")).toBe(
      [`[STATUS] ${status}`, `[MESSAGE] ${second.message}`, "[EVENT] dungeon level changed; hp lost 4"].join("\n"),
    );
    // The Score of a progression game is in hundredths of a percent: the page says so, not "levels".
    expect((await page.textContent("#meta")) ?? "").toContain("progression at the last step 1.54%");
    await page.keyboard.press("Home");
    expect(await page.isVisible("#text-rows")).toBe(true);
    expect(await page.textContent("#text-rows")).toBe([first.message, ...board].map((r) => r.trimEnd()).join("\n"));
    expect(errors).toEqual([]);
    await page.close();
  });

  const fixtures = fixturesDir();
  test.skipIf(fixtures === null)("a published log opens and draws its boards", async () => {
    const file = path.join(fixtures!, "ft09", "logs.txt");
    const sections = parseLog(await Bun.file(file).text()).sections;
    const html = path.join(work, "ft09.html");
    writeView(file, html);
    const { page, errors } = await open(html);
    for (const target of [0, 1, 40]) {
      await page.keyboard.press("Home");
      for (let i = 0; i < target; i++) await page.keyboard.press("ArrowRight");
      expect(await page.textContent("#header-line")).toBe(formatHeader(sections[target]!.header));
      expectBoard(await drawn(page), sections[target]!.board);
      expect(await page.textContent("#plan")).toBe(sections[target]!.plan ?? "(no [PLAN] in this section)");
    }
    expect(errors).toEqual([]);
    await page.close();
  });
});
