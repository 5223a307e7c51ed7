// Before the first call of a command agent: do the files its --cmd names exist where the command will run?
// The command runs in the workspace, and under bwrap the agent sees a private empty /tmp and nothing of the
// home directories or the runs directory — except what it is shown: the directory prolong was started in, the
// directories of the scripts its --cmd names, and --bind/--bind-ro DIRs (sandboxBinds). A file it would still
// not find (an interpreter under a home directory, a script inside the runs directory) becomes one error, with
// the fix, before the run starts, instead of "can't open file" on every call.
import { accessSync, constants, existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve, sep } from "node:path";
import { prolongError, type ProlongError } from "../errors.ts";
import type { RunConfig } from "../config/run-config.ts";
import { hiddenDirs, NO_BINDS, runsRootOf, type SandboxBinds } from "./sandbox.ts";

/** A shell command's words, quotes taken off (a rough split: enough to find the paths it names). */
function shellWords(cmd: string): string[] {
  return [...cmd.matchAll(/'([^']*)'|"([^"]*)"|([^\s;&|<>()]+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

/** The words of a shell command that look like paths: absolute, ~/..., ./..., or a name with a script extension. */
export function pathWords(cmd: string): string[] {
  return shellWords(cmd).filter(
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

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function inside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/** A word of --cmd as a path: ~/ expanded. */
function expand(word: string): string {
  return word.startsWith("~/") ? join(homedir(), word.slice(2)) : word;
}

/**
 * --cmd with each relative path that names a file in `cwd` made absolute: the command runs in the workspace,
 * so `./agent.py` typed in a project means the project's agent.py. Other words are left as typed.
 */
export function absoluteCommand(cmd: string, cwd: string): string {
  let out = cmd;
  for (const word of pathWords(cmd)) {
    if (isAbsolute(expand(word)) || !isFile(resolve(cwd, word))) continue;
    const abs = resolve(cwd, word);
    out = out.replace(word, /^[\w@%+=:,./-]+$/.test(abs) ? abs : `'${abs.replaceAll("'", `'\\''`)}'`);
  }
  return out;
}

/** What a run's sandbox shows of this machine besides the workspace: run.json's binds and the --cmd scripts' directories. */
export function sandboxBinds(config: RunConfig): SandboxBinds {
  const scripts = (config.cmd === undefined ? [] : pathWords(config.cmd))
    .map(expand)
    .filter((w) => isAbsolute(w) && isFile(w))
    .map((w) => dirname(w));
  const readOnly = [...(config.bindRo ?? []), ...scripts].filter((d, i, a) => a.indexOf(d) === i);
  return readOnly.length === 0 && (config.bind ?? []).length === 0 ? NO_BINDS : { readOnly, readWrite: config.bind ?? [] };
}

/** Where a path under a home directory is best shown from: the top directory in that home (~/.pyenv, ~/proj). */
function bindHint(path: string): string {
  const home = homedir();
  if (inside(path, home) && path !== home) return join(home, path.slice(home.length + 1).split(sep)[0]!);
  return dirname(path);
}

/**
 * The first file named by `cmd` that the agent will not find, as an error with the fix; null when none.
 * `cwd` is where prolong was started (a relative path that exists there but not in the workspace is the
 * common mistake); `sandbox` is the sandbox the agent runs in, `binds` what it shows besides the workspace.
 */
export function checkCommandPaths(
  cmd: string,
  workspace: string,
  sandbox: "bwrap" | "none",
  cwd = process.cwd(),
  which: (name: string) => string | null = (n) => Bun.which(n),
  binds: SandboxBinds = NO_BINDS,
): ProlongError | null {
  const unstartable = programProblem(cmd, workspace, cwd);
  if (unstartable !== null) return unstartable;
  const runs = runsRootOf(workspace);
  const shown = [...binds.readOnly, ...binds.readWrite].filter((d) => !inside(d, runs));
  const hidden = sandbox === "bwrap" ? hiddenDirs(workspace) : [];
  const coverOf = (path: string) =>
    sandbox === "bwrap" && inside(path, runs)
      ? runs
      : shown.some((d) => inside(path, d))
        ? undefined
        : hidden.find((h) => inside(path, h));
  // The program itself, found on PATH: an interpreter installed under a home directory (pyenv, nvm) is hidden too.
  const program = /^\s*([\w.+-]+)(\s|$)/.exec(cmd)?.[1];
  const found = program === undefined ? null : which(program);
  const programCover = found === null ? undefined : coverOf(found);
  if (found !== null && programCover !== undefined) {
    return prolongError(
      "cmd-hidden",
      `--cmd runs ${program}, found at ${found}, but under the bwrap sandbox the agent cannot see ${programCover}`,
      {
        fix: `show it to the agent with --bind-ro ${bindHint(found)}, give a program the sandbox shows (e.g. /usr/bin/${program} if the system has one), or pass --sandbox none (no confinement)`,
      },
    );
  }
  for (const word of pathWords(cmd)) {
    const expanded = expand(word);
    if (isAbsolute(expanded)) {
      const cover = coverOf(expanded);
      // Only an existing file counts: the agent may well use its own private /tmp for scratch files.
      if (cover !== undefined && !inside(expanded, workspace) && isFile(expanded)) {
        return prolongError(
          "cmd-hidden",
          `--cmd names ${word}, but under the bwrap sandbox the agent cannot see ${cover}${cover === runs ? " (the runs directory: other runs' logs and bookkeeping)" : cover === "/tmp" ? " (it gets a private, empty /tmp)" : " (home directories are hidden)"}`,
          {
            fix:
              cover === runs
                ? "keep the agent's scripts outside the runs directory (e.g. in your project) and give their path"
                : `show it to the agent with --bind-ro ${bindHint(expanded)}, or pass --sandbox none (no confinement)`,
          },
        );
      }
      continue;
    }
    // Relative: the command runs in the workspace, not where prolong was started (play makes such paths
    // absolute; a run.json written by hand may not).
    if (!existsSync(join(workspace, expanded)) && existsSync(resolve(cwd, expanded))) {
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

/**
 * The command's program given as a path (`./agent.sh`, `/opt/agent`) that the shell could not start: missing,
 * a directory, or a file without execute permission. Each would fail every call the same way (127 or 126),
 * four failed agent calls before the run gives up, so it is refused once, before the run, naming the path.
 */
function programProblem(cmd: string, workspace: string, cwd: string): ProlongError | null {
  // The first word after any VAR=value assignments; one the shell would still expand ($HOME/a.sh) is not judged.
  const program = shellWords(cmd).find((w) => !/^\w+=/.test(w));
  if (program === undefined || !program.includes("/") || /[$`*?[\]{}\\]/.test(program)) return null;
  const expanded = expand(program);
  const where = isAbsolute(expanded)
    ? expanded
    : existsSync(join(workspace, expanded))
      ? join(workspace, expanded)
      : resolve(cwd, expanded);
  const problem = !existsSync(where)
    ? "does not exist"
    : isDirectory(where)
      ? "is a directory, not a program"
      : !isExecutable(where)
        ? "is not executable"
        : null;
  if (problem === null) return null;
  return prolongError("cmd-program", `--cmd runs ${program}, but ${where} ${problem}`, {
    path: where,
    fix:
      problem === "is not executable"
        ? `make it executable (chmod +x ${where}) or name its interpreter: --cmd 'python3 ${where}'`
        : "give the path of the agent program (e.g. --cmd 'python3 DIR/agent.py' or --cmd DIR/agent.sh, an executable file)",
  });
}
