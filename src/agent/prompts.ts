// Every word the harness says to an agent: the instructions file written into the workspace (as AGENTS.md and
// CLAUDE.md, so any coding CLI finds it) and the per-turn user prompts. Our own wording.
import type { ActionId } from "../game/types.ts";

export interface PromptContext {
  readonly gameId: string;
  readonly availableActions: readonly ActionId[];
  readonly actionCap: number;
  readonly maxActions: number;
  /** False for the no-log arm (--log-window -1): the board comes in the prompt instead. */
  readonly hasLog: boolean;
  /** Stateless workspace: everything but logs.txt, plans.txt and the instructions is wiped each turn. */
  readonly stateless: boolean;
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

export function instructionsText(c: PromptContext): string {
  const actions = [0 as ActionId, ...c.availableActions.filter((a) => a !== 0)].map((a) => `- ${ACTION_MEANING[a]}`);
  const memory = c.hasLog
    ? [
        "## Your memory: logs.txt",
        "`logs.txt` in this directory is the complete, append-only record of this game: every board you were",
        "shown and every action taken, in order. The harness appends to it after each action; it is your only",
        "memory between turns. It grows large: do not read it whole. Parse it with code (grep, python, awk, your",
        "own scripts) to answer exact questions: what happened after ACTION3 on level 2, where a colour appeared.",
        "Its structure:",
        "- Each section starts with a line of exactly 80 `=` and a header line",
        "  `Action N | Level L | Attempt A | Plan Step i/K | Score: S` (Action 0 is `INITIAL STATE`).",
        "- `[PLAN]` holds YOUR earlier words (never an observation); `Tool Call: ACTION6({\"x\": 3, \"y\": 9})` the action.",
        "- `[INITIAL BOARD STATE]` / `[POST-ACTION BOARD STATE]` is followed by the board: 64 lines of 64",
        "  characters, one per cell. Animations show `[frame i/n]` boards, then `[settled]` and the final board.",
        "- Colours 0..15 are written `$ 8 # h q O C z n f ( G - > I \"` in that order. The bottom row is",
        "  often a step or energy bar, not part of the scene.",
        "- Score is the number of levels completed; Attempt rises after a game over.",
        "Editing logs.txt changes nothing: the harness keeps the master copy and restores yours.",
      ]
    : [
        "## What you see",
        "There is no log file in this arm: each prompt shows the current board under `[CURRENT BOARD STATE]`",
        "(64 lines of 64 characters; colours 0..15 written `$ 8 # h q O C z n f ( G - > I \"`).",
      ];
  const workspace = c.stateless
    ? ["This directory is wiped after every turn except logs.txt, plans.txt and this file: keep nothing else."]
    : ["You may keep notes and scripts in this directory between turns."];
  return [
    `# Playing ${c.gameId}`,
    "",
    "You are playing a grid game whose rules you must discover by acting and observing. Goal: complete",
    "levels with as few actions as possible. Each completed level raises the score by one.",
    "",
    ...memory,
    "",
    "## What you do each turn",
    `1. Study the evidence. 2. Write \`actions.json\` in this directory: {"actions": ["ACTION1", "ACTION6(30,40)"]}.`,
    `   At most ${c.actionCap} actions per turn are executed; the rest of a batch is dropped when the score`,
    "   changes, so you can re-plan on the new level. Invalid entries are dropped with a warning.",
    '   Write {"actions": [], "stop": true} only if you want to give up the game.',
    "3. End your answer with a short briefing of what you believe, then a line `[PLAN]` and your plan in",
    "   2-3 sentences. The harness writes this text into the log so you can read it back later.",
    "Nothing is executed while you work: the harness runs actions.json after your answer. Use only the shell",
    "and file tools (read, write, edit, search) inside this directory; other tools are refused, a refused call",
    "fails the turn, and everything outside this directory may be hidden or read-only.",
    "",
    `The run ends at ${c.maxActions} actions (RESET counts) or when the game is won.`,
    ...workspace,
    "",
    "## Actions this game offers",
    ...actions,
    "",
  ].join("\n");
}

export function firstTurnPrompt(c: PromptContext, board?: string): string {
  const head = c.hasLog
    ? "A new game has started. Read the end of logs.txt for the initial board, then write actions.json."
    : "A new game has started. Here is the board; write actions.json.";
  return board === undefined ? head : `${head}\n\n${board}`;
}

export function nextTurnPrompt(c: PromptContext, summary: string, board?: string): string {
  const head = c.hasLog
    ? `Your actions were executed and appended to logs.txt. ${summary} Study the new sections, then write actions.json.`
    : `Your actions were executed. ${summary} Here is the board now; write actions.json.`;
  return board === undefined ? head : `${head}\n\n${board}`;
}

export function resumePrompt(c: PromptContext, summary: string, board?: string): string {
  const head = c.hasLog
    ? `This run was interrupted and has been resumed from its log. ${summary} logs.txt holds everything so far; re-read what you need, then write actions.json.`
    : `This run was interrupted and has been resumed. ${summary} Here is the board now; write actions.json.`;
  return board === undefined ? head : `${head}\n\n${board}`;
}

/** Splits an agent's answer into the briefing and the short plan after its `[PLAN]` line. */
export function splitPlan(text: string): { briefing: string; plan: string } {
  const at = text.lastIndexOf("[PLAN]");
  if (at === -1) return { briefing: text.trim(), plan: text.trim() };
  return { briefing: text.slice(0, at).trim(), plan: text.slice(at + "[PLAN]".length).trim() };
}
