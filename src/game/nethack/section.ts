// The body of a NetHack log section. The section keeps the family's shape — separator, header, [PLAN],
// Tool Call, observation — so `prolong log`, verify, windows and the native scanner read NetHack logs too:
//
//   ================================================================================
//   Action 12 | Level 1 | Attempt 1 | XL 1 | HP 16(16) | Turn 8 | Score: 154
//                                                                Level = Dlvl, Attempt = episode, XL, HP and
//                                                                Turn from the status (log/format.ts),
//   <blank>                                                      Score = BALROG progression × 10,000
//   [<blank> [PLAN] <plan text> <blank>]                         as in every section
//   Tool Call: far east                                          the named action (none in INITIAL STATE)
//   [EPISODE 2/5]                                                first section of an episode of a lifetime
//   [STATUS] Dlvl:1 | $:0 | HP:16(16) | Pw:2(2) | AC:6 | Xp:1/0 | T:8 | Not Hungry | Unencumbered
//   [MESSAGE] You swap places with your little dog.
//   [INVENTORY]                                                  only when it changed, one item per line
//   a - a blessed +1 long sword (weapon in hand)
//   [EVENT] hp lost 3; new monster d                             only when something stops a batch
//   [END] killed by a jackal                                     only when the game ended
//   [COLOURS]                                                    only when a cell is coloured: per coloured
//    5 12y 30B3                                                  row, its runs of one colour (colours.ts)
//   [POST-ACTION BOARD STATE]                                    ([INITIAL BOARD STATE] for action 0)
//   <screen rows 1..23, each exactly 80 characters: the map (21 rows) and the two status lines>
//   <blank>
//
// The screen's top row is the [MESSAGE] line, not a board row, so text the game echoes (a pet's name) never
// starts a board line; board rows are padded to 80 so an empty map row is never an empty line.
import { actionText } from "../../action-text.ts";
import { encodeColours, isColourLine } from "./colours.ts";
import type { Action } from "../../game-model.ts";
import type { ScreenFrame } from "./screen-frame.ts";
import { escapePlan, formatHeader, SECTION_JOIN, SEPARATOR, unescapePlan, type SectionHeader } from "../../log/format.ts";

export const NETHACK_MARKER = {
  status: "[STATUS] ",
  message: "[MESSAGE] ",
  inventory: "[INVENTORY]",
  event: "[EVENT] ",
  end: "[END] ",
  colours: "[COLOURS]",
} as const;

/** A NetHack section's fields, as written and read back. */
export interface NethackSection {
  readonly header: SectionHeader;
  readonly plan?: string;
  /** The action as the agent named it. */
  readonly action?: string;
  readonly episode?: { readonly index: number; readonly total: number };
  readonly status: string;
  readonly message: string;
  readonly inventory?: readonly string[];
  readonly events?: readonly string[];
  readonly end?: string;
  /** The screen's rows below the message line. */
  readonly board: readonly string[];
  /** The section's [COLOURS] lines as logged; absent when no cell is coloured. */
  readonly colours?: readonly string[];
}

/** The lines a NetHack section holds beside its screen, as logged: status, message, inventory, events, end. */
export function observationLines(s: NethackSection): string[] {
  return [
    `${NETHACK_MARKER.status}${s.status}`,
    `${NETHACK_MARKER.message}${s.message}`,
    ...(s.inventory ? [NETHACK_MARKER.inventory, ...s.inventory.map((l) => ` ${l}`)] : []),
    ...(s.events ? [`${NETHACK_MARKER.event}${s.events.join("; ")}`] : []),
    ...(s.end !== undefined ? [`${NETHACK_MARKER.end}${s.end}`] : []),
  ];
}

function oneLine(s: string): string {
  return s.replace(/[\r\n\u2028\u2029]+/g, " ");
}

