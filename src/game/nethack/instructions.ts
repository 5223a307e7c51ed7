// The instructions file of a NetHack run (AGENTS.md / CLAUDE.md): the game, what the agent's memory is under
// its arm (the log or a window of it, the screen in the prompt, the observe tool, plans.txt), the named
// actions, the batch rules, the score. Each arm's text says only what that arm's files and prompts hold
// (test/run/arm-texts.test.ts checks it at every call). Our own wording; the action names are BALROG's.
import type { InstructionsContext } from "../kind.ts";
import { actionHelpText } from "./actions.ts";
import { BALROG_NO_PROGRESS } from "./episode.ts";

/** The header and the parts of a section, as the log (and the observe tool's last batch) writes them. */
function sectionText(c: InstructionsContext): string[] {
  return [
    "Each section starts with a line of exactly 80 `=` and a header",
    "`Action N | Level D | Attempt E | XL x | HP h(H) | Turn t | Score: S` (` | Plan Step i/K` after the Attempt",
    "while a batch runs): Level is the dungeon level, Attempt the episode, XL, HP and Turn as after the action,",
    "Score the progression in hundredths of a percent (154 = 1.54%).",
    c.stateless
      ? "- `Tool Call: far east` the action taken (your plans are not in the log: they are in plans.txt)."
      : "- `[PLAN]` is YOUR earlier text (never an observation); `Tool Call: far east` the action taken.",
    "- `[STATUS] Dlvl:1 | $:0 | HP:16(16) | Pw:2(2) | AC:6 | Xp:1/0 | T:8 | Not Hungry | Unencumbered` the status.",
    "- `[MESSAGE]` the game's message line; `[INVENTORY]` your items, written when they change;",
    "  `[EVENT]` what stopped a batch; `[END]` how the game ended.",
    "- `[POST-ACTION BOARD STATE]` then the screen's 23 lower rows (80 characters each): 21 map rows, then the two",
    "  status lines. `@` is you; letters are monsters; `>` and `<` stairs; `#` corridors; `+` doors or spellbooks.",
  ];
}

/** What a prompt (or the observe tool) shows of the current screen in the no-log arm. */
const CURRENT_SCREEN = [
  "The current screen is shown as `Score` (the progression in hundredths of a percent), `Action` and",
  "`Dlvl | XL | HP | Turn` lines, then `[STATUS]` (the status line), `[MESSAGE]` (the message line),",
  "`[INVENTORY]` (your items as last read), `[EVENT]` when something stopped the batch and `[END]` when the",
  "game ended, then under `[CURRENT SCREEN]` all 24 rows of the screen: the message line, 21 map rows, the",
  "two status lines. `@` is you; letters are monsters; `>` and `<` stairs; `#` corridors; `+` doors or",
  "spellbooks.",
];

const RESTORED = "Editing logs.txt changes nothing: the harness keeps the master copy and restores yours.";
const PARSE = "Parse it with code (grep, python, awk, your own scripts); do not read it whole.";

/** What the agent's memory is under the run's window, and how what it sees is laid out. */
function memoryText(c: InstructionsContext): string[] {
  const w = c.window;
  switch (w.kind) {
    case "full":
      return [
        "## Your memory: logs.txt",
        "`logs.txt` in this directory is the complete, append-only record of this game: every screen you were",
        `shown and every action taken, in order. The harness appends to it after each action. ${PARSE}`,
        ...sectionText(c),
        RESTORED,
      ];
    case "last":
      return [
        "## Your memory: logs.txt, the recent part only",
        `\`logs.txt\` in this directory holds the first section (the initial screen), the last ${w.sections} action`,
        `section${w.sections === 1 ? "" : "s"} and, where it is older, the newest section that lists your \`[INVENTORY]\` — not the whole`,
        "game. Older sections are dropped from your copy as new ones arrive (the harness keeps the full record,",
        `you do not see it). Anything you want to remember for longer, keep in your own files. ${PARSE}`,
        ...sectionText(c),
        RESTORED,
      ];
    case "newest":
      return [
        "## Your memory: logs.txt, the newest section only",
        "`logs.txt` in this directory holds only the newest section (and before it, when that is an older one,",
        "the newest section that lists your `[INVENTORY]`). Earlier sections are not in it; the harness keeps the",
        "full record, you do not see it. Anything you want to remember, keep in your own files.",
        ...sectionText(c),
        RESTORED,
      ];
    case "none":
      if (c.observe)
        return [
          "## What you see: the observe tool, no log",
          "There is no log file in this arm, and the screen is not in the prompt: call the `observe` tool (no",
          "arguments) to see it. It returns the current screen, then after a `[LAST BATCH: n section(s)]` line the",
          "sections of the last batch: each action executed and the screen after it. Nothing of earlier turns is",
          "shown again: anything you want to remember, keep in your own files.",
          ...CURRENT_SCREEN,
          ...sectionText(c),
        ];
      return [
        "## What you see: the screen in the prompt, no log",
        "There is no log file in this arm: each prompt shows the current screen. Nothing of earlier turns is",
        "shown again: anything you want to remember, keep in your own files.",
        ...CURRENT_SCREEN,
      ];
  }
}

