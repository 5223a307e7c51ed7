// opencode: a project plugin in .opencode/plugins/ (opencode loads {plugin,plugins}/*.{ts,js} from its
// config directories; a plugin is an async function returning hook handlers). It runs inside opencode, so
// it imports the runtime and appends in-process. Handlers used: chat.message (the user's prompt parts),
// tool.execute.after (tool, args, output) and the session.created / session.idle bus events.
// opencode reads AGENTS.md and .agents/skills, which the shared pieces install.
import { clientOf } from "../client.ts";

export const OPENCODE_PLUGIN_PATH = ".opencode/plugins/prolong-memory.js";

export const OPENCODE_PLUGIN_TEXT = `// prolong memory plugin for opencode, written by 'prolong init' (re-run init to update; 'prolong uninstall' removes it).
// Appends prompts and tool calls to .prolong/log.jsonl through the project's runtime.
import { record } from "../../.prolong/hook.mjs";

// Memory is a side channel: a failure to append never interrupts the session.
function safely(client, type, session, content) {
  try {
    record(client, type, session, content);
  } catch {}
}

export const ProlongMemory = async () => ({
  event: async ({ event }) => {
    if (event.type === "session.created") safely("opencode", "session_start", event.properties?.info?.id ?? null, null);
    if (event.type === "session.idle") safely("opencode", "stop", event.properties?.sessionID ?? null, null);
  },
  "chat.message": async (input, output) => {
    const text = (output?.parts ?? []).filter((p) => p.type === "text" && !p.synthetic).map((p) => p.text).join("\\n");
    safely("opencode", "prompt", input?.sessionID ?? null, text);
  },
  "tool.execute.after": async (input, output) => {
    safely("opencode", "tool_call", input?.sessionID ?? null, { tool: input?.tool ?? null, input: input?.args ?? null, output: output?.output ?? null });
  },
});
`;

export const opencode = clientOf("opencode", "opencode", ".opencode", [
  { kind: "file", path: OPENCODE_PLUGIN_PATH, owner: "opencode", text: OPENCODE_PLUGIN_TEXT },
]);
