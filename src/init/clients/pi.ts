// pi: a project extension in .pi/extensions/*.ts (pi discovers these and loads them with jiti; an extension
// default-exports a function that subscribes with pi.on(event, handler)). It imports the runtime and appends
// in-process. Events used: session_start, input (the user's text), tool_result (tool, input, content) and
// session_shutdown. pi reads AGENTS.md and .agents/skills, which the shared pieces install.
import { clientOf } from "../client.ts";

export const PI_EXTENSION_PATH = ".pi/extensions/prolong-memory.ts";

export const PI_EXTENSION_TEXT = `// prolong memory extension for pi, written by 'prolong init' (re-run init to update; 'prolong uninstall' removes it).
// Appends prompts and tool calls to .prolong/log.jsonl through the project's runtime.
import { record } from "../../.prolong/hook.mjs";

function sessionOf(ctx) {
  try {
    return ctx.sessionManager.getSessionId() ?? null;
  } catch {
    return null;
  }
}

// Memory is a side channel: a failure to append never interrupts the session.
function safely(type, ctx, content) {
  try {
    record("pi", type, sessionOf(ctx), content);
  } catch {}
}

function textOf(content) {
  if (!Array.isArray(content)) return content ?? null;
  return content.filter((c) => c && c.type === "text").map((c) => c.text).join("\\n");
}

export default function prolongMemory(pi) {
  pi.on("session_start", async (event, ctx) => safely("session_start", ctx, { source: event?.reason ?? null, cwd: ctx.cwd ?? null }));
  pi.on("input", async (event, ctx) => {
    safely("prompt", ctx, event?.text ?? "");
    return { action: "continue" };
  });
  pi.on("tool_result", async (event, ctx) => {
    safely("tool_call", ctx, { tool: event?.toolName ?? null, input: event?.input ?? null, output: textOf(event?.content) });
  });
  pi.on("session_shutdown", async (event, ctx) => safely("session_end", ctx, { reason: event?.reason ?? null }));
}
`;

export const pi = clientOf("pi", "pi", ".pi", [{ kind: "file", path: PI_EXTENSION_PATH, owner: "pi", text: PI_EXTENSION_TEXT }]);
