// The instructions file of a NetHack run (AGENTS.md / CLAUDE.md): the game, the log's NetHack sections, the
// named actions, the batch rules, the score. Our own wording; the action names are BALROG's.
import { actionHelpText } from "./actions.ts";

export interface NethackPromptContext {
  readonly actionCap: number;
  readonly maxActions: number;
  readonly episodes: number;
  /** Whether the agent has a log file (false in the no-log arm: the screen is in the prompt). */
  readonly hasLog: boolean;
  /** What the agent's memory holds now, as the prompts say it ("logs.txt holds the whole game so far."). */
  readonly memory: string;
}

export function nethackInstructions(c: NethackPromptContext): string {
  const lifetime =
    c.episodes > 1
      ? [
          `This is a lifetime of ${c.episodes} episodes on the same seed: after a death (or ${c.maxActions} actions) a new game starts`,
          "with the same dungeon. The log is kept across episodes; each episode starts with an INITIAL STATE section",
          "marked `[EPISODE i/K]`. What you learned before — where the stairs are, what killed you — is worth using.",
        ]
      : [`The episode ends when you die or after ${c.maxActions} actions.`];
  return [
    "# Playing NetHack",
    "",
    "You are playing NetHack 3.6 (the real game, in an 80x24 terminal). Goal: go as deep into the dungeon and",
    "gain as many experience levels as you can without dying. The score is BALROG's progression: the share of",
    "human games reaching your deepest dungeon level or highest experience level that went on to win.",
    "",
    c.hasLog ? "## Your memory: logs.txt" : "## What you see: the screen in the prompt",
    c.hasLog
      ? `\`logs.txt\` in this directory is your memory: ${c.memory} Parse it with code (grep, python, awk); do not read it whole.`
      : "There is no log file: each prompt shows the newest [STATUS], [MESSAGE] (and [INVENTORY] when it changed) and, under `[CURRENT SCREEN]`, all 24 rows of the screen (the message line, 21 map rows, the two status lines). Keep anything you want to remember in files here.",
    "Each section starts with a line of exactly 80 `=` and a header",
    "`Action N | Level D | Attempt E | XL x | HP h(H) | Turn t | Score: S` (` | Plan Step i/K` after the Attempt",
    "while a plan runs): Level is the dungeon level, Attempt the episode, XL, HP and Turn as after the action,",
    "Score the progression in hundredths of a percent (154 = 1.54%).",
    "- `[PLAN]` is YOUR earlier text; `Tool Call: far east` the action taken.",
    "- `[STATUS] Dlvl:1 | $:0 | HP:16(16) | Pw:2(2) | AC:6 | Xp:1/0 | T:8 | Not Hungry | Unencumbered` the status.",
    "- `[MESSAGE]` the game's message line; `[INVENTORY]` your items, written when they change;",
    "  `[EVENT]` what stopped a batch; `[END]` how the game ended.",
    "- `[POST-ACTION BOARD STATE]` then the screen's 23 lower rows (80 characters each): 21 map rows, then the two",
    "  status lines. `@` is you; letters are monsters; `>` and `<` stairs; `#` corridors; `+` doors or spellbooks.",
    "Editing logs.txt changes nothing: the harness keeps the master copy and restores yours.",
    "",
    "## What you do each turn",
    '1. Study the evidence. 2. Write `actions.json` in this directory: {"actions": ["far east", "search", "more"]}.',
    `   At most ${c.actionCap} actions per turn are executed. The rest of a batch is dropped when you lose HP, the`,
    "   dungeon level changes, a new monster appears, or one action takes many turns. Unknown names are dropped",
    "   with a warning. When the message line ends in `--More--`, send `more`. Prompts take letters (`y`, `n`, an",
    "   item letter); `esc` cancels.",
    "3. End your answer with a short briefing, then a line `[PLAN]` and your plan in 2-3 sentences.",
    "Nothing is executed while you work: the harness runs actions.json after your answer. Use only the shell",
    "and file tools inside this directory.",
    "",
    ...lifetime,
    "",
    "## Actions",
    actionHelpText(),
    "",
  ].join("\n");
}
