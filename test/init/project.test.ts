import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync, appendFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { CLIENT_NAMES } from "../../src/init/layout.ts";
import { initProject, projectStatus, uninstallProject } from "../../src/init/project.ts";

/** Every file under root (except .git) with its bytes, for byte-equal comparisons. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === ".git") continue;
      const abs = path.join(dir, name);
      if (statSync(abs).isDirectory()) walk(abs);
      else out[path.relative(root, abs)] = readFileSync(abs, "utf8");
    }
  };
  walk(root);
  return out;
}

function userProject(): string {
  const root = mkdtempSync(path.join(tmpdir(), "prolong-init-"));
  writeFileSync(path.join(root, "AGENTS.md"), "# Agents\n\nRun the tests before committing.\n");
  writeFileSync(path.join(root, ".gitignore"), "node_modules/\ndist/\n");
  mkdirSync(path.join(root, ".claude"));
  // Compact, user-formatted JSON with a hook of their own: uninstall must give these exact bytes back.
  writeFileSync(
    path.join(root, ".claude/settings.json"),
    '{"permissions":{"allow":["Bash(ls)"]},"hooks":{"PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo mine"}]}]}}\n',
  );
  writeFileSync(path.join(root, "main.py"), "print('hi')\n");
  return root;
}

const all = [...CLIENT_NAMES];
const noForce = { force: false, removeLog: false };

describe("prolong init / status / uninstall", () => {
  test("init installs every piece; status says intact; uninstall gives back the project byte for byte", () => {
    const root = userProject();
    const before = snapshot(root);
    const report = initProject(root, all, false)._unsafeUnwrap();
    expect(report.clients).toEqual(all);
    const after = snapshot(root);
    for (const p of [
      ".prolong/hook.mjs",
      ".prolong/log.jsonl",
      ".prolong/manifest.json",
      ".agents/skills/prolong-memory/SKILL.md",
      ".claude/skills/prolong-memory/SKILL.md",
      "CLAUDE.md",
      ".codex/hooks.json",
      ".opencode/plugins/prolong-memory.js",
      ".pi/extensions/prolong-memory.ts",
    ]) {
      expect(after[p]).toBeDefined();
    }
    expect(after["AGENTS.md"]!.startsWith(before["AGENTS.md"]!)).toBe(true);
    expect(after[".gitignore"]).toContain(".prolong/log.jsonl");
    const settings = JSON.parse(after[".claude/settings.json"]!);
    expect(settings.permissions).toEqual({ allow: ["Bash(ls)"] });
    expect(settings.hooks.PostToolUse[0].hooks[0].command).toBe("echo mine");
    expect(settings.hooks.UserPromptSubmit[0].hooks[0].command).toContain(".prolong/hook.mjs");

    const status = projectStatus(root)._unsafeUnwrap();
    expect(status.initialized).toBe(true);
    expect(status.clients.map((c) => [c.name, c.installed, c.state])).toEqual([
      ["claude", true, "intact"],
      ["codex", true, "intact"],
      ["opencode", true, "intact"],
      ["pi", true, "intact"],
      ["shared", true, "intact"],
    ]);

    const removed = uninstallProject(root, null, noForce)._unsafeUnwrap();
    expect(removed.remaining).toEqual([]);
    expect(removed.keptLog).toBeNull();
    expect(snapshot(root)).toEqual(before);
  });

  test("re-running init changes nothing, byte for byte", () => {
    const root = userProject();
    initProject(root, ["claude", "codex"], false)._unsafeUnwrap();
    const first = snapshot(root);
    const again = initProject(root, ["claude", "codex"], false)._unsafeUnwrap();
    expect(again.written).toEqual([]);
    expect(snapshot(root)).toEqual(first);
  });

  test("the user's edits outside the managed blocks and their own settings survive uninstall", () => {
    const root = userProject();
    initProject(root, ["claude"], false)._unsafeUnwrap();
    appendFileSync(path.join(root, "AGENTS.md"), "\nA rule the user added later.\n");
    appendFileSync(path.join(root, "CLAUDE.md"), "\nThe user's own CLAUDE.md note.\n");
    const settingsPath = path.join(root, ".claude/settings.json");
    const settings = JSON.parse(readFileSync(settingsPath, "utf8"));
    settings.model = "opus";
    writeFileSync(settingsPath, JSON.stringify(settings, null, 2) + "\n");
    appendFileSync(
      path.join(root, ".prolong/log.jsonl"),
      '{"time":"t","client":"claude","session":"s","type":"prompt","content":"x"}\n',
    );

    const removed = uninstallProject(root, null, noForce)._unsafeUnwrap();
    expect(removed.keptLog).toBe(".prolong/log.jsonl");
    const agents = readFileSync(path.join(root, "AGENTS.md"), "utf8");
    expect(agents).toBe("# Agents\n\nRun the tests before committing.\n\nA rule the user added later.\n");
    // CLAUDE.md was created by init, but now holds the user's text: it stays, without the block.
    expect(readFileSync(path.join(root, "CLAUDE.md"), "utf8")).toBe("\nThe user's own CLAUDE.md note.\n");
    const left = JSON.parse(readFileSync(settingsPath, "utf8"));
    expect(left).toEqual({
      permissions: { allow: ["Bash(ls)"] },
      hooks: { PostToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "echo mine" }] }] },
      model: "opus",
    });
    expect(readFileSync(path.join(root, ".prolong/log.jsonl"), "utf8")).toContain('"content":"x"');
    expect(existsSync(path.join(root, ".prolong/hook.mjs"))).toBe(false);
    // While the log stays, its .gitignore entry stays too, recorded in a manifest with no client left.
    expect(readFileSync(path.join(root, ".gitignore"), "utf8")).toContain(".prolong/log.jsonl");
    expect(JSON.parse(readFileSync(path.join(root, ".prolong/manifest.json"), "utf8")).clients).toEqual([]);
    const rest = uninstallProject(root, null, { force: false, removeLog: true })._unsafeUnwrap();
    expect(rest.keptLog).toBeNull();
    expect(existsSync(path.join(root, ".prolong"))).toBe(false);
  });

  test("status tells modified and missing pieces apart, per client", () => {
    const root = userProject();
    initProject(root, ["claude", "codex", "pi"], false)._unsafeUnwrap();
    const codexHooks = path.join(root, ".codex/hooks.json");
    writeFileSync(codexHooks, readFileSync(codexHooks, "utf8").replace('"timeout": 10', '"timeout": 99'));
    writeFileSync(path.join(root, ".pi/extensions/prolong-memory.ts"), "// gone\n");
    const claudeMd = path.join(root, "CLAUDE.md");
    writeFileSync(claudeMd, "the user replaced everything\n");
    const byName = Object.fromEntries(
      projectStatus(root)
        ._unsafeUnwrap()
        .clients.map((c) => [c.name, c]),
    );
    expect(byName["claude"]!.state).toBe("missing");
    expect(byName["claude"]!.pieces.find((p) => p.path === "CLAUDE.md")!.state).toBe("missing");
    expect(byName["codex"]!.state).toBe("modified");
    expect(byName["pi"]!.state).toBe("modified");
    expect(byName["opencode"]!.installed).toBe(false);
    expect(byName["shared"]!.state).toBe("intact");

    // Re-running init repairs all of it except the edited owned file, which needs --force.
    const refused = initProject(root, null, false);
    expect(refused._unsafeUnwrapErr().code).toBe("not-ours");
    expect(refused._unsafeUnwrapErr().path).toBe(path.join(root, ".pi/extensions/prolong-memory.ts"));
    initProject(root, null, true)._unsafeUnwrap();
    expect(
      projectStatus(root)
        ._unsafeUnwrap()
        .clients.every((c) => !c.installed || c.state === "intact"),
    ).toBe(true);
  });

  test("uninstall of one client keeps the others and the shared pieces; an edited owned file is kept", () => {
    const root = userProject();
    initProject(root, ["codex", "opencode"], false)._unsafeUnwrap();
    const plugin = path.join(root, ".opencode/plugins/prolong-memory.js");
    appendFileSync(plugin, "// user tweak\n");
    const r = uninstallProject(root, ["opencode"], noForce)._unsafeUnwrap();
    expect(r.remaining).toEqual(["codex"]);
    expect(r.outcomes).toEqual([{ path: ".opencode/plugins/prolong-memory.js", action: "kept" }]);
    expect(existsSync(plugin)).toBe(true);
    const status = projectStatus(root)._unsafeUnwrap();
    expect(status.clients.find((c) => c.name === "codex")!.state).toBe("intact");
    expect(status.clients.find((c) => c.name === "opencode")!.installed).toBe(false);
    expect(existsSync(path.join(root, ".prolong/hook.mjs"))).toBe(true);
  });

  test("a malformed settings file is left untouched, nothing is installed, and the error names it and the fix", () => {
    const root = userProject();
    const settingsPath = path.join(root, ".claude/settings.json");
    writeFileSync(settingsPath, '{"permissions": {"allow": ["Bash(ls)"],}\n');
    const before = snapshot(root);
    const result = initProject(root, ["claude", "codex"], false);
    const e = result._unsafeUnwrapErr();
    expect(e.code).toBe("malformed-settings");
    expect(e.path).toBe(settingsPath);
    expect(e.fix).toContain("settings.json");
    expect(snapshot(root)).toEqual(before);
  });

  test("uninstall stops before touching anything when a settings file has become malformed", () => {
    const root = userProject();
    initProject(root, ["claude", "codex"], false)._unsafeUnwrap();
    const codexHooks = path.join(root, ".codex/hooks.json");
    writeFileSync(codexHooks, "{ broken");
    const before = snapshot(root);
    const e = uninstallProject(root, null, noForce)._unsafeUnwrapErr();
    expect(e.code).toBe("malformed-settings");
    expect(e.path).toBe(codexHooks);
    expect(snapshot(root)).toEqual(before);
  });

  test("status and uninstall in a project without init", () => {
    const root = mkdtempSync(path.join(tmpdir(), "prolong-init-"));
    const status = projectStatus(root)._unsafeUnwrap();
    expect(status.initialized).toBe(false);
    expect(status.clients.every((c) => !c.installed)).toBe(true);
    expect(uninstallProject(root, null, noForce)._unsafeUnwrapErr().code).toBe("not-initialized");
  });
});
