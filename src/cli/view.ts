// `prolong view <run-dir|log>`: one self-contained HTML replay of a run; `--png <log> <action>`: one board.
import { existsSync } from "node:fs";
import path from "node:path";
import { formatError } from "../errors.ts";
import { logGridMode, settledBoard } from "../inspect/board.ts";
import { logPathOf, openLogOrReport } from "../inspect/cli-support.ts";
import { flag, operandsFit, parseCommandArgs } from "./args.ts";
import { readSection } from "../inspect/section-read.ts";
import { logKind } from "../inspect/log-kind.ts";
import { resolveOne } from "../inspect/target.ts";
import { loadLog } from "../log/load.ts";
import { replayHtml } from "../view/html.ts";
import { gridPng, MAX_PNG_PIXELS, pngTooLarge } from "../view/png.ts";
import { writeFileReplacing } from "../safe-file.ts";
import { buildReplay } from "../view/replay.ts";
import { openViewSource } from "../view/source.ts";
import type { Command } from "./command.ts";
import { RUN_FILES } from "../run-files/layout.ts";

const usage = `usage: prolong view <run-dir|log> [-o FILE] [--json]
       prolong view --png <log|run-dir> <action|last> [--frame K] [--scale N] [--sections] [-o FILE]

Writes one self-contained HTML replay (no network needed; open it in any browser): boards in the ARC
palette, a step slider and keyboard stepping, animation frames, changed cells highlighted, the agent's
[PLAN] beside each action, a level and score timeline, and tamper events from events.jsonl. A bare log file
works too (the published logs included); a cut or partly foreign log shows the sections that can be read.

Output: <run-dir>/view.html for a prolong run directory (it has run.json), otherwise ./<name>.view.html.

--png renders one settled board (or animation frame K, 1-based) to a PNG, N pixels per cell (default 8);
output ./<name>-action-<n>.png unless -o is given.

options:
  -o, --out FILE  where to write
  --json          print {out, steps, boards, tampers, bytes, warnings} instead of a sentence`;

function defaultName(given: string): string {
  const dir = existsSync(path.join(given, RUN_FILES.log)) ? given : path.dirname(given);
  return path.basename(path.resolve(dir));
}

async function writePng(args: {
  file: string;
  target: string;
  frame: number | undefined;
  scale: number;
  sections: boolean;
  out: string | undefined;
  json: boolean;
}): Promise<number> {
  const scale = args.scale;
  const log = openLogOrReport(args.file);
  if (!log) return 2;
  const picked = resolveOne(log.table, args.target, args.sections);
  if (picked.isErr()) {
    console.error(formatError({ ...picked.error, path: log.path }));
    return 2;
  }
  const i = picked.value;
  // A section whose picture is text (a terminal game's screen) holds no board of cells: say so, not that its
  // cells are bad.
  const read = readSection(log, i, logKind(log.path));
  if (read.view?.picture.form === "text") {
    console.error(
      formatError({
        code: "no-board",
        message: `section #${i} is a ${read.by?.title ?? "terminal"} screen (text), not a grid board: --png draws grid games' boards only`,
        path: log.path,
        fix: `see the screen with \`prolong log show ${args.file} ${args.target}\`, or open \`prolong view ${args.file}\` (the HTML replay shows every screen in its colours)`,
      }),
    );
    return 2;
  }
  const mode = logGridMode(log);
  let grid;
  if (args.frame !== undefined) {
    const k = args.frame;
    const p = read.view?.picture;
    const frames = p?.form === "cells" ? p.frames : [];
    if (k > frames.length) {
      console.error(
        formatError({
          code: "bad-frame",
          message: `section #${i} has ${frames.length} animation frame(s); --frame ${args.frame} is not one of them`,
          path: log.path,
          fix: frames.length > 0 ? `give 1..${frames.length}` : "leave out --frame for the settled board",
        }),
      );
      return 2;
    }
    grid = frames[k - 1];
  } else {
    const g = settledBoard(log, i, mode);
    if (g.isErr()) {
      console.error(formatError(g.error));
      return 2;
    }
    grid = g.value;
  }
  if (!grid) return 2;
  const action = log.table.kind[i] === 2 ? `section-${i}` : String(log.table.action[i]);
  const out =
    args.out ?? `${defaultName(args.file)}-action-${action}${args.frame !== undefined ? `-frame-${args.frame}` : ""}.png`;
  const big = pngTooLarge(grid, scale);
  if (big !== null) {
    const fit = Math.floor(Math.sqrt(MAX_PNG_PIXELS / (grid.width * grid.height)));
    console.error(
      formatError({
        code: "board-too-large",
        message: big,
        path: log.path,
        fix: fit >= 1 ? `give --scale ${fit} or less` : "this board is too large to draw; inspect it with `prolong log show`",
      }),
    );
    return 2;
  }
  const png = gridPng(grid, scale);
  const wrote = writeFileReplacing(out, png);
  if (wrote.isErr()) {
    console.error(formatError(wrote.error));
    return 2;
  }
  console.log(
    args.json
      ? JSON.stringify({ out, section: i, width: grid.width * scale, height: grid.height * scale, bytes: png.length })
      : `wrote ${out} (${grid.width}x${grid.height} cells, ${png.length} bytes)`,
  );
  return 0;
}

