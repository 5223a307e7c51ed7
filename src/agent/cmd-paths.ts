// Before the first call of a command agent: do the files its --cmd names exist where the command will run?
// The command runs in the workspace, and under bwrap the agent sees a private empty /tmp and nothing of the
// home directories or the runs directory — so `python3 /tmp/x/agent.py` would fail on every call with "can't
// open file" and nothing saying why. This turns that into one error, with the fix, before the run starts.
import { existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve, sep } from "node:path";
import { prolongError, type ProlongError } from "../errors.ts";
import { hiddenDirs } from "./sandbox.ts";

/** The words of a shell command that look like paths: absolute, ~/..., ./..., or a name with a script extension. */
export function pathWords(cmd: string): string[] {
  const words = [...cmd.matchAll(/'([^']*)'|"([^"]*)"|([^\s;&|<>()]+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
  return words.filter(
    (w) =>
      !w.startsWith("-") &&
      !w.includes("=") &&
      (w.startsWith("/") ||
        w.startsWith("~/") ||
        w.startsWith("./") ||
        w.startsWith("../") ||
        /^[\w./-]+\.(py|sh|js|mjs|cjs|ts|rb|pl|jl|R)$/.test(w)),
  );
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function inside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/**
 * The first file named by `cmd` that the agent will not find, as an error with the fix; null when none.
 * `cwd` is where prolong was started (a relative path that exists there but not in the workspace is the
 * common mistake); `sandbox` is the sandbox the agent runs in.
 */
export function checkCommandPaths(
  cmd: string,
  workspace: string,
  sandbox: "bwrap" | "none",
  cwd = process.cwd(),
  which: (name: string) => string | null = (n) => Bun.which(n),
): ProlongError | null {
  const hidden = sandbox === "bwrap" ? hiddenDirs(workspace) : [];
  // The program itself, found on PATH: an interpreter installed under a home directory (pyenv, nvm) is hidden too.
  const program = /^\s*([\w.+-]+)(\s|$)/.exec(cmd)?.[1];
  const found = program === undefined ? null : which(program);
  const programCover = found === null ? undefined : hidden.find((h) => inside(found, h));
  if (found !== null && programCover !== undefined) {
    return prolongError(
      "cmd-hidden",
      `--cmd runs ${program}, found at ${found}, but under the bwrap sandbox the agent cannot see ${programCover}`,
      {
        fix: `give a program the sandbox shows (e.g. /usr/bin/${program} if the system has one), or pass --sandbox none (no confinement)`,
      },
    );
  }
  for (const word of pathWords(cmd)) {
    const expanded = word.startsWith("~/") ? join(homedir(), word.slice(2)) : word;
    if (isAbsolute(expanded)) {
      const cover = hidden.find((h) => inside(expanded, h) && !inside(expanded, workspace));
      // Only an existing file counts: the agent may well use its own private /tmp for scratch files.
      if (cover !== undefined && isFile(expanded)) {
        return prolongError(
          "cmd-hidden",
          `--cmd names ${word}, but under the bwrap sandbox the agent cannot see ${cover}${cover === "/tmp" ? " (it gets a private, empty /tmp)" : " (home directories and the runs directory are hidden)"}`,
          {
            fix: `move the script to a directory the sandbox shows (e.g. under /opt or your project, outside ${cover}), or pass --sandbox none (no confinement)`,
          },
        );
      }
      continue;
    }
    // Relative: the command runs in the workspace, not where prolong was started.
    if (!existsSync(join(workspace, expanded)) && existsSync(resolve(cwd, expanded))) {
      const cover = hidden.find((h) => inside(resolve(cwd, expanded), h));
      if (cover !== undefined) {
        return prolongError(
          "cmd-relative",
          `--cmd names ${word}, which exists here (${resolve(cwd, expanded)}) but the command runs inside the run's workspace, and under the bwrap sandbox ${cover} is hidden`,
          {
            fix: `move the script outside ${cover} and give its absolute path, or pass --sandbox none (no confinement)`,
          },
        );
      }
      return prolongError(
        "cmd-relative",
        `--cmd names ${word}, which exists here but the command runs inside the run's workspace, where it does not`,
        {
          fix: `give its absolute path: --cmd '${cmd.replace(word, resolve(cwd, expanded))}'`,
        },
      );
    }
  }
  return null;
}
