// The text of .prolong/hook.mjs, the small runtime every client's hook or plugin calls to append to the log.
//
// Why a Node script written into the project rather than a call to the prolong binary: the hooks run
// wherever the client runs (a teammate's laptop, CI, a container), where prolong may not be installed or
// may live at another path; Claude Code and Codex start hook commands with Node available (both ship as
// npm packages), and opencode (Bun) and pi (Node) import the same file in-process, so there is no process
// start at all for them. It has no dependencies so it works from any checkout.
//
// Why one write() per line and a 4096-byte cap: a line no longer than PIPE_BUF, written with a single
// write() on an O_APPEND descriptor, lands whole even when two sessions append at once; no lock file is
// needed (a lock left behind by a hook the client killed on timeout would silence the memory).
// Longer content is cut to fit; the workspace itself still holds the full files.
//
// Keep this free of backticks and "${": it is embedded in a String.raw template.
export const RUNTIME_SOURCE = String.raw`// prolong memory runtime, written by 'prolong init' (re-run init to update; 'prolong uninstall' removes it).
// Appends one JSON object per coding-session event to .prolong/log.jsonl: time, client, session, type, content.
// Claude Code and Codex run it as a hook command (event JSON on stdin); opencode and pi import record().
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
export const LOG_FILE = join(here, "log.jsonl");
// PIPE_BUF on Linux: one write() of at most this many bytes with O_APPEND never interleaves with another.
export const MAX_LINE_BYTES = 4096;

function byteLength(s) {
  return Buffer.byteLength(s, "utf8");
}

function cut(value, limit) {
  if (typeof value === "string") {
    return value.length > limit ? value.slice(0, limit) + " [...cut " + (value.length - limit) + " chars]" : value;
  }
  if (Array.isArray(value)) return value.map((v) => cut(v, limit));
  if (value !== null && typeof value === "object") {
    const out = {};
    for (const [k, v] of Object.entries(value)) out[k] = cut(v, limit);
    return out;
  }
  return value;
}

/** One log line (with its newline), never longer than MAX_LINE_BYTES: long strings in content are cut. */
export function formatLine(entry) {
  let line = JSON.stringify(entry) + "\n";
  for (let limit = 2048; byteLength(line) > MAX_LINE_BYTES && limit >= 8; limit = Math.floor(limit / 2)) {
    line = JSON.stringify({ ...entry, content: cut(entry.content, limit) }) + "\n";
  }
  if (byteLength(line) > MAX_LINE_BYTES) {
    line = JSON.stringify({ time: entry.time, client: entry.client, session: cut(entry.session, 64), type: cut(entry.type, 64), content: "[cut: too large to log]" }) + "\n";
  }
  return line;
}

/** Appends a line with one write() on an O_APPEND descriptor. */
export function appendLine(line) {
  mkdirSync(here, { recursive: true });
  const fd = openSync(LOG_FILE, "a");
  try {
    const written = writeSync(fd, line);
    if (written !== byteLength(line)) throw new Error("short write to " + LOG_FILE);
  } finally {
    closeSync(fd);
  }
}

// Memory never copies itself: a tool call that reads or searches the log is not recorded, nor one whose
// output carries grep-style hits from it.
export function touchesLog(content) {
  if (content === null || typeof content !== "object") return false;
  const input = JSON.stringify(content.input ?? null) ?? "";
  if (input.includes("log.jsonl") && input.includes(".prolong")) return true;
  const output = typeof content.output === "string" ? content.output : JSON.stringify(content.output ?? null) ?? "";
  return output.includes(".prolong/log.jsonl:");
}

/** Appends one event; returns false when it was left out because it reads the log itself. */
export function record(client, type, session, content) {
  if (type === "tool_call" && touchesLog(content)) return false;
  const entry = { time: new Date().toISOString(), client: String(client), session: session ?? null, type: String(type), content: content ?? null };
  appendLine(formatLine(entry));
  return true;
}

/** Claude Code and Codex hook payloads share these field names (hook_event_name, session_id, ...). */
export function fromHookPayload(p) {
  const session = typeof p.session_id === "string" ? p.session_id : null;
  switch (p.hook_event_name) {
    case "SessionStart":
      return { type: "session_start", session, content: { source: p.source ?? null, cwd: p.cwd ?? null } };
    case "UserPromptSubmit":
      return { type: "prompt", session, content: p.prompt ?? "" };
    case "PostToolUse":
      return { type: "tool_call", session, content: { tool: p.tool_name ?? null, input: p.tool_input ?? null, output: p.tool_response ?? null } };
    case "Stop":
      return { type: "stop", session, content: p.last_assistant_message ?? null };
    case "SessionEnd":
      return { type: "session_end", session, content: { reason: p.reason ?? null } };
    default:
      return { type: String(p.hook_event_name ?? "event"), session, content: p };
  }
}

function runHook(client) {
  const text = readFileSync(0, "utf8");
  const payload = text.trim() === "" ? {} : JSON.parse(text);
  const event = fromHookPayload(payload);
  record(client, event.type, event.session, event.content);
}

// Run as a hook: 'node .prolong/hook.mjs <client>'. A failure is reported on stderr and never fails the
// client's session (exit 0): memory is a side channel.
if (process.argv[1] !== undefined && basename(process.argv[1]) === "hook.mjs" && process.argv[2] !== undefined) {
  try {
    runHook(process.argv[2]);
  } catch (e) {
    process.stderr.write("prolong hook: " + (e instanceof Error ? e.message : String(e)) + "\n");
  }
}
`;
