// Nothing raw reaches a terminal: an agent that writes control sequences into its plan (stdout) and its
// stderr — a window title (OSC 0), a clipboard write (OSC 52), the C1 CSI, a carriage return that overwrites
// the line — and a run directory named like a link scheme. Every place prolong prints or links what came from
// outside is checked through the real CLI: log show (text and --json), the play summary and summary.txt,
// score (table, --csv, --json), an error naming a path, report.html's links. JSON keeps the exact string.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { csvText, jsonText, terminalLine, terminalText } from "../src/terminal-text.ts";

// Each case starts prolong once or three times: bounded by the spawn timeout, not by the default 5 s.
setDefaultTimeout(120_000);

const MAIN = path.resolve(import.meta.dir, "../src/main.ts");
const root = mkdtempSync(path.join(tmpdir(), "prolong-terminal-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function prolong(...args: string[]) {
  const p = Bun.spawnSync([process.execPath, MAIN, ...args], { stdout: "pipe", stderr: "pipe", timeout: 60_000 });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

/** Any control a terminal obeys: C0 but tab and newline, DEL, C1. */
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
/** What the agent writes: a title, a clipboard write, the C1 CSI, a line overwrite. */
const HOSTILE = String.raw`\033]0;owned\007 \033]52;c;ZXZpbA==\007 \302\233 x\ry`;
const HOSTILE_TEXT = "\u001b]0;owned\u0007 \u001b]52;c;ZXZpbA==\u0007 \u009b x\ry";

let planned = ""; // a finished run whose plans hold the sequences
let failed = ""; // a run whose agent failed with them on stderr
let failedPlay = { code: 0 as number | null, out: "", err: "" };

function runDir(runs: string): string {
  const stamp = readdirSync(runs)[0] as string;
  return path.join(runs, stamp, "glide");
}

beforeAll(() => {
  const runsA = path.join(root, "a");
  const a = prolong(
    "play",
    "glide",
    "--agent",
    "command",
    "--sandbox",
    "none",
    "--cmd",
    `printf '{"actions":["ACTION1"]}' > actions.json; printf '${HOSTILE}'`,
    "--max-actions",
    "2",
    "--runs-dir",
    runsA,
  );
  expect(a.code).toBe(0);
  planned = runDir(runsA);
  const runsB = path.join(root, "b");
  failedPlay = prolong(
    "play",
    "glide",
    "--agent",
    "command",
    "--sandbox",
    "none",
    "--cmd",
    `printf '${HOSTILE}' >&2; exit 3`,
    "--agent-retries",
    "0",
    "--runs-dir",
    runsB,
  );
  failed = runDir(runsB);
}, 120_000);

describe("the one escaping function", () => {
  test("C0 (but tab and newline), DEL, C1 and bidi overrides become visible; other text is left alone", () => {
    expect(terminalText("a\u001b[31mb\u0007c\rd\te\nf\u007fg\u009bh\u202ei — ü ✓")).toBe(
      "a\u241b[31mb\u2407c\u240dd\te\nf\u2421g<U+009B>h<U+202E>i — ü ✓",
    );
    expect(terminalLine("a\tb\nc")).toBe("a\u2409b\u240ac");
    expect(csvText("x\u001by")).toBe("x\u241by");
    expect(RAW.test(jsonText({ s: HOSTILE_TEXT }))).toBe(false);
    expect(JSON.parse(jsonText({ s: HOSTILE_TEXT })).s).toBe(HOSTILE_TEXT);
  });
});

describe("every printer of outside text", () => {
  test("log show: the plan's sequences stay pictures (never turned back into ESC, BEL, CR); C1 made visible", () => {
    const r = prolong("log", "show", path.join(planned, "logs.txt"), "1");
    expect(r.code).toBe(0);
    expect(r.out).toContain("[PLAN]");
    expect(r.out).toContain("\u241b]0;owned\u2407");
    expect(RAW.test(r.out)).toBe(false);
  });

  test("log show --json: no raw control, and the plan reads back as the agent wrote it", () => {
    const r = prolong("log", "show", path.join(planned, "logs.txt"), "1", "--json");
    expect(r.code).toBe(0);
    expect(RAW.test(r.out)).toBe(false);
    const [shown] = JSON.parse(r.out) as { plan: string }[];
    expect(shown?.plan).toBe(HOSTILE_TEXT);
  });

  test("the play summary and summary.txt quote the agent's stderr without a raw control", () => {
    expect(failedPlay.out + failedPlay.err).toContain("owned");
    expect(RAW.test(failedPlay.out)).toBe(false);
    expect(RAW.test(failedPlay.err)).toBe(false);
    const summary = readFileSync(path.join(failed, "summary.txt"), "utf8");
    expect(summary).toContain("owned");
    expect(RAW.test(summary)).toBe(false);
  });

  test("score: the table and --csv hold no raw control; --json keeps the end detail exact", () => {
    const table = prolong("score", failed);
    expect(table.code).toBe(0);
    expect(RAW.test(table.out + table.err)).toBe(false);
    const csv = prolong("score", failed, "--csv");
    expect(csv.code).toBe(0);
    expect(csv.out).toContain("owned");
    expect(RAW.test(csv.out.replaceAll("\r\n", "\n"))).toBe(false);
    const json = prolong("score", failed, "--json");
    expect(json.code).toBe(0);
    expect(RAW.test(json.out)).toBe(false);
    const runs = (JSON.parse(json.out) as { runs: { endDetail: string }[] }).runs;
    expect(runs[0]?.endDetail).toContain(HOSTILE_TEXT);
  });

  test("an error naming a path with control characters prints it visibly", () => {
    const r = prolong("log", "stats", path.join(root, "missing\u001b]0;owned\u0007.txt"));
    expect(r.code).toBe(2);
    expect(r.err).toContain("\u241b]0;owned\u2407");
    expect(RAW.test(r.err)).toBe(false);
  });
});

describe("links in HTML pages", () => {
  test("a run directory named javascript:… is linked as a relative path (./), never as a scheme", () => {
    const parent = path.join(root, "links");
    mkdirSync(parent);
    const hostile = path.join(parent, "javascript:alert(document.domain)");
    renameSync(path.dirname(planned), path.join(root, "moved"));
    renameSync(path.join(root, "moved"), hostile);
    const out = path.join(parent, "report.html");
    const r = prolong("report", parent, "--views", "-o", out);
    expect(r.code).toBe(0);
    const html = readFileSync(out, "utf8");
    const hrefs = [...html.matchAll(/href="([^"#][^"]*)"/g)].map((m) => m[1] as string);
    expect(hrefs.length).toBeGreaterThan(0);
    for (const h of hrefs) expect(h).toMatch(/^\.\.?\//);
    expect(html).not.toContain('href="javascript:');
  }, 60_000);
});
