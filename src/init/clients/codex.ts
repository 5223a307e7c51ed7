// Codex: hooks in .codex/hooks.json (same event/matcher/handler shape as Claude Code's; Codex loads project
// hooks only for a trusted project and asks the user to review new hooks once, with /hooks). Codex reads
// AGENTS.md and .agents/skills, which the shared pieces install. Codex gives hooks no project-dir variable,
// so the command finds the project from git (or the cwd outside a repository).
import { clientOf } from "../client.ts";
import type { HookGroup } from "../json-settings.ts";
import { RUNTIME_PATH } from "../layout.ts";

export const CODEX_HOOKS_PATH = ".codex/hooks.json";

const run: HookGroup["hooks"] = [
  { type: "command", command: `node "$(git rev-parse --show-toplevel 2>/dev/null || pwd)/${RUNTIME_PATH}" codex`, timeout: 10 },
];

export const codex = clientOf("codex", "codex", ".codex", [
  {
    kind: "hooks",
    path: CODEX_HOOKS_PATH,
    owner: "codex",
    groups: {
      SessionStart: { hooks: run },
      UserPromptSubmit: { hooks: run },
      PostToolUse: { hooks: run },
      Stop: { hooks: run },
    },
  },
]);
