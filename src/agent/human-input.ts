// The terminal's bytes as events for the human player. One read may hold many keys (fast typing, key repeat,
// a paste), escape sequences (arrows, page keys), bracketed-paste markers and SGR mouse reports
// (`ESC [ < button ; column ; row M`); a sequence cut at the end of a read is kept for the next one.

export type InputEvent =
  /** One key: a character, or "up" "down" "left" "right" "pgup" "pgdn" "enter" "esc" "backspace", "ctrl-<letter>". */
  | { readonly kind: "key"; readonly key: string }
  /** A left-button press at a 1-based terminal column and row. */
  | { readonly kind: "click"; readonly col: number; readonly row: number };

/**
 * The alternate screen (the shell's screen comes back as it was when the run ends), mouse reporting (clicks,
 * SGR coordinates) and bracketed paste on, the cursor hidden; and the sequences that undo them, in reverse.
 */
export const TERMINAL_MODES_ON = "\x1b[?1049h\x1b[?1000h\x1b[?1006h\x1b[?2004h\x1b[?25l";
export const TERMINAL_MODES_OFF = "\x1b[?25h\x1b[?2004l\x1b[?1006l\x1b[?1000l\x1b[?1049l";

const CSI_KEYS: Record<string, string> = {
  A: "up",
  B: "down",
  C: "right",
  D: "left",
  "5~": "pgup",
  "6~": "pgdn",
  "3~": "delete",
};

/** The events in `buffer` and what is left of an unfinished escape sequence at its end. */
export function parseInput(buffer: string): { events: InputEvent[]; rest: string } {
  const events: InputEvent[] = [];
  const key = (k: string) => events.push({ kind: "key", key: k });
  let i = 0;
  while (i < buffer.length) {
    const c = buffer[i]!;
    if (c === "\x1b") {
      const next = buffer[i + 1];
      if (next === undefined) {
        // A lone ESC at the end of a read: terminals send whole sequences in one write, so it is the Esc key.
        key("esc");
        i++;
        continue;
      }
      if (next === "[" || next === "O") {
        // CSI (or SS3 for arrows in application mode): parameters, then one final byte in @..~.
        let j = i + 2;
        while (j < buffer.length && !/[@-~]/.test(buffer[j]!)) j++;
        if (j >= buffer.length) return { events, rest: buffer.slice(i) };
        const body = buffer.slice(i + 2, j + 1);
        i = j + 1;
        const mouse = /^<(\d+);(\d+);(\d+)([Mm])$/.exec(body);
        if (mouse) {
          const button = Number(mouse[1]);
          // Left button (0) pressed (M), not a motion (32) or wheel (64) report.
          if (mouse[4] === "M" && (button & 3) === 0 && (button & 96) === 0)
            events.push({ kind: "click", col: Number(mouse[2]), row: Number(mouse[3]) });
          continue;
        }
        if (body === "200~" || body === "201~") continue; // bracketed paste markers: the text between is keys
        const named = CSI_KEYS[body];
        if (named) key(named);
        continue;
      }
      key("esc");
      i++;
      continue;
    }
    if (c === "\r") {
      key("enter");
      i += buffer[i + 1] === "\n" ? 2 : 1;
      continue;
    }
    if (c === "\n") key("enter");
    else if (c === "\x7f" || c === "\b") key("backspace");
    else if (c === "\x03") key("ctrl-c");
    else if (c >= " ") key(c);
    else key(`ctrl-${String.fromCharCode(c.charCodeAt(0) + 96)}`); // ^D is "ctrl-d" (NetHack's kick)
    i++;
  }
  return { events, rest: "" };
}
