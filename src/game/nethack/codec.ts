// NetHack's section codec: a screen written into the log's family of sections and read back (section.ts),
// for the run, resume, replay, `log show` and `view`. Loads no terminal: readers of a log need none.
import { err, ok } from "neverthrow";
import { parseHeader } from "../../log/format.ts";
import type { ScreenSectionCodec } from "../kind.ts";
import { nethackEntry } from "./actions.ts";
import { COLOUR_CODES, decodeColours } from "./colours.ts";
import { currentScreenText, NETHACK_MARKER, parseNethackSection, screenSectionOf, writeNethackSection } from "./section.ts";

export const nethackCodec: ScreenSectionCodec = {
  write(frame, header, extra) {
    const screen = frame.screen;
    if (!screen) return err("the game gave a grid where the NetHack log holds a screen");
    const { vitals: _given, ...rest } = header;
    const own = { ...rest, ...(screen.vitals ? { vitals: screen.vitals } : {}) };
    return ok(writeNethackSection(screenSectionOf(screen, own, extra)));
  },
  read(text) {
    const parsed = parseNethackSection(text, parseHeader);
    if (typeof parsed === "string") return err(parsed);
    const named = parsed.action === undefined ? undefined : nethackEntry(parsed.action);
    if (named?.isErr()) return err(`action ${parsed.header.action}: ${named.error}`);
    return ok({
      header: parsed.header,
      ...(parsed.plan !== undefined ? { plan: parsed.plan } : {}),
      ...(named?.isOk() ? { toolCall: named.value } : {}),
      ...(parsed.episode ? { episode: parsed.episode } : {}),
    });
  },
  current(text, frame) {
    const parsed = parseNethackSection(text, parseHeader);
    return typeof parsed === "string" ? err(parsed) : ok(currentScreenText(parsed, frame?.screen?.heldInventory));
  },
  view(text) {
    const parsed = parseNethackSection(text, parseHeader);
    return typeof parsed === "string" ? err(parsed) : ok(parsed);
  },
  palette: (colours) => decodeColours(colours).map((row) => [...row].map((c) => COLOUR_CODES.indexOf(c))),
  // The inventory is written only when it changes: a window keeps the newest section that lists it.
  carried: {
    marker: NETHACK_MARKER.inventory,
    label: "your `[INVENTORY]`",
    holds(text) {
      const parsed = parseNethackSection(text, parseHeader);
      return typeof parsed !== "string" && parsed.inventory !== undefined;
    },
  },
};
