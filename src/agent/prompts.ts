// Every word the harness says to an agent: the instructions file written into the workspace (as AGENTS.md and
// CLAUDE.md, so any coding CLI finds it) and the per-turn user prompts. Our own wording.
import type { ActionId } from "../game-model.ts";
import { ENTRY_MAX_CHARS } from "../action-text.ts";
import { ACTIONS_MAX_BYTES } from "./actions.ts";
import type { LogWindow } from "../setting/log-window.ts";
import { isRestricted, writesAllowed, type ToolPolicy } from "./tool-ladder.ts";

export interface PromptContext {
  readonly gameId: string;
  readonly availableActions: readonly ActionId[];
  readonly actionCap: number;
  readonly maxActions: number;
  /** What part of the log the agent's logs.txt holds (--log-window); "none": no file, the board in the prompt. */
  readonly window: LogWindow;
  /** Stateless workspace: everything but logs.txt, plans.txt and the instructions is wiped each turn. */
  readonly stateless: boolean;
  /** Episodes in the lifetime (--episodes K); 1 for one game. */
  readonly episodes: number;
  /** The current episode (1-based); absent where no episode has started (the instructions file). */
  readonly episode?: number;
  /** The tool ladder arm (--tools, --no-write); absent or level all: every tool. */
  readonly tools?: ToolPolicy;
  /** --observe mcp: the board is never in the prompt; the agent calls the `observe` tool for it. */
  readonly observe?: "mcp";
  /**
   * What a window of this kind's log also keeps, as the prompt names it ("your `[INVENTORY]`"): the state a
   * terminal game's log writes only when it changes (log/window.ts). Absent for the grid games.
   */
  readonly carried?: string;
}

export const INSTRUCTION_FILES = ["AGENTS.md", "CLAUDE.md"] as const;

const ACTION_MEANING: Record<ActionId, string> = {
  0: "RESET — restart the current level (counts as an action)",
  1: "ACTION1 — up",
  2: "ACTION2 — down",
  3: "ACTION3 — left",
  4: "ACTION4 — right",
  5: "ACTION5 — interact / use",
  6: "ACTION6(x,y) — click the cell in column x, row y (0..63)",
  7: "ACTION7 — undo",
};

/** The log's sections; a stateless run's hold no plans (they go to plans.txt). */
function logStructure(c: PromptContext): string[] {
  return [
    "Its structure:",
    "- Each section starts with a line of exactly 80 `=` and a header line",
    "  `Action N | Level L | Attempt A | Plan Step i/K | Score: S` (Action 0 is `INITIAL STATE`).",
    c.stateless
      ? '- `Tool Call: ACTION6({"x": 3, "y": 9})` the action (your plans are not in the log: they are in plans.txt).'
      : '- `[PLAN]` holds YOUR earlier words (never an observation); `Tool Call: ACTION6({"x": 3, "y": 9})` the action.',
    "- `[INITIAL BOARD STATE]` / `[POST-ACTION BOARD STATE]` is followed by the board: 64 lines of 64",
    "  characters, one per cell. Animations show `[frame i/n]` boards, then `[settled]` and the final board.",
  ];
}
const PALETTE = [
  '- Colours 0..15 are written `$ 8 # h q O C z n f ( G - > I "` in that order. The bottom row is',
  "  often a step or energy bar, not part of the scene.",
  "- Score is the number of levels completed; Attempt rises after a game over.",
];
const RESTORED = "Editing logs.txt changes nothing: the harness keeps the master copy and restores yours.";

/** What the agent's memory is under each log window: the part of the instructions that differs most by arm. */
function memoryText(c: PromptContext): string[] {
  switch (c.window.kind) {
    case "full":
      return [
        "## Your memory: logs.txt",
        "`logs.txt` in this directory is the complete, append-only record of this game: every board you were",
        "shown and every action taken, in order. The harness appends to it after each action; it is your only",
        "memory between turns. It grows large: do not read it whole. Parse it with code (grep, python, awk, your",
        "own scripts) to answer exact questions: what happened after ACTION3 on level 2, where a colour appeared.",
        ...logStructure(c),
        ...PALETTE,
        RESTORED,
      ];
    case "last":
      return [
        "## Your memory: logs.txt, the recent part only",
        `\`logs.txt\` in this directory holds the first section (the initial board) and the last ${c.window.sections} action`,
        `section${c.window.sections === 1 ? "" : "s"} of this game — not the whole game. Older sections are dropped from your copy as new ones arrive`,
        "(the harness keeps the full record, you do not see it). Anything you want to remember for longer, keep",
        "in your own files. Read the file with code (grep, python, awk, your own scripts).",
        ...logStructure(c),
        ...PALETTE,
        RESTORED,
      ];
    case "newest":
      return [
        "## Your memory: logs.txt, the newest section only",
        "`logs.txt` in this directory holds only the newest section: the last action taken and the board after",
        "it (animation frames removed, the settled board kept). Earlier sections are not in it; the harness",
        "keeps the full record, you do not see it. Anything you want to remember, keep in your own files.",
        ...logStructure(c).slice(0, 5),
        "  characters, one per cell (animation frames are removed in this arm).",
        ...PALETTE,
        RESTORED,
      ];
    case "none":
      if (c.observe)
        return [
          "## What you see: the observe tool, no log",
          "There is no log file in this arm, and the board is not in the prompt: call the `observe` tool (no",
          "arguments) to see it. It returns the current board under `[CURRENT BOARD STATE]` (64 lines of 64",
          "characters, one per cell) and the sections of the last batch: each action executed, its animation",
          "frames and the board after it. Nothing of earlier turns is shown again: anything you want to",
          "remember, keep in your own files.",
          ...PALETTE,
        ];
      return [
        "## What you see: the board in the prompt, no log",
        "There is no log file in this arm: each prompt shows the current board under `[CURRENT BOARD STATE]`",
        "(64 lines of 64 characters, one per cell). Nothing of earlier turns is shown again: anything you want",
        "to remember, keep in your own files.",
        ...PALETTE,
      ];
  }
}

