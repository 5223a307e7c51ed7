import { describe, expect, test } from "bun:test";
import {
  expectedHooksText,
  parseSettings,
  prolongHooksText,
  withoutProlongHooks,
  withProlongHooks,
  type HookGroups,
} from "../../src/init/json-settings.ts";

const ours: HookGroups = {
  UserPromptSubmit: { hooks: [{ type: "command", command: 'node "$CLAUDE_PROJECT_DIR/.prolong/hook.mjs" claude' }] },
  PostToolUse: { matcher: "*", hooks: [{ type: "command", command: 'node "$CLAUDE_PROJECT_DIR/.prolong/hook.mjs" claude' }] },
};
const userGroup = { matcher: "Bash", hooks: [{ type: "command", command: "echo user" }] };

describe("JSON settings merge", () => {
  test("adds prolong's groups after the user's, keeps other keys in place, and removes only its own", () => {
    const user = { model: "x", hooks: { PostToolUse: [userGroup] }, env: { A: "1" } };
    const merged = withProlongHooks(user, ours);
    expect(Object.keys(merged)).toEqual(["model", "hooks", "env"]);
    expect((merged["hooks"] as Record<string, unknown[]>)["PostToolUse"]).toEqual([userGroup, ours["PostToolUse"]]);
    expect(withProlongHooks(merged, ours)).toEqual(merged);
    expect(withoutProlongHooks(merged)).toEqual(user);
  });

  test("the canonical text of the installed groups does not depend on event order", () => {
    const merged = withProlongHooks({ hooks: { Stop: [userGroup] } }, ours);
    expect(prolongHooksText(merged)).toBe(expectedHooksText(ours));
    expect(prolongHooksText(withoutProlongHooks(merged))).toBeNull();
  });

  test("malformed files are errors naming the file and the fix", () => {
    const bad = parseSettings("{ not json", "/p/.claude/settings.json");
    expect(bad.isErr()).toBe(true);
    const e = bad._unsafeUnwrapErr();
    expect(e.code).toBe("malformed-settings");
    expect(e.path).toBe("/p/.claude/settings.json");
    expect(e.fix).toContain("settings.json");
    expect(parseSettings("[1]", "/p/x.json")._unsafeUnwrapErr().message).toContain("not a JSON object");
    expect(parseSettings('{"hooks": {"Stop": {}}}', "/p/x.json")._unsafeUnwrapErr().message).toContain("hooks.Stop");
    expect(parseSettings(null, "/p/x.json")._unsafeUnwrap()).toEqual({});
  });
});
