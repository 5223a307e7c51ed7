// The build's commit is read from the git directory's files (build-id.ts headCommit) instead of spawning git
// at every run's start: it must name the commit `git rev-parse HEAD` names, in every shape a checkout takes.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { headCommit } from "../src/build-id.ts";

function git(cwd: string, ...args: string[]): string {
  const r = Bun.spawnSync(["git", ...args], {
    cwd,
    env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" },
  });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString().trim();
}

/** A repository of two commits on branch `main`. */
function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), "prolong-git-"));
  git(dir, "init", "-q", "-b", "main");
  for (const n of [1, 2]) {
    writeFileSync(join(dir, "f"), String(n));
    git(dir, "add", "f");
    git(dir, "commit", "-q", "-m", `c${n}`);
  }
  return dir;
}

describe("the build's commit, read from the git directory", () => {
  test("this checkout: the commit git names", () => {
    const root = join(import.meta.dir, "..");
    expect(headCommit(root)).toBe(git(root, "rev-parse", "HEAD"));
  });

  test("a branch as a loose ref, then packed (git pack-refs), then a detached HEAD", () => {
    const dir = repo();
    expect(headCommit(dir)).toBe(git(dir, "rev-parse", "HEAD"));
    git(dir, "pack-refs", "--all", "--prune");
    expect(headCommit(dir)).toBe(git(dir, "rev-parse", "HEAD"));
    git(dir, "checkout", "-q", "--detach", "HEAD~1");
    expect(headCommit(dir)).toBe(git(dir, "rev-parse", "HEAD"));
  });

  test("a linked work tree (its .git a file naming the git directory) on its own branch", () => {
    const dir = repo();
    const linked = join(mkdtempSync(join(tmpdir(), "prolong-git-wt-")), "wt");
    git(dir, "worktree", "add", "-q", "-b", "other", linked, "HEAD~1");
    expect(headCommit(linked)).toBe(git(linked, "rev-parse", "HEAD"));
    expect(headCommit(linked)).not.toBe(headCommit(dir));
  });

  test("what it does not read is null (then git is asked), never a wrong commit", () => {
    const dir = repo();
    writeFileSync(join(dir, ".git", "HEAD"), "ref: refs/heads/../../config\n");
    expect(headCommit(dir)).toBeNull();
    writeFileSync(join(dir, ".git", "HEAD"), "ref: refs/heads/missing\n");
    expect(headCommit(dir)).toBeNull();
    expect(headCommit(mkdtempSync(join(tmpdir(), "prolong-nogit-")))).toBeNull();
  });
});
