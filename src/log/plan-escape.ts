// Escaping of agent text inside a [PLAN] block (the rules are documented at the top of format.ts).
// Part of the one definition of the format; import it from format.ts.
//
// Two layers. CONTROLS: every control character other than tab and newline (C0 and DEL) becomes its
// Unicode control picture (NUL → U+2400 "␀", CR → U+240D "␍", DEL → U+2421 "␡"), so the log stays text
// that every reader (and grep, which calls a file with a NUL "binary") accepts; a literal character of the
// Control Pictures block U+2400–U+2426 in the agent's text is quoted by U+2426 "␦" in front of it, so the
// mapping is reversible. STRUCTURE: then one space is prefixed to every line that would read as log
// structure. Reading undoes the layers in the opposite order.

const STRUCTURE = String.raw` *(?:={80}$|Tool Call:|\[POST-ACTION|\[INITIAL|\[frame |\[settled\]|\[PLAN\]|\[EPISODE |Action \d)`;
const ESCAPE_RE = new RegExp(`^(?=${STRUCTURE})`, "gm");
const UNESCAPE_RE = new RegExp(`^ (?=${STRUCTURE})`, "gm");

/** The first and last code points of the Control Pictures block the escape uses; QUOTE is the last. */
const PICTURE_FIRST = 0x2400;
const QUOTE = 0x2426;
const DEL_PICTURE = 0x2421;
// Controls to picture (tab and newline stay), and quoting of literal pictures: one linear pass each.
const CONTROL_RE = /[\u0000-\u0008\u000b-\u001f\u007f\u2400-\u2426]/g;
const PICTURE_RE = /\u2426[\u2400-\u2426]|[\u2400-\u241f\u2421]/g;

function controlToPicture(c: string): string {
  const code = c.charCodeAt(0);
  if (code >= PICTURE_FIRST) return String.fromCharCode(QUOTE, code); // a literal picture: quoted
  return String.fromCharCode(code === 0x7f ? DEL_PICTURE : PICTURE_FIRST + code);
}

function pictureToControl(p: string): string {
  if (p.length === 2) return p[1]!; // quoted literal
  const code = p.charCodeAt(0);
  return String.fromCharCode(code === DEL_PICTURE ? 0x7f : code - PICTURE_FIRST);
}

/** Control characters (other than tab and newline) to their pictures; literal pictures quoted. */
export function escapeControls(text: string): string {
  return text.replace(CONTROL_RE, controlToPicture);
}

/** The inverse of escapeControls. A quote before a character outside the block is kept as it is. */
export function unescapeControls(text: string): string {
  return text.replace(PICTURE_RE, pictureToControl);
}

/** The [PLAN] text as written: controls escaped, then structure lines prefixed with one space. */
export function escapePlan(text: string): string {
  return escapeControls(text).replace(ESCAPE_RE, " ");
}

/** The inverse of escapePlan. */
export function unescapePlan(text: string): string {
  return unescapeControls(text.replace(UNESCAPE_RE, ""));
}
