// An actions.json holding every control byte (NUL included) must not end the run: what is quoted back into
// the next prompt is escaped, and a prompt never depends on what argv or the environment can carry (a NUL,
// 128 KiB per string). Played through the real CLI with a command agent; the 200 KiB prompt through the
// command backend itself.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { commandAgent } from "../../../src/agent/command.ts";
import { quote } from "../../../src/action-text.ts";
import { tempRoot } from "./helpers.ts";

const MAIN = path.resolve(import.meta.dir, "../../../src/main.ts");
/** Every C0 control, DEL and every C1 control. */
const CONTROLS = [...Array.from({ length: 32 }, (_, i) => i), 0x7f, ...Array.from({ length: 32 }, (_, i) => 0x80 + i)]
  .map((n) => String.fromCharCode(n))
  .join("");

describe("hostile actions.json", () => {
  test("quote() escapes every control character, NUL included", () => {
    const q = quote(`A${CONTROLS}B`, 1000);
    expect(/[\u0000-\u001f\u007f-\u009f]/.test(q)).toBe(false);
    expect(q).toContain("\u2400"); // NUL's control picture
    expect(q).toContain("\u240a"); // newline's: a quote stays on one line
    expect(q).toContain("<U+009F>");
  });

  test("every control byte in actions.json: the run goes on, the next prompt quotes them escaped", () => {
    const root = tempRoot();
    const agent = path.join(root, "agent.py");
    // Turn 1: entries made of every control character, then one good action. Turn 2: keep the prompt it got.
    writeFileSync(
      agent,
      [
        "import json, os, sys",
        "turn = int(os.environ['PROLONG_TURN'])",
        "prompt = sys.stdin.read()",
        `bad = ${JSON.stringify([...CONTROLS].map((c) => `bad${c}`))}`,
        "if turn == 1: actions = bad + ['ACTION1']",
        "else:",
        "    open('prompt-%d.txt' % turn, 'w').write(prompt)",
        "    actions = ['ACTION2']",
        "json.dump({'actions': actions}, open('actions.json', 'w'))",
        "",
      ].join("\n"),
    );
    const runs = path.join(root, "runs");
    mkdirSync(runs);
    const r = Bun.spawnSync(
      [
        process.execPath,
        MAIN,
        "play",
        "glide",
        "--agent",
        "command",
        "--cmd",
        `/usr/bin/python3 ${agent}`,
        "--sandbox",
        "none",
        "--action-cap",
        "100",
        "--max-actions",
        "3",
        "--runs-dir",
        runs,
        "--quiet",
      ],
      { stdout: "pipe", stderr: "pipe" },
    );
    expect(r.stdout.toString()).toContain("glide: max-actions");
    expect(r.exitCode).toBe(0);
    const dir = path.join(runs, require("node:fs").readdirSync(runs)[0], "glide");
    const prompt = readFileSync(path.join(dir, "workspace", "prompt-2.txt"), "utf8");
    expect(prompt).toContain("From your last actions.json: 'dropped 'bad\u2400'");
    expect(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(prompt)).toBe(false);
  });

  test("a 200 KiB prompt reaches a command agent whole, on stdin (no environment variable can carry it)", async () => {
    const ws = path.join(tempRoot(), "t", "glide", "workspace");
    mkdirSync(ws, { recursive: true });
    const prompt = `${"x".repeat(200 * 1024)}\nend`;
    const agent = commandAgent({
      cmd: 'wc -c > got.txt; echo "${PROLONG_PROMPT:-unset}" | head -c 5 >> got.txt',
      timeoutSec: 30,
    });
    const r = await agent.turn({ workspace: ws, prompt, turn: 1, availableActions: [1], actionCap: 1, seed: 0 });
    expect(r.isOk()).toBe(true);
    expect(readFileSync(path.join(ws, "got.txt"), "utf8").trim()).toBe(`${Buffer.byteLength(prompt)}\nunset`);
  });
});
