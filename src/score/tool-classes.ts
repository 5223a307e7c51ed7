// What a tool call was for, in the study's terms: reading the log, searching it, analysing it with code,
// managing the workspace, writing the action file, observing the board (the MCP arm), or other. The rules are
// data (TOOL_CLASS_RULES): tried in order, the first that matches decides; each names the tool kinds it
// applies to and, for shell commands and file tools, a pattern on the command or the file. docs/trajectory.md
// lists them; test/score/tool-classes.test.ts pins each on commands the real CLIs ran here.
import type { ToolCall, ToolKind } from "../run-files/trajectory.ts";

export const TOOL_CLASSES = ["read-log", "search-log", "code", "workspace", "action-file", "observe", "other"] as const;
export type ToolClass = (typeof TOOL_CLASSES)[number];

/** What each class means, for tables and --help. */
export const TOOL_CLASS_LABELS: Readonly<Record<ToolClass, string>> = {
  "read-log": "read the log",
  "search-log": "search the log",
  code: "analyse with code",
  workspace: "workspace management",
  "action-file": "write the action file",
  observe: "observe (MCP)",
  other: "other",
};

export interface ToolClassRule {
  readonly id: string;
  readonly class: ToolClass;
  /** The tool kinds the rule applies to. */
  readonly kinds: readonly ToolKind[];
  /** A regular expression the command (shell) or the file name (file tools) must match; absent: any. */
  readonly pattern?: string;
  /** Why the rule exists, for the documentation. */
  readonly why: string;
}

/** A command word: at the start, or after a separator, a pipe, a subshell or `xargs`/`env`/`time`. */
const CMD = String.raw`(?:^|[;&|(\n]\s*|\b(?:xargs|env|time|sudo|nice)\s+)`;
const LOG = String.raw`logs\.txt\b`;

export const TOOL_CLASS_RULES: readonly ToolClassRule[] = [
  { id: "observe-tool", class: "observe", kinds: ["observe"], why: "the MCP arm's read-only observe tool" },
  {
    id: "write-actions-file",
    class: "action-file",
    kinds: ["write"],
    pattern: String.raw`(?:^|/)actions\.json$`,
    why: "a file tool writing actions.json: the turn's answer",
  },
  {
    id: "shell-writes-actions",
    class: "action-file",
    kinds: ["shell"],
    pattern: String.raw`(?:>>?|\btee\b[^|;&\n]*?)\s*['"]?[\w./-]*actions\.json|open\(\s*['"][\w./-]*actions\.json['"]\s*,\s*['"][wax]|\b(?:cp|mv)\b[^|;&\n]*\s['"]?[\w./-]*actions\.json['"]?\s*(?:$|[;&|\n])|write_text\(`,
    why: "a command that writes actions.json (a redirection, tee, a script's open(..., 'w'), cp/mv onto it)",
  },
  {
    id: "shell-runs-code",
    class: "code",
    kinds: ["shell"],
    pattern: String.raw`${CMD}(?:python[\d.]*|node|bun|deno|perl|ruby|awk|gawk|mawk|jq)\b|${CMD}(?:\./|bash\s+|sh\s+)[\w./-]+\.(?:py|sh|js|ts|pl|rb)\b|${CMD}\./[\w.-]+`,
    why: "an interpreter (python, node, awk, jq, ...) or a script of the agent's own: analysis with code",
  },
  {
    id: "shell-searches",
    class: "search-log",
    kinds: ["shell"],
    pattern: String.raw`${CMD}(?:grep|egrep|fgrep|zgrep|rg|ag|ack)\b`,
    why: "grep and its kin: the workspace's only searchable bulk is the log",
  },
  { id: "search-tool", class: "search-log", kinds: ["search"], why: "a search tool (Claude Code's Grep)" },
  {
    id: "shell-reads-log",
    class: "read-log",
    kinds: ["shell"],
    pattern: String.raw`${CMD}(?:cat|head|tail|sed|less|more|wc|cut|nl|tac|od|xxd|hexdump|strings|sort|uniq)\b[^;&|\n]*${LOG}|${LOG}[^;&\n]*\|\s*(?:head|tail|sed|less|more|wc|cut|nl|sort|uniq)\b|<\s*${LOG}`,
    why: "a file viewer or text filter over logs.txt",
  },
  {
    id: "read-tool-log",
    class: "read-log",
    kinds: ["read"],
    pattern: String.raw`(?:^|/)logs\.txt$`,
    why: "a file tool reading logs.txt",
  },
  {
    id: "file-tools",
    class: "workspace",
    kinds: ["read", "write", "list"],
    why: "reading, writing or listing the agent's own files (notes, helpers, saved boards, the instructions)",
  },
  {
    id: "shell-files",
    class: "workspace",
    kinds: ["shell"],
    pattern: String.raw`${CMD}(?:ls|cat|mkdir|cp|mv|rm|touch|echo|printf|tee|find|pwd|cd|diff|stat|chmod|head|tail|sed|wc|file|tree)\b`,
    why: "shell file management (listing, copying, writing notes) and viewing files other than the log",
  },
];

const COMPILED = TOOL_CLASS_RULES.map((r) => ({ rule: r, re: r.pattern === undefined ? null : new RegExp(r.pattern, "m") }));

/** The class of one call and the rule that decided it ("fallback" when none matched). */
export function classifyCall(call: Pick<ToolCall, "act" | "input" | "path">): { class: ToolClass; rule: string } {
  const subject = call.act === "shell" ? call.input.text : (call.path ?? call.input.text);
  for (const { rule, re } of COMPILED) {
    if (!rule.kinds.includes(call.act)) continue;
    if (re === null || re.test(subject)) return { class: rule.class, rule: rule.id };
  }
  return { class: "other", rule: "fallback" };
}

/** Classes whose output is the log itself pulled into the agent's context. */
export const LOG_CLASSES: ReadonlySet<ToolClass> = new Set(["read-log", "search-log", "code"]);
