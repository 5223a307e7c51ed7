// The mini agent's and the ablation arms' flags at the command line: documented in --help, and every setting
// that cannot work stops `prolong play` before a run directory exists (exit 2, the setting and the fix named).
// The cases run the play command in this process; one of them also as the real process, for its exit status.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { playCommand } from "../../../src/cli/play.ts";
import { runCaptured } from "../../support/captured.ts";
import { tempRoot } from "../backends/helpers.ts";

const MAIN = path.resolve(import.meta.dir, "../../../src/main.ts");
const KEY = "OPENAI_API_KEY";

/** `prolong play glide ARGS` in this process, with OPENAI_API_KEY as `env` says (unset unless given). */
async function play(args: string[], env: Record<string, string> = {}) {
  const root = tempRoot();
  const before = process.env[KEY];
  delete process.env[KEY];
  if (env[KEY] !== undefined) process.env[KEY] = env[KEY];
  try {
    const r = await runCaptured(playCommand, ["glide", "--runs-dir", root, ...args]);
    return { code: r.code, stderr: r.errText, created: existsSync(root) && readdirSync(root).length > 0 };
  } finally {
    if (before === undefined) delete process.env[KEY];
    else process.env[KEY] = before;
  }
}

describe("prolong play: the mini agent's and the arms' flags", () => {
  test("--help lists them", () => {
    const r = Bun.spawnSync([process.execPath, MAIN, "play", "--help"]);
    const text = r.stdout.toString() + r.stderr.toString();
    for (const flag of [
      "--base-url",
      "--api-key-env",
      "--tool-format",
      "--step-limit",
      "--tools",
      "--no-write",
      "--context-limit",
    ])
      expect(text).toContain(flag);
  });

  test("bad settings exit 2 before any run directory exists, naming the setting and the fix", async () => {
    const cases: [string[], Record<string, string>, string][] = [
      [["--agent", "mini", "--model", "m"], {}, "$OPENAI_API_KEY (--api-key-env), which is not set"],
      [["--agent", "mini"], { OPENAI_API_KEY: "x" }, "--agent mini needs --model"],
      [["--agent", "mini", "--model", "m", "--base-url", "localhost:8080"], { OPENAI_API_KEY: "x" }, "--base-url must"],
      [
        ["--agent", "mini", "--model", "m", "--tools", "grep"],
        { OPENAI_API_KEY: "x" },
        "--tools must be one of read | read,grep | read,grep,python | all",
      ],
      [["--agent", "mini", "--model", "m", "--tool-format", "xml"], { OPENAI_API_KEY: "x" }, "--tool-format"],
      [
        ["--agent", "mini", "--model", "m", "--no-write", "--sandbox", "none"],
        { OPENAI_API_KEY: "x" },
        "--tools all --no-write needs bubblewrap",
      ],
      [
        ["--agent", "mini", "--model", "m", "--tools", "read", "--sandbox", "none"],
        { OPENAI_API_KEY: "x" },
        "--tools read needs bubblewrap",
      ],
      [["--agent", "codex", "--tools", "read"], {}, "cannot be enforced for Codex"],
      [["--agent", "claude", "--context-limit", "64000"], {}, "below Claude Code's smallest auto-compact window"],
      [["--base-url", "http://127.0.0.1:8080/v1"], {}, "--base-url does not apply to --agent explorer"],
      [["--tools", "read"], {}, "--tools does not apply to --agent explorer"],
    ];
    for (const [args, env, says] of cases) {
      const r = await play(args, env);
      expect([args.join(" "), r.code, r.stderr.includes(says), r.created]).toEqual([args.join(" "), 2, true, false]);
    }
    // The real process exits 2 with the message on stderr, and leaves its runs directory empty.
    const root = tempRoot();
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== KEY));
    const r = Bun.spawnSync([process.execPath, MAIN, "play", "glide", "--runs-dir", root, ...cases[0]![0]], { env: clean });
    expect([r.exitCode, r.stderr.toString().includes(cases[0]![2]), readdirSync(root)]).toEqual([2, true, []]);
  }, 120_000);
});
