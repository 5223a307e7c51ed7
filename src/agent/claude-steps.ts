// Claude Code's stream-json, line by line, as trajectory steps: each assistant message is a model step (its
// tokens, its text), each tool_use a tool call completed by the tool_result that answers it (output size,
// error flag, exit status when Bash says one, time between the two lines). A message arrives as several
// lines with the same id, one per content block; they make one step. Not here: the final result object and
// the session (claude.ts).
import { asRecord } from "./cli-process.ts";
import { cutText, OUTPUT_CHARS, toolStep, type StepReport, type ToolKind } from "../run-files/trajectory.ts";

/** What each Claude Code tool does, for the classification rules; an MCP tool is mcp__<server>__<tool>. */
const CLAUDE_TOOL_KINDS: Readonly<Record<string, ToolKind>> = {
  Bash: "shell",
  Read: "read",
  Write: "write",
  Edit: "write",
  MultiEdit: "write",
  NotebookEdit: "write",
  Grep: "search",
  Glob: "list",
  LS: "list",
};

export function claudeToolKind(name: string): ToolKind {
  if (/^mcp__.+__observe$/.test(name)) return "observe";
  return CLAUDE_TOOL_KINDS[name] ?? "other";
}

interface PendingCall {
  readonly kind: "tool";
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly at: number;
  done?: StepReport;
}

interface ModelEntry {
  readonly kind: "model";
  tokens?: { input: number; cached: number; output: number };
  text: string;
}

export class ClaudeSteps {
  private readonly entries: (ModelEntry | PendingCall)[] = [];
  private readonly messages = new Map<string, ModelEntry>();
  private readonly calls = new Map<string, PendingCall>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  add(msg: Record<string, unknown>): void {
    if (msg["type"] === "assistant") this.assistant(msg);
    else if (msg["type"] === "user") this.user(msg);
  }

  private assistant(msg: Record<string, unknown>): void {
    const message = asRecord(msg["message"]);
    if (!message) return;
    const id = typeof message["id"] === "string" ? message["id"] : `anonymous-${this.entries.length}`;
    let entry = this.messages.get(id);
    if (!entry) {
      entry = { kind: "model", text: "" };
      const tokens = usageTokens(message["usage"]);
      if (tokens) entry.tokens = tokens;
      this.messages.set(id, entry);
      this.entries.push(entry);
    }
    for (const block of Array.isArray(message["content"]) ? message["content"] : []) {
      const b = asRecord(block);
      if (!b) continue;
      if (b["type"] === "text" && typeof b["text"] === "string") entry.text += b["text"];
      else if (b["type"] === "tool_use" && typeof b["id"] === "string" && !this.calls.has(b["id"])) {
        const call: PendingCall = {
          kind: "tool",
          tool: String(b["name"] ?? "?"),
          args: asRecord(b["input"]) ?? {},
          at: this.now(),
        };
        this.calls.set(b["id"], call);
        this.entries.push(call);
      }
    }
  }

  private user(msg: Record<string, unknown>): void {
    const content = asRecord(msg["message"])?.["content"];
    for (const block of Array.isArray(content) ? content : []) {
      const b = asRecord(block);
      if (b?.["type"] !== "tool_result" || typeof b["tool_use_id"] !== "string") continue;
      const call = this.calls.get(b["tool_use_id"]);
      if (!call || call.done) continue;
      const output = resultText(b["content"]);
      const error = b["is_error"] === true;
      call.done = callStep(call, output, error, this.now() - call.at);
    }
  }

  /** The turn's steps so far, in order; a call never answered (the turn was cut) has no output and no time. */
  steps(): StepReport[] {
    return this.entries.map((e): StepReport => {
      if (e.kind === "tool") return e.done ?? callStep(e, "", true, null);
      return {
        kind: "model",
        ...(e.tokens ? { tokens: e.tokens } : {}),
        ...(e.text !== "" ? { text: cutText(e.text, OUTPUT_CHARS) } : {}),
      };
    });
  }
}

function callStep(call: PendingCall, output: string, error: boolean, ms: number | null): StepReport {
  const act = claudeToolKind(call.tool);
  const a = call.args;
  const str = (k: string) => (typeof a[k] === "string" ? (a[k] as string) : undefined);
  const path = str("file_path") ?? str("notebook_path") ?? str("path");
  const input =
    act === "shell"
      ? (str("command") ?? "")
      : act === "read" || act === "write"
        ? (path ?? "")
        : act === "search" || act === "list"
          ? (str("pattern") ?? path ?? "")
          : JSON.stringify(a);
  // Bash reports a failed command as an error whose text starts "Exit code N".
  const exitMatch = act === "shell" && error ? /^Exit code (\d+)/.exec(output) : null;
  const exit = act === "shell" ? (exitMatch ? Number(exitMatch[1]) : error ? null : 0) : null;
  return toolStep({
    tool: call.tool,
    act,
    input,
    output,
    ...(path !== undefined && act !== "shell" ? { path } : {}),
    exit,
    error,
    ms,
  });
}

/** input = uncached + cache reads + cache creation, as claude.ts counts a turn; absent when the line has no usage. */
function usageTokens(u: unknown): { input: number; cached: number; output: number } | undefined {
  const r = asRecord(u);
  if (!r) return undefined;
  const n = (k: string) => (typeof r[k] === "number" && Number.isFinite(r[k]) ? Math.max(0, Math.round(r[k] as number)) : 0);
  const reads = n("cache_read_input_tokens");
  return { input: n("input_tokens") + reads + n("cache_creation_input_tokens"), cached: reads, output: n("output_tokens") };
}

function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((c) => {
      const r = asRecord(c);
      return r && typeof r["text"] === "string" ? r["text"] : "";
    })
    .join("\n");
}
