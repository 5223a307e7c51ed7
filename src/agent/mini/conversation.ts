// The mini agent's conversation: one per run, saved beside the workspace (agent-conversation.json in the run
// directory, which the sandbox hides from the agent) after every model reply and every command output, so
// `prolong resume` continues it and a crash loses at most the step in flight. Also here: --context-limit,
// which replaces the oldest command outputs with a note saying so once the conversation would pass the limit.
import { dirname, join } from "node:path";
import { err, ok, type Result } from "neverthrow";
import * as v from "valibot";
import { prolongError, type ProlongError } from "../../errors.ts";
import { RUN_FILES } from "../../run-files/layout.ts";
import { FILE_CAPS, readFileIfPresent, writeFileReplacing } from "../../safe-file.ts";

const ToolCallSchema = v.object({
  id: v.string(),
  type: v.literal("function"),
  function: v.object({ name: v.string(), arguments: v.string() }),
});

const MessageSchema = v.variant("role", [
  v.object({ role: v.literal("system"), content: v.string() }),
  /** output: a command's output sent as a user message (--tool-format text), which --context-limit may drop. */
  v.object({ role: v.literal("user"), content: v.string(), output: v.optional(v.boolean()) }),
  v.object({ role: v.literal("assistant"), content: v.nullable(v.string()), tool_calls: v.optional(v.array(ToolCallSchema)) }),
  v.object({ role: v.literal("tool"), tool_call_id: v.string(), content: v.string() }),
]);
export type Message = v.InferOutput<typeof MessageSchema>;

const ConversationSchema = v.object({
  version: v.literal(1),
  messages: v.array(MessageSchema),
  /** Tokens per character of the last request (the server's prompt_tokens over what was sent): the estimate's scale. */
  tokensPerChar: v.optional(v.number()),
  /** Command outputs dropped so far by --context-limit. */
  dropped: v.optional(v.number(), 0),
});
export type Conversation = v.InferOutput<typeof ConversationSchema>;

export function conversationPath(workspace: string): string {
  return join(dirname(workspace), RUN_FILES.agentConversation);
}

/** The saved conversation of this workspace; ok(null) when there is none yet. */
export function readConversation(workspace: string): Result<Conversation | null, ProlongError> {
  const path = conversationPath(workspace);
  const fix = "move the file aside to start the mini agent afresh (the log keeps the game; the model loses its chat)";
  // The run directory is input like any other: a FIFO, a link or /dev/zero at the name is refused, never read.
  const read = readFileIfPresent(path, FILE_CAPS.conversation, "the mini agent's conversation");
  if (read.isErr()) return err({ ...read.error, code: "bad-session", fix });
  if (read.value === null) return ok(null);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(read.value));
  } catch (e) {
    return err(prolongError("bad-session", `cannot read the mini agent's conversation: ${(e as Error).message}`, { path, fix }));
  }
  const parsed = v.safeParse(ConversationSchema, json);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    return err(
      prolongError(
        "bad-session",
        `the mini agent's conversation is malformed at ${issue.path?.map((p) => String(p.key)).join(".") ?? "(top)"}: ${issue.message}`,
        { path, fix },
      ),
    );
  }
  return ok(parsed.output);
}

/** Saved whole and renamed over the name: a crash mid-write leaves the previous conversation, never half a file. */
export function writeConversation(workspace: string, c: Conversation): Result<void, ProlongError> {
  return writeFileReplacing(conversationPath(workspace), JSON.stringify(c, null, 1) + "\n");
}

/**
 * Answers tool calls left without a result (a run stopped between the model's reply and its commands), so
 * the conversation is valid for the API again.
 */
export function closeDanglingCalls(messages: Message[]): void {
  const answered = new Set(messages.flatMap((m) => (m.role === "tool" ? [m.tool_call_id] : [])));
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== "assistant" || !m.tool_calls) continue;
    const missing = m.tool_calls.filter((c) => !answered.has(c.id));
    if (missing.length === 0) continue;
    let at = i + 1;
    while (messages[at]?.role === "tool") at++;
    messages.splice(
      at,
      0,
      ...missing.map(
        (c): Message => ({ role: "tool", tool_call_id: c.id, content: "not run: the run was interrupted before this command" }),
      ),
    );
  }
}

/** The messages as the API takes them (prolong's own marks removed). */
export function apiMessages(messages: readonly Message[]): unknown[] {
  return messages.map((m) => (m.role === "user" ? { role: "user", content: m.content } : m));
}

export function conversationChars(messages: readonly Message[]): number {
  return JSON.stringify(apiMessages(messages)).length;
}

/** The estimate used when the server has reported nothing yet: about four characters per token. */
const DEFAULT_TOKENS_PER_CHAR = 0.25;

export function estimateTokens(c: Conversation): number {
  return Math.ceil(conversationChars(c.messages) * (c.tokensPerChar ?? DEFAULT_TOKENS_PER_CHAR));
}

export function droppedNote(chars: number, limit: number): string {
  return `[output dropped by the harness to keep this conversation under --context-limit ${limit} tokens: it was ${chars} characters; run the command again if you need it]`;
}

/**
 * Drops the oldest command outputs (tool results; user-message outputs in text format) until the estimate
 * is within `limit`. The newest message is never dropped. Returns how many were dropped now.
 */
export function fitContext(c: Conversation, limit: number): number {
  const scale = c.tokensPerChar ?? DEFAULT_TOKENS_PER_CHAR;
  let chars = conversationChars(c.messages);
  let dropped = 0;
  for (let i = 0; i < c.messages.length - 1 && Math.ceil(chars * scale) > limit; i++) {
    const m = c.messages[i]!;
    const isOutput = m.role === "tool" || (m.role === "user" && m.output === true);
    if (!isOutput || m.content.startsWith("[output dropped")) continue;
    const note = droppedNote(m.content.length, limit);
    chars -= JSON.stringify(m.content).length - JSON.stringify(note).length;
    c.messages[i] = m.role === "tool" ? { ...m, content: note } : { role: "user", content: note, output: true };
    dropped++;
  }
  c.dropped += dropped;
  return dropped;
}
