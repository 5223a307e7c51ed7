// NetHack's section codec: a screen written into the log's family of sections and read back (section.ts),
// for the run, resume, replay, `log show` and `view`. Loads no terminal: readers of a log need none.
import { err, ok, type Result } from "neverthrow";
import { parseHeader, type SectionExtra, type SectionHeader } from "../../log/format.ts";
import type { FrameData } from "../../game-model.ts";
import type { SectionCodec } from "../kind.ts";
import { nethackEntry } from "./actions.ts";
import { screenOf } from "./screen-frame.ts";
import { colourRuns } from "./colours.ts";
import {
  currentScreenText,
  NETHACK_MARKER,
  observationLines,
  parseNethackSection,
  screenSectionOf,
  writeNethackSection,
} from "./section.ts";

/** A step's section text, the header's vitals being its screen's own; or why the step holds no screen. */
function writeStep(frame: FrameData, header: SectionHeader, extra: SectionExtra): Result<string, string> {
  const screen = screenOf(frame);
  if (!screen) return err("the game gave a grid where the NetHack log holds a screen");
  const { vitals: _given, ...rest } = header;
  const own = { ...rest, ...(screen.vitals ? { vitals: screen.vitals } : {}) };
  return ok(writeNethackSection(screenSectionOf(screen, own, extra)));
}

export const nethackCodec: SectionCodec = {
  write: (frame, header, extra) => writeStep(frame, header, extra).map((text) => ({ text, boards: 1 })),
  read(text) {
    const parsed = parseNethackSection(text, parseHeader);
    if (typeof parsed === "string") return err(parsed);
    const named = parsed.action === undefined ? undefined : nethackEntry(parsed.action);
    if (named?.isErr()) return err(`action ${parsed.header.action}: ${named.error}`);
    const { header } = parsed;
    const extra = {
      ...(parsed.plan !== undefined ? { plan: parsed.plan } : {}),
      ...(named?.isOk() ? { toolCall: named.value } : {}),
      ...(parsed.episode ? { episode: parsed.episode } : {}),
    };
    // A replayed step matches when it writes this section again byte for byte: the codec writes the header's
    // vitals from the replayed screen, so a different XL, HP or turn is a divergence too.
    const check = (frame: FrameData): string[] => {
      const written = writeStep(frame, header, extra);
      if (written.isErr()) return [written.error];
      const again = written.value;
      if (again === text || again === `${text}\n`) return [];
      const a = again.split("\n");
      const b = text.split("\n");
      const line = a.findIndex((l, i) => l !== b[i]);
      return [
        `line ${line + 1} of the section differs: the log has ${JSON.stringify(b[line] ?? "")}, the replay ${JSON.stringify(a[line] ?? "")}`,
      ];
    };
    return ok({ header, ...extra, boards: 1, check });
  },
  current(text, frame) {
    const parsed = parseNethackSection(text, parseHeader);
    return typeof parsed === "string" ? err(parsed) : ok(currentScreenText(parsed, frame && screenOf(frame)?.heldInventory));
  },
  view(text) {
    const s = parseNethackSection(text, parseHeader);
    if (typeof s === "string") return err(s);
    return ok({
      header: s.header,
      ...(s.plan !== undefined ? { plan: s.plan } : {}),
      ...(s.action !== undefined ? { action: s.action } : {}),
      ...(s.episode ? { episode: s.episode } : {}),
      lines: observationLines(s),
      ...(s.end !== undefined ? { end: s.end } : {}),
      // The whole screen: the message line first (the log keeps it as [MESSAGE]), then the map and status rows.
      picture: {
        form: "text",
        rows: [s.message.padEnd(80), ...s.board],
        colours: s.colours ? colourRuns(s.colours) : null,
      },
    });
  },
  replay: "first-difference",
  // Its sections have no animation frames: the newest-section arm shows the newest section as logged.
  animated: false,
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
