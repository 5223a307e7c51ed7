// THE escaping of text that prolong did not write itself — from a log, a run file, a plan, an agent's output,
// a model's reply — before it reaches a terminal. A terminal obeys control characters: ESC and the C1 CSI
// (U+009B) start sequences that set the window title, write the clipboard (OSC 52), make links (OSC 8) or
// move the cursor over what was printed; CR and BS overwrite a line. So every C0 control but tab and newline
// becomes its Unicode control picture (ESC → ␛, CR → ␍, as the log itself writes agent text: log/plan-escape.ts),
// DEL becomes ␡, and each C1 control and each bidirectional override (which reorders what is shown) becomes
// its code as text, <U+009B>. Printable text, including every other non-ASCII character, is left alone.
//
// CSV and JSON keep their data exact: JSON writes the same characters as \u escapes (jsonText), which a JSON
// reader turns back into the very same string; CSV, which has no escapes, gets the pictures (csvText).

// C0 but tab and newline; DEL; C1; the bidirectional embeddings, overrides and isolates.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
// The same, with tab and newline, for text that must stay on one line (a table cell, an error's path).
const UNSAFE_LINE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function visible(c: string): string {
  const code = c.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return "\u2421";
  return `<U+${code.toString(16).toUpperCase().padStart(4, "0")}>`;
}

/** Text for a terminal: tab and newline kept, every other control (C0, DEL, C1) and bidi override made visible. */
export function terminalText(text: string): string {
  return text.replace(UNSAFE, visible);
}

/** The same for one line of a table or a message: tab and newline made visible too. */
export function terminalLine(text: string): string {
  return text.replace(UNSAFE_LINE, visible);
}

/** A CSV field's text: the data as it is, but no raw control (CSV has no escapes: the pictures stand in). */
export const csvText = terminalLine;

/**
 * JSON.stringify, with the characters it leaves raw — DEL, C1, the bidi overrides — written as \u escapes too:
 * the same value for any JSON reader, nothing a terminal obeys for anyone who prints it.
 */
export function jsonText(value: unknown, replacer: null = null, space?: number): string {
  return (JSON.stringify(value, replacer, space) ?? "null").replace(
    /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
