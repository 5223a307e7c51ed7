// Where `prolong init` puts things in a project. One definition of every installed path, relative to the
// project root, so installers, status and uninstall can never disagree about a location.

/** The programmatic memory: one JSON object per line, appended by the hooks, read by the agent with code. */
export const LOG_PATH = ".prolong/log.jsonl";
/** The dependency-free Node module the hooks and plugins call to append to the log. */
export const RUNTIME_PATH = ".prolong/hook.mjs";
/** What init installed, with a checksum of each piece, so status and uninstall know what is ours. */
export const MANIFEST_PATH = ".prolong/manifest.json";

/** The skill, in the two places the clients look: `.agents/skills` (Codex, opencode, pi) and `.claude/skills`. */
export const SKILL_NAME = "prolong-memory";
export const AGENTS_SKILL_PATH = `.agents/skills/${SKILL_NAME}/SKILL.md`;
export const CLAUDE_SKILL_PATH = `.claude/skills/${SKILL_NAME}/SKILL.md`;

export const AGENTS_MD_PATH = "AGENTS.md";
export const CLAUDE_MD_PATH = "CLAUDE.md";
export const GITIGNORE_PATH = ".gitignore";

/** The names of the clients prolong can install into, in the order status lists them. */
export const CLIENT_NAMES = ["claude", "codex", "opencode", "pi"] as const;
export type ClientName = (typeof CLIENT_NAMES)[number];

export function isClientName(s: string): s is ClientName {
  return (CLIENT_NAMES as readonly string[]).includes(s);
}
