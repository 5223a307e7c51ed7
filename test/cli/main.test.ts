// The dispatcher: a lazily loaded command table that agrees with the modules, start-up that loads no
// command module, and a closed output pipe that ends the process quietly with status 0.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { generateLog } from "../../src/bench/gen-log.ts";
import { commands } from "../../src/cli/commands.ts";
import { logFile } from "../inspect/helpers.ts";

const SRC = path.resolve(import.meta.dir, "../../src");
const MAIN = path.join(SRC, "main.ts");

/** The specifiers a file imports at load time (`import type` and dynamic import() are not load-time imports). */
function staticImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/^import\s+(?!type\s)[^;]*?from\s+"([^"]+)"/gm)].map((m) => m[1] as string);
}

describe("command table", () => {
  test("each entry, and each subcommand's, loads a module with the same name and summary", async () => {
    const loaded = await Promise.all(commands.map((e) => e.load()));
    const subs = loaded.flatMap((c) => c.subcommands ?? []);
    expect(subs.map((s) => s.name)).toEqual(["stats", "sections", "show", "diff", "grep"]);
    for (const entry of [...commands, ...subs]) {
      const command = await entry.load();
      expect(command.name).toBe(entry.name);
      expect(command.summary).toBe(entry.summary);
    }
  });

  test("--version and --help load no command module: main.ts and the table import none at load time", () => {
    expect(
      staticImports(MAIN)
        .filter((m) => !m.startsWith("node:"))
        .sort(),
    ).toEqual(["./cli/commands.ts", "./cli/stdout.ts", "./version.ts"]);
    expect(staticImports(path.join(SRC, "cli/commands.ts"))).toEqual([]);
    expect(staticImports(path.join(SRC, "cli/stdout.ts"))).toEqual([]);
    expect(staticImports(path.join(SRC, "version.ts"))).toEqual(["../package.json"]);
  });

  test("a log subcommand loads only its own module: log.ts imports none of them at load time", () => {
    expect(staticImports(path.join(SRC, "cli/log.ts"))).toEqual(["../suggest.ts", "./argument-problem.ts"]);
    // The argument-error printer stays a leaf: the flag parser (valibot, neverthrow) is not loaded for it.
    expect(staticImports(path.join(SRC, "cli/argument-problem.ts"))).toEqual(["../terminal-text.ts"]);
  });
});

describe("a closed output pipe", () => {
  // 40 sections of 64x64 boards: ~200 KB of show and grep output, more than a pipe buffer holds, so writes hit
  // EPIPE; 1,500 sections give ~150 KB of `log sections` rows.
  const small = logFile(generateLog({ sections: 40, seed: 3 }));
  const many = logFile(generateLog({ sections: 1500, seed: 4, frames: false }));
  const cases: Record<string, string[]> = {
    "log show": ["log", "show", small, "0..", "--color", "never"],
    "log grep": ["log", "grep", small, "-F", "("],
    "log sections": ["log", "sections", many],
  };
  for (const [name, argv] of Object.entries(cases)) {
    test(`${name} | head -c 10: prolong exits 0 with nothing on stderr, as grep does`, () => {
      // pipefail: the pipeline's status is prolong's when it fails (head itself exits 0).
      const p = Bun.spawnSync(
        ["bash", "-c", 'set -o pipefail; "$@" | head -c 10 >/dev/null', "_", process.execPath, MAIN, ...argv],
        {
          stdout: "pipe",
          stderr: "pipe",
        },
      );
      expect(p.stderr.toString()).toBe("");
      expect(p.exitCode).toBe(0);
    });
  }
});
