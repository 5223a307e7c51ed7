// Escaping of agent text inside a [PLAN] block (the rule is documented at the top of format.ts).
// Part of the one definition of the format; import it from format.ts.

const STRUCTURE = String.raw` *(?:={80}$|Tool Call:|\[POST-ACTION|\[INITIAL|\[frame |\[settled\]|\[PLAN\]|\[EPISODE |Action \d)`;
const ESCAPE_RE = new RegExp(`^(?=${STRUCTURE})`, "gm");
const UNESCAPE_RE = new RegExp(`^ (?=${STRUCTURE})`, "gm");

/** Prefixes one space to every line that would read as log structure (see ESCAPING at the top of format.ts). */
export function escapePlan(text: string): string {
  return text.replace(ESCAPE_RE, " ");
}

/** The inverse of escapePlan. */
export function unescapePlan(text: string): string {
  return text.replace(UNESCAPE_RE, "");
}
