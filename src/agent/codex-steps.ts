// Codex's `exec --json` events as trajectory steps: each completed item that acts is a tool call (a command
// with its output, exit status and the time from item.started to item.completed; a file change; an MCP tool
// call), each agent message or reasoning item a model step. Codex reports tokens only for the whole turn
// (turn.completed, summed over the thread), so they go on the turn record, not on a step (codex.ts).
import { asRecord } from "./cli-process.ts";
import { cutText, OUTPUT_CHARS, toolStep, type StepReport } from "../run-files/trajectory.ts";

export class CodexSteps {
  private readonly started = new Map<string, number>();
  private readonly out: StepReport[] = [];

  constructor(private readonly now: () => number = () => performance.now()) {}

  add(msg: Record<string, unknown>): void {
    const item = asRecord(msg["item"]);
    if (!item) return;
    const id = typeof item["id"] === "string" ? item["id"] : "";
    if (msg["type"] === "item.started") this.started.set(id, this.now());
    else if (msg["type"] === "item.completed") {
      const at = this.started.get(id);
      const step = codexItemStep(item, at === undefined ? null : this.now() - at);
      if (step) this.out.push(step);
    }
  }

  steps(): StepReport[] {
    return [...this.out];
  }
}

/** One completed item as a step; null for items that neither act nor speak (an error notice, a todo list). */
export function codexItemStep(item: Record<string, unknown>, ms: number | null): StepReport | null {
  const str = (k: string) => (typeof item[k] === "string" ? (item[k] as string) : "");
  switch (item["type"]) {
    case "agent_message":
    case "reasoning":
      return { kind: "model", ...(str("text") !== "" ? { text: cutText(str("text"), OUTPUT_CHARS) } : {}) };
    case "command_execution": {
      const exit = typeof item["exit_code"] === "number" ? item["exit_code"] : null;
      return toolStep({
        tool: "exec_command",
        act: "shell",
        input: innerCommand(str("command")),
        output: str("aggregated_output"),
        exit,
        error: item["status"] === "failed" || (exit !== null && exit !== 0),
        ms,
      });
    }
    case "file_change": {
      const changes = Array.isArray(item["changes"]) ? item["changes"] : [];
      const paths = changes.map((c) => String(asRecord(c)?.["path"] ?? "")).filter((p) => p !== "");
      return toolStep({
        tool: "apply_patch",
        act: "write",
        input: paths.join(" "),
        ...(paths.length === 1 ? { path: paths[0]! } : {}),
        output: "",
        error: item["status"] === "failed",
        ms,
      });
    }
    case "mcp_tool_call": {
      const tool = str("tool");
      const result = asRecord(item["result"]);
      const content = Array.isArray(result?.["content"]) ? (result["content"] as unknown[]) : [];
      const output = content.map((c) => String(asRecord(c)?.["text"] ?? "")).join("\n");
      return toolStep({
        tool: `${str("server")}.${tool}`,
        act: tool === "observe" ? "observe" : "other",
        input: JSON.stringify(item["arguments"] ?? {}),
        output: output || (typeof item["error"] === "object" ? JSON.stringify(item["error"]) : ""),
        error: item["status"] === "failed",
        ms,
      });
    }
    case "web_search":
      return toolStep({ tool: "web_search", act: "other", input: str("query"), output: "", ms });
    default:
      return null;
  }
}

/**
 * The command the model asked for, out of Codex's wrapper: it runs each as `/bin/bash -lc '<command>'`, the
 * command quoted as one shell word. Anything else is returned as it is.
 */
export function innerCommand(command: string): string {
  const m = /^(?:\/usr)?(?:\/bin\/)?(?:ba)?sh -l?c (.+)$/s.exec(command);
  if (!m) return command;
  const word = shellWord(m[1]!);
  return word ?? command;
}

/** One shell word made of quoted and unquoted pieces (no expansion); null when it is not exactly one word. */
export function shellWord(s: string): string | null {
  let out = "";
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (c === "'") {
      const end = s.indexOf("'", i + 1);
      if (end < 0) return null;
      out += s.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      i++;
      for (;;) {
        if (i >= s.length) return null;
        const d = s[i]!;
        if (d === '"') break;
        if (d === "\\" && i + 1 < s.length && '"\\$`\n'.includes(s[i + 1]!)) {
          if (s[i + 1] !== "\n") out += s[i + 1];
          i += 2;
        } else {
          out += d;
          i++;
        }
      }
      i++;
    } else if (c === "\\" && i + 1 < s.length) {
      out += s[i + 1];
      i += 2;
    } else if (/\s/.test(c)) return null;
    else {
      out += c;
      i++;
    }
  }
  return out;
}