const VIEW_OPERAND = { name: "<run-dir|log>", what: "the run directory or logs.txt to replay" };
const PNG_OPERANDS = [
  { name: "<log|run-dir>", what: "the log to draw a board of" },
  { name: "<action|last>", what: "whose board to draw (an action number or last)" },
];

const flags = {
  out: flag.text({ short: "o" }),
  json: flag.bool(),
  png: flag.bool(),
  frame: flag.int(1),
  scale: flag.intOr(8, 1, 64),
  sections: flag.bool(),
} as const;

export const viewCommand: Command = {
  name: "view",
  summary: "an offline HTML replay of a run (or --png: one board as a PNG)",
  usage,
  flags,
  async run(args) {
    const parsed = parseCommandArgs("view", args, flags);
    if (!parsed) return 2;
    const v = parsed.values;
    const [file, target] = parsed.positionals;
    if (v.png) {
      if (
        !operandsFit("view", parsed.positionals, PNG_OPERANDS, { form: "view --png" }) ||
        file === undefined ||
        target === undefined
      )
        return 2;
      return writePng({
        file,
        target,
        frame: v.frame,
        scale: v.scale,
        sections: v.sections === true,
        out: v.out,
        json: v.json === true,
      });
    }
    if (!operandsFit("view", parsed.positionals, [VIEW_OPERAND]) || file === undefined) return 2;
    const source = openViewSource(file);
    if (source.isErr()) {
      console.error(formatError(source.error));
      return 2;
    }
    const log = loadLog(logPathOf(source.value.logPath));
    if (log.isErr()) {
      console.error(formatError(log.error));
      return 2;
    }
    const replay = buildReplay(log.value, source.value);
    const runDir = source.value.runDir;
    const out =
      v.out ??
      (runDir !== null && existsSync(path.join(runDir, RUN_FILES.config))
        ? path.join(runDir, "view.html")
        : `${defaultName(file)}.view.html`);
    const html = replayHtml(replay);
    // Replaced, never written through: a view.html planted as a symlink in a run directory stays a link's name.
    const wrote = writeFileReplacing(out, html);
    if (wrote.isErr()) {
      console.error(formatError(wrote.error));
      return 2;
    }
    const report = {
      out,
      steps: replay.steps.length,
      boards: replay.boards.width.length,
      tampers: replay.tampers.length,
      bytes: Buffer.byteLength(html),
      warnings: replay.warnings,
    };
    if (v.json) console.log(JSON.stringify(report));
    else {
      console.log(
        `wrote ${out}: ${report.steps} steps, ${report.boards} boards, ${report.tampers} tamper event(s), ${(report.bytes / 1024).toFixed(0)} KB`,
      );
      for (const w of replay.warnings) console.error(`warning: ${w}`);
    }
    return 0;
  },
};