/** Where the agent's plan goes: into the log (read back later), plans.txt, or nowhere it can see. */
function planText(c: InstructionsContext): string {
  const say = "3. End your answer with a short briefing, then a line `[PLAN]` and your plan in 2-3 sentences.";
  if (c.stateless) return `${say}\n   The harness appends your plan to plans.txt (kept between turns), not to the log.`;
  if (c.window.kind === "none")
    return `${say}\n   The harness records it${c.observe ? " (the observe tool's last batch shows it)" : ""}; it is not shown to you again otherwise.`;
  if (c.window.kind === "full") return `${say}\n   The harness writes it into the log so you can read it back later.`;
  return `${say}\n   The harness writes it into the log (you see it while it is within your window).`;
}

function lifetimeText(c: InstructionsContext, balrog: boolean): string[] {
  const character = balrog ? ["Your character (role, race, alignment) is drawn from the seed: the first screen names it."] : [];
  const stalled = balrog ? `, after ${BALROG_NO_PROGRESS} actions in a row that leave the game's turn counter where it was,` : "";
  if (c.episodes <= 1) return [`The episode ends when you die${stalled} or after ${c.maxActions} actions.`, ...character];
  return [
    `This is a lifetime of ${c.episodes} episodes on the same seed: after a death (or ${c.maxActions} actions${balrog ? ", or no progress" : ""}) a new game starts`,
    "with the same dungeon.",
    ...(c.window.kind === "none"
      ? []
      : ["The log is kept across episodes; each new episode starts with an INITIAL STATE section marked `[EPISODE i/K]`."]),
    "What you learned before — where the stairs are, what killed you — is worth using.",
    ...character,
  ];
}

/** How a turn's actions are played: batches of up to the cap, or BALROG's protocol (one, --More-- answered). */
function turnText(c: InstructionsContext, balrog: boolean): string[] {
  if (balrog)
    return [
      "   One action per turn is executed (BALROG's protocol). The harness answers every `--More--` after each",
      "   action and joins its messages on `[MESSAGE]`. An entry that is no action is played as `esc`, and the",
      "   next prompt says so. Prompts take letters (`y`, `n`, an item letter); `esc` cancels.",
    ];
  return [
    `   At most ${c.actionCap} actions per turn are executed. The rest of a batch is dropped when you lose HP, the`,
    "   dungeon level changes, a new monster appears, or one action takes many turns. Unknown names are dropped",
    "   with a warning. When the message line ends in `--More--`, send `more`. Prompts take letters (`y`, `n`, an",
    "   item letter); `esc` cancels.",
  ];
}

/** The kind's own settings the text depends on (--protocol). */
interface NethackRun {
  readonly protocol?: string | undefined;
}

export function nethackInstructions(c: InstructionsContext, run?: NethackRun): string {
  const balrog = run?.protocol === "balrog";
  return [
    "# Playing NetHack",
    "",
    "You are playing NetHack 3.6 (the real game, in an 80x24 terminal). Goal: go as deep into the dungeon and",
    "gain as many experience levels as you can without dying. The score is BALROG's progression: the share of",
    "human games reaching your deepest dungeon level or highest experience level that went on to win.",
    "",
    ...memoryText(c),
    ...(c.observe && c.window.kind !== "none"
      ? ["", "An `observe` tool (no arguments) also returns the current screen and the last batch's sections, read-only."]
      : []),
    "",
    "## What you do each turn",
    '1. Study the evidence. 2. Write `actions.json` in this directory: {"actions": ["far east", "search", "more"]}.',
    ...turnText(c, balrog),
    planText(c),
    ...c.tools,
    "",
    ...lifetimeText(c, balrog),
    ...c.workspace,
    "",
    "## Actions",
    actionHelpText(),
    "",
  ].join("\n");
}
