// Managed blocks: prolong's lines inside a file the user also edits (AGENTS.md, CLAUDE.md, .gitignore),
// fenced by marker lines so init can replace them and uninstall can take them out, leaving every byte
// outside the fence as the user wrote it.

export type BlockStyle = "markdown" | "hash";

/** Markdown comments for instruction files; hash comments for .gitignore. */
export function blockStyleFor(relPath: string): BlockStyle {
  return relPath === ".gitignore" || relPath.endsWith("/.gitignore") ? "hash" : "markdown";
}

function markers(style: BlockStyle): { begin: string; end: string } {
  return style === "markdown"
    ? { begin: "<!-- prolong:begin (managed by prolong init; edit outside this block) -->", end: "<!-- prolong:end -->" }
    : { begin: "# prolong:begin (managed by prolong init)", end: "# prolong:end" };
}

interface Found {
  readonly start: number; // offset of the begin marker
  readonly end: number; // offset just past the end marker's line (including its newline when present)
  readonly body: string;
}

function find(text: string, style: BlockStyle): Found | null {
  const m = markers(style);
  const start = text.startsWith(m.begin + "\n") ? 0 : text.indexOf("\n" + m.begin + "\n") + 1;
  if (start === 0 && !text.startsWith(m.begin + "\n")) return null;
  const bodyStart = start + m.begin.length + 1;
  const endAt = text.indexOf(m.end, bodyStart);
  if (endAt === -1 || (endAt > 0 && text[endAt - 1] !== "\n")) return null;
  const afterEnd = endAt + m.end.length;
  const end = text[afterEnd] === "\n" ? afterEnd + 1 : afterEnd;
  return { start, end, body: text.slice(bodyStart, Math.max(bodyStart, endAt - 1)) };
}

/** The block's body, or null when the file has no (complete) block. */
export function readBlock(text: string | null, style: BlockStyle): string | null {
  return text === null ? null : (find(text, style)?.body ?? null);
}

function render(body: string, style: BlockStyle): string {
  const m = markers(style);
  return `${m.begin}\n${body}\n${m.end}\n`;
}

/** The file with the block set to body: replaced in place when present, else appended after a blank line. */
export function upsertBlock(text: string | null, body: string, style: BlockStyle): string {
  const block = render(body, style);
  if (text === null || text === "") return block;
  const found = find(text, style);
  if (found) return text.slice(0, found.start) + block + text.slice(found.end);
  return text + (text.endsWith("\n") ? "" : "\n") + "\n" + block;
}

/** The file without the block, and without the blank line upsertBlock put before it. */
export function removeBlock(text: string, style: BlockStyle): string {
  const found = find(text, style);
  if (!found) return text;
  let before = text.slice(0, found.start);
  const after = text.slice(found.end);
  if (before.endsWith("\n\n")) before = before.slice(0, -1);
  return before + after;
}
