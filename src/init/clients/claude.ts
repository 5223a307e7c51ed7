// Claude Code: hooks in .claude/settings.json (project settings; format from Claude Code's hooks reference:
// {"hooks": {"<Event>": [{"matcher": "...", "hooks": [{"type": "command", "command": "...", "timeout": s}]}]}}),
// the skill in .claude/skills, and the pointer in CLAUDE.md. Claude Code sets CLAUDE_PROJECT_DIR for hook
// commands, so the runtime is found wherever the session's cwd is.
import { clientOf } from "../client.ts";
import type { HookGroup } from "../json-settings.ts";
import { CLAUDE_MD_PATH, CLAUDE_SKILL_PATH, RUNTIME_PATH } from "../layout.ts";
import { INSTRUCTIONS_TEXT, SKILL_TEXT } from "../texts.ts";

export const CLAUDE_SETTINGS_PATH = ".claude/settings.json";

const run: HookGroup["hooks"] = [{ type: "command", command: `node "$CLAUDE_PROJECT_DIR/${RUNTIME_PATH}" claude`, timeout: 10 }];

export const claude = clientOf("claude", "claude", ".claude", [
  {
    kind: "hooks",
    path: CLAUDE_SETTINGS_PATH,
    owner: "claude",
    groups: {
      SessionStart: { hooks: run },
      UserPromptSubmit: { hooks: run },
      PostToolUse: { matcher: "*", hooks: run },
      Stop: { hooks: run },
      SessionEnd: { hooks: run },
    },
  },
  { kind: "file", path: CLAUDE_SKILL_PATH, owner: "claude", text: SKILL_TEXT },
  { kind: "block", path: CLAUDE_MD_PATH, owner: "claude", body: INSTRUCTIONS_TEXT },
]);