export function writeNethackSection(s: NethackSection): string {
  let out = `${SEPARATOR}\n${formatHeader(s.header)}\n\n`;
  if (s.plan !== undefined) out += `\n[PLAN]\n${escapePlan(s.plan)}\n\n`;
  if (s.action !== undefined) out += `Tool Call: ${oneLine(s.action)}\n`;
  if (s.episode) out += `[EPISODE ${s.episode.index}/${s.episode.total}]\n`;
  out += `${NETHACK_MARKER.status}${oneLine(s.status)}\n${NETHACK_MARKER.message}${oneLine(s.message)}\n`;
  if (s.inventory) out += `${NETHACK_MARKER.inventory}\n${s.inventory.map((l) => ` ${oneLine(l)}`).join("\n")}\n`;
  if (s.events && s.events.length > 0) out += `${NETHACK_MARKER.event}${oneLine(s.events.join("; "))}\n`;
  if (s.end !== undefined) out += `${NETHACK_MARKER.end}${oneLine(s.end)}\n`;
  if (s.colours && s.colours.length > 0) out += `${NETHACK_MARKER.colours}\n${s.colours.join("\n")}\n`;
  const marker = s.header.kind === "initial" ? "[INITIAL BOARD STATE]" : "[POST-ACTION BOARD STATE]";
  return `${out}${marker}\n${s.board.map((r) => r.padEnd(80).slice(0, 80)).join("\n")}\n\n`;
}

export function appendNethackSection(s: NethackSection, logIsEmpty: boolean): string {
  return (logIsEmpty ? "" : SECTION_JOIN) + writeNethackSection(s);
}

/** The fields of one NetHack section's text (separator to next separator), or why it is not one. */
export function parseNethackSection(
  text: string,
  parseHeader: (line: string) => SectionHeader | undefined,
): NethackSection | string {
  const lines = text.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  if (lines[0] !== SEPARATOR) return "no separator line";
  const header = parseHeader(lines[1] ?? "");
  if (!header) return `not a section header: ${JSON.stringify((lines[1] ?? "").slice(0, 80))}`;
  let i = 3;
  let plan: string | undefined;
  if (lines[3] === "" && lines[4] === "[PLAN]") {
    let j = 5;
    // Plans are written only on action sections, which always have a Tool Call (escaped inside plans).
    while (j < lines.length && !(lines[j] ?? "").startsWith("Tool Call:")) j++;
    const body = lines.slice(5, j);
    if (body.length > 0 && body[body.length - 1] === "") body.pop();
    plan = unescapePlan(body.join("\n"));
    i = j;
  }
  let action: string | undefined;
  if ((lines[i] ?? "").startsWith("Tool Call: ")) action = (lines[i++] ?? "").slice("Tool Call: ".length);
  let episode: NethackSection["episode"];
  const ep = /^\[EPISODE (\d+)\/(\d+)\]$/.exec(lines[i] ?? "");
  if (ep) {
    episode = { index: Number(ep[1]), total: Number(ep[2]) };
    i++;
  }
  if (!(lines[i] ?? "").startsWith(NETHACK_MARKER.status)) return `action ${header.action}: expected [STATUS]`;
  const status = (lines[i++] ?? "").slice(NETHACK_MARKER.status.length);
  if (!(lines[i] ?? "").startsWith(NETHACK_MARKER.message)) return `action ${header.action}: expected [MESSAGE]`;
  const message = (lines[i++] ?? "").slice(NETHACK_MARKER.message.length);
  let inventory: string[] | undefined;
  if (lines[i] === NETHACK_MARKER.inventory) {
    inventory = [];
    i++;
    while ((lines[i] ?? "").startsWith(" ")) inventory.push((lines[i++] ?? "").slice(1));
  }
  let events: string[] | undefined;
  if ((lines[i] ?? "").startsWith(NETHACK_MARKER.event))
    events = (lines[i++] ?? "").slice(NETHACK_MARKER.event.length).split("; ");
  let end: string | undefined;
  if ((lines[i] ?? "").startsWith(NETHACK_MARKER.end)) end = (lines[i++] ?? "").slice(NETHACK_MARKER.end.length);
  let colours: string[] | undefined;
  if (lines[i] === NETHACK_MARKER.colours) {
    colours = [];
    for (i++; (lines[i] ?? "").startsWith(" "); i++) {
      const line = lines[i] ?? "";
      if (!isColourLine(line)) return `action ${header.action}: ${JSON.stringify(line)} is not a [COLOURS] line`;
      colours.push(line);
    }
  }
  const marker = header.kind === "initial" ? "[INITIAL BOARD STATE]" : "[POST-ACTION BOARD STATE]";
  if (lines[i] !== marker) return `action ${header.action}: expected ${marker}`;
  const board: string[] = [];
  for (i++; i < lines.length && lines[i] !== ""; i++) board.push(lines[i] ?? "");
  if (board.length !== 23)
    return `action ${header.action}: the screen has ${board.length} rows, expected 23 (the log was cut inside it)`;
  return {
    header,
    status,
    message,
    board,
    ...(plan !== undefined ? { plan } : {}),
    ...(action !== undefined ? { action } : {}),
    ...(episode ? { episode } : {}),
    ...(inventory ? { inventory } : {}),
    ...(events ? { events } : {}),
    ...(end !== undefined ? { end } : {}),
    ...(colours ? { colours } : {}),
  };
}