/** With --observe and a log, the tool is a second way to the board, said after the memory text. */
function observeText(c: PromptContext): string[] {
  if (!c.observe || c.window.kind === "none") return [];
  return [
    "",
    "An `observe` tool (no arguments) also returns the current board under `[CURRENT BOARD STATE]` and the",
    "sections of the last batch, read-only.",
  ];
}

/** Where the agent's briefing and plan go: into the log (read back later), plans.txt, or nowhere it can see. */
function planText(c: PromptContext): string {
  if (c.stateless) return "   2-3 sentences. The harness appends your plan to plans.txt (kept between turns), not to the log.";
  if (c.window.kind === "none") return "   2-3 sentences. The harness records it; it is not shown to you again.";
  if (c.window.kind === "full")
    return "   2-3 sentences. The harness writes this text into the log so you can read it back later.";
  return "   2-3 sentences. The harness writes this text into the log (you see it while it is within your window).";
}

/** What the agent's directory keeps between turns (the same for every kind; a kind's own text takes it too). */
export function workspaceText(c: PromptContext): string[] {
  // A run whose tools write nothing but actions.json has nowhere to keep notes: its memory is the log and plans.
  if (c.tools && !writesAllowed(c.tools))
    return c.stateless
      ? ["plans.txt holds the plans of your earlier turns, oldest first."]
      : ["You cannot keep notes here: no file but actions.json may be written in this run."];
  if (!c.stateless) return ["You may keep notes and scripts in this directory between turns."];
  const kept = c.window.kind === "none" ? "plans.txt and this file" : "logs.txt, plans.txt and this file";
  return [
    `This directory is wiped after every turn except ${kept}: files you write there are gone next`,
    "turn. plans.txt holds the plans of your earlier turns, oldest first.",
  ];
}

function budgetText(c: PromptContext): string[] {
  if (c.episodes <= 1) return [`The run ends at ${c.maxActions} actions (RESET counts) or when the game is won.`];
  const where =
    c.window.kind === "none"
      ? []
      : ["The log is kept across episodes: each new episode starts with an INITIAL STATE section marked", "`[EPISODE i/K]`."];
  return [
    `This is a lifetime of ${c.episodes} episodes of the same game (same levels, same seed). An episode ends at`,
    `${c.maxActions} actions (RESET counts) or when the game is won; then the game starts over from level 1.`,
    ...where,
    "What you learned in earlier episodes is worth using: levels cleared in fewer actions score higher.",
  ];
}

export function instructionsText(c: PromptContext): string {
  const actions = [0 as ActionId, ...c.availableActions.filter((a) => a !== 0)].map((a) => `- ${ACTION_MEANING[a]}`);
  return [
    `# Playing ${c.gameId}`,
    "",
    "You are playing a grid game whose rules you must discover by acting and observing. Goal: complete",
    "levels with as few actions as possible. Each completed level raises the score by one.",
    "",
    ...memoryText(c),
    ...observeText(c),
    "",
    "## What you do each turn",
    `1. Study the evidence. 2. Write \`actions.json\` in this directory: {"actions": ["ACTION1", "ACTION6(30,40)"]}.`,
    `   At most ${c.actionCap} actions per turn are executed; the rest of a batch is dropped when the score`,
    "   changes, so you can re-plan on the new level. Invalid entries are dropped; the next prompt says which.",
    `   actions.json must be a plain file of at most ${ACTIONS_MAX_BYTES / (1024 * 1024)} MB (anything else is not read), each entry at most ${ENTRY_MAX_CHARS} characters.`,
    '   Write {"actions": [], "stop": true} only if you want to give up the game.',
    "3. End your answer with a short briefing of what you believe, then a line `[PLAN]` and your plan in",
    planText(c),
    ...toolsText(c),
    "",
    ...budgetText(c),
    ...workspaceText(c),
    "",
    "## Actions this game offers",
    ...actions,
    "",
  ].join("\n");
}

/** One sentence for every turn's prompt: what the agent has now, so a windowed or wiped arm is never assumed whole. */
export function memoryNow(c: PromptContext): string {
  const lifetime =
    c.episodes > 1 && c.episode !== undefined
      ? `Episode ${c.episode} of ${c.episodes}${c.episode > 1 && c.window.kind !== "none" ? "; the earlier episodes are in the log before this one's INITIAL STATE section" : ""}. `
      : "";
  return lifetime + memoryPart(c);
}