/** The section of a terminal game's step as the run writes it (and resume re-renders to check a replayed step). */
export function screenSectionOf(
  screen: ScreenFrame,
  header: SectionHeader,
  extra: { plan?: string; toolCall?: Action; episode?: { index: number; total: number } },
): NethackSection {
  const colours = screen.colours ? encodeColours(screen.colours) : [];
  return {
    header,
    status: screen.status,
    message: screen.message,
    board: screen.rows,
    ...(extra.plan !== undefined ? { plan: extra.plan } : {}),
    ...(extra.toolCall ? { action: actionText(extra.toolCall, "log") } : {}),
    ...(extra.episode ? { episode: extra.episode } : {}),
    ...(screen.inventory ? { inventory: screen.inventory } : {}),
    ...(screen.stops.length + screen.notes.length > 0 ? { events: [...screen.stops, ...screen.notes] } : {}),
    ...(screen.end !== undefined ? { end: screen.end } : {}),
    ...(colours.length > 0 ? { colours } : {}),
  };
}

/**
 * The no-log arm's view of the newest section: the header's fields, the status, message, inventory (this
 * section's, else the one last read: the prompt has no earlier section to find it in), events and end, then
 * the WHOLE screen — its message line first, so the prompt
 * shows all 24 rows the game drew (the log keeps that row as [MESSAGE] instead).
 */
export function currentScreenText(s: NethackSection, held?: readonly string[]): string {
  const h = s.header;
  const v = h.vitals;
  const lines = [
    `Score: ${h.score}`,
    `Action: ${h.action}`,
    ...(v ? [`Dlvl: ${h.level} | XL: ${v.xl} | HP: ${v.hp}(${v.hpMax}) | Turn: ${v.turn}`] : []),
    "",
    `${NETHACK_MARKER.status}${s.status}`,
    `${NETHACK_MARKER.message}${s.message}`,
  ];
  const inventory = s.inventory ?? held;
  if (inventory && inventory.length > 0) lines.push(NETHACK_MARKER.inventory, ...inventory.map((l) => ` ${l}`));
  if (s.events && s.events.length > 0) lines.push(`${NETHACK_MARKER.event}${s.events.join("; ")}`);
  if (s.end !== undefined) lines.push(`${NETHACK_MARKER.end}${s.end}`);
  lines.push("[CURRENT SCREEN]", s.message.padEnd(80).slice(0, 80), ...s.board);
  return lines.join("\n");
}