function memoryPart(c: PromptContext): string {
  const wiped = c.stateless ? " The workspace was wiped except logs.txt, plans.txt and the instructions." : "";
  switch (c.window.kind) {
    case "full":
      return `logs.txt holds everything so far.${wiped}`;
    case "last": {
      const last = `the last ${c.window.sections} action section${c.window.sections === 1 ? "" : "s"}`;
      return c.carried
        ? `logs.txt holds the initial section, ${last} and the newest section that lists ${c.carried}.${wiped}`
        : `logs.txt holds the initial section and ${last}.${wiped}`;
    }
    case "newest":
      return c.carried
        ? `logs.txt holds only the newest section (and the newest that lists ${c.carried}, when older).${wiped}`
        : `logs.txt holds only the newest section.${wiped}`;
    case "none": {
      // With --observe the board is never in the prompt: the tool shows it.
      const board = c.observe ? "the observe tool shows the board" : "the board is below";
      return `There is no log; ${board}.${c.stateless ? " The workspace was wiped except plans.txt and the instructions." : ""}`;
    }
  }
}

export function firstTurnPrompt(c: PromptContext, board?: string): string {
  const head =
    c.window.kind !== "none"
      ? `A new game has started. Read the end of logs.txt for the initial board, then write actions.json. ${memoryNow(c)}`
      : c.observe
        ? "A new game has started. Call the observe tool for the board, then write actions.json."
        : "A new game has started. Here is the board; write actions.json.";
  return board === undefined ? head : `${head}\n\n${board}`;
}

export function nextTurnPrompt(c: PromptContext, summary: string, board?: string): string {
  const head =
    c.window.kind !== "none"
      ? `Your actions were executed and appended to logs.txt. ${summary} ${memoryNow(c)} Study the new sections, then write actions.json.`
      : `Your actions were executed. ${summary} ${memoryNow(c)} ${c.observe ? "Call the observe tool for the board now, then write actions.json." : "Here is the board now; write actions.json."}`;
  return board === undefined ? head : `${head}\n\n${board}`;
}

/** After a call that failed (`why`, already quoted): nothing of it was executed; the game is as it was. */
export function retryPrompt(c: PromptContext, summary: string, why: string, board?: string): string {
  const head =
    c.window.kind !== "none"
      ? `Your last call ended without a usable answer (${why}); nothing was executed. ${summary} ${memoryNow(c)} Read the end of logs.txt for the board, then write actions.json.`
      : `Your last call ended without a usable answer (${why}); nothing was executed. ${summary} ${memoryNow(c)} Here is the board; write actions.json.`;
  return board === undefined ? head : `${head}\n\n${board}`;
}

export function resumePrompt(c: PromptContext, summary: string, board?: string): string {
  const head =
    c.window.kind !== "none"
      ? `This run was interrupted and has been resumed from its log. ${summary} ${memoryNow(c)} Re-read what you need, then write actions.json.`
      : `This run was interrupted and has been resumed. ${summary} ${memoryNow(c)} ${c.observe ? "Call the observe tool for the board now, then write actions.json." : "Here is the board now; write actions.json."}`;
  return board === undefined ? head : `${head}\n\n${board}`;
}

/**
 * What the agent may use: the full set, or the arm's rung of the tool ladder (a refusal is then the arm
 * working). The same for every kind; a kind's own text takes it too.
 */
export function toolsText(c: PromptContext): string[] {
  if (!c.tools || !isRestricted(c.tools)) {
    return [
      "Nothing is executed while you work: the harness runs actions.json after your answer. Use only the shell",
      "and file tools (read, write, edit, search) inside this directory; other tools are refused, a refused call",
      "fails the turn, and everything outside this directory may be hidden or read-only.",
      ...(c.observe ? ["The observe tool is allowed too: it only reads what the harness wrote."] : []),
    ];
  }
  const rungs: Record<ToolPolicy["level"], string> = {
    read: "reading files and listing directories",
    "read,grep": "reading files, listing directories and searching files with grep",
    "read,grep,python": "reading files, listing directories, searching with grep and running python",
    all: "any shell command and file tool",
  };
  const writes =
    c.tools.noWrite || c.tools.level === "read" || c.tools.level === "read,grep"
      ? "; no file may be created or changed except actions.json"
      : "";
  return [
    "Nothing is executed while you work: the harness runs actions.json after your answer. In this run your tools",
    `are limited to ${rungs[c.tools.level]}${writes}. Anything else is refused and you are told why;`,
    "everything outside this directory may be hidden or read-only.",
  ];
}

/** Splits an agent's answer into the briefing and the short plan after its `[PLAN]` line. */
export function splitPlan(text: string): { briefing: string; plan: string } {
  const at = text.lastIndexOf("[PLAN]");
  if (at === -1) return { briefing: text.trim(), plan: text.trim() };
  return { briefing: text.slice(0, at).trim(), plan: text.slice(at + "[PLAN]".length).trim() };
}
