// One NetHack episode: a seeded game in its own folder, driven by named actions, observed after each one.
// What a step reports besides the new screen is what the batch rules need (HP lost, level changed, a new
// monster, many turns at once) and what the log needs (the inventory when it changed, prompts escaped, the
// end of the game).
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../../errors.ts";
import type { NamedAction } from "./actions.ts";
import type { Character } from "./character.ts";
import { launchNethack } from "./launch.ts";
import { levelFiles, levelSaved, type LevelFiles } from "./level-files.ts";
import { atCommand, endReason, inventoryPage, newMonster, type Point } from "./screen-read.ts";
import { parseStatus, statusAfter, type Status } from "./status.ts";
import type { GameTerminal, Screen } from "./terminal.ts";
import type { BwrapSupport } from "../../sandbox/bwrap.ts";

export interface Observation {
  readonly screen: Screen;
  /** The screen's colours, one code per cell (terminal.ts COLOUR_CODES), taken with `screen`. */
  readonly colours: readonly string[];
  /** The last status the screen showed (a full-screen menu hides it). */
  readonly status: Status | undefined;
  /** The inventory lines, present only when they differ from the last ones written. */
  readonly inventory?: readonly string[];
  /** The inventory as last read, changed or not (what a prompt without the log shows). */
  readonly held: readonly string[];
  /** The messages of the --More-- prompts the harness answered in this step, joined (else the screen's top row). */
  readonly message?: string;
  /** Set once the game process has ended: death, quit, or a crash. */
  readonly ended?: string;
}

export interface StepEffect {
  readonly hpLost: number;
  readonly dlvlChanged: boolean;
  readonly newMonster?: string;
  readonly turns: number;
  /** Keys the harness sent to get out of a prompt nobody answered, with why. */
  readonly escaped?: string;
}

export interface NethackGameOptions {
  readonly folder: string;
  readonly seed: number;
  readonly character: Character;
  readonly answerTimeoutMs?: number;
  /** Actions in a row that leave the game in the same prompt or menu before the harness sends Esc. */
  readonly stuckAfter?: number;
  /** Debug mode (-D; needs the user in sysconf's WIZARDS): for tests that need a state short play cannot reach. */
  readonly wizard?: boolean;
  /**
   * Which --More-- prompts the harness answers after an action, joining their messages: "level" (the default)
   * only those that hold back a level change, so the change counts on the action that caused it as in BALROG,
   * where every --More-- is answered; "all" every one (BALROG's protocol). The others are the agent's.
   */
  readonly pressMore?: "level" | "all";
  /** The sandbox the game runs in (confine.ts); absent: unconfined, as the harness's user (--sandbox none). */
  readonly sandbox?: BwrapSupport;
}

/** --More-- prompts answered in a row after one action at most: a longer chain is left to the agent. */
const MORE_CHAIN = 32;

function hasMore(s: Screen): boolean {
  return s.rows.some((r) => r.includes("--More--"));
}

/** Actions after which the inventory may have changed (moves, search and rest cannot change it). */
const INVENTORY_STILL = new Set([
  "north",
  "east",
  "south",
  "west",
  "northeast",
  "southeast",
  "southwest",
  "northwest",
  "far north",
  "far east",
  "far south",
  "far west",
  "far northeast",
  "far southeast",
  "far southwest",
  "far northwest",
  "search",
  "wait",
  "up",
  "down",
  "esc",
  "look",
  "whatis",
  "inventory",
  "travel",
]);

/** Actions that are the first half of a command: the game waits for their direction, not for a command. */
const PREFIXES = new Set(["fight"]);

/**
 * Messages after which the inventory may have changed though the action could not change it by itself:
 * a theft, an item damaged, destroyed, picked up or dropped, the pack lightened or weighed. Broad on
 * purpose — a needless read costs two keys and no game time, a missed one leaves the log's inventory stale.
 */
const INVENTORY_MESSAGE =
  /\b(?:steal|stole|snatch|seduce|rust|corrode|burn|rot|smoulder|dissolve|explode|shatter|destroy|break|crumble|disintegrat|dilute|fade|vanish|disappear|pick|drop|slip|lift|carry|pack|bag|gold|curse|bless|glow|wield|wear|put on|take off|remov|fall|lose|lost|stolen|now have|engulf|digest|dig)/i;

/** Actions after which the inventory is read again even when nothing pointed to a change. */
export const INVENTORY_EVERY = 50;

/**
 * Whether to read the inventory after a step: an action that can change it, a message that says something
 * happened to an item, gold or the burden changing, a new level, or INVENTORY_EVERY actions without a read
 * (what no message showed: a --More-- chain answered in a batch, a silent theft).
 */
export function inventoryReadDue(s: {
  action: string;
  message: string;
  prev: Status | undefined;
  cur: Status | undefined;
  since: number;
}): boolean {
  // The F prefix leaves the game waiting for a direction with the cursor on the hero, as if at a command:
  // a read's 'i' would be taken as that direction and cancel the fight the agent's next action aims.
  if (PREFIXES.has(s.action)) return false;
  if (!INVENTORY_STILL.has(s.action)) return true;
  if (INVENTORY_MESSAGE.test(s.message)) return true;
  const { prev, cur } = s;
  if (prev && cur && (prev.gold !== cur.gold || prev.encumbrance !== cur.encumbrance || prev.dlvl !== cur.dlvl)) return true;
  return s.since >= INVENTORY_EVERY;
}

export class NethackGame {
  private status: Status | undefined;
  private inventory: readonly string[] = [];
  /** Actions since the inventory was last read. */
  private sinceInventory = 0;
  private stuck = 0;
  /** How the game ended, once a screen has said so (the last screens before exit may not). */
  private ending: string | undefined;
  /** Where the hero stands: the cursor while the game waits for a command, else where it last was. */
  private hero: Point;
  /** The game folder's level files as the last step left them (level-files.ts). */
  private levelFiles: LevelFiles;

  private constructor(
    private readonly term: GameTerminal,
    private readonly opts: NethackGameOptions,
  ) {
    this.status = statusOf(term.screen());
    this.hero = term.screen().cursor;
    this.levelFiles = levelFiles(opts.folder);
  }

  static async start(opts: NethackGameOptions): Promise<Result<{ game: NethackGame; observation: Observation }, ProlongError>> {
    const started = await launchNethack(opts);
    if (started.isErr()) return err(started.error);
    const game = new NethackGame(started.value, opts);
    const first = started.value.screen(); // before the inventory read clears the welcome message
    const colours = started.value.colours(first);
    const inv = await game.readInventory();
    if (inv.isErr()) return err(inv.error);
    return ok({ game, observation: game.observation(inv.value, first, colours) });
  }

  get pid(): number {
    return this.term.pid;
  }

  screen(): Screen {
    return this.term.screen();
  }

  async step(action: NamedAction): Promise<Result<{ observation: Observation; effect: StepEffect }, ProlongError>> {
    const before = this.term.screen();
    const heroBefore = this.hero;
    const prev = this.status;
    const pressed = await this.term.press(action.keys);
    if (pressed.isErr()) return err(pressed.error);
    let escaped: string | undefined;
    const now = this.term.screen();
    if (this.term.exited === null && !atCommand(now) && sameScreen(before, now)) {
      this.stuck++;
      if (this.stuck >= (this.opts.stuckAfter ?? 30)) {
        escaped = `the game stayed in the same prompt for ${this.stuck} actions: sent Esc`;
        this.stuck = 0;
        const esc = await this.term.press("\x1b\x1b\x1b");
        if (esc.isErr()) return err(esc.error);
      }
    } else {
      this.stuck = 0;
    }
    const joined = await this.answerMore();
    if (joined.isErr()) return err(joined.error);
    const message = joined.value ?? this.term.screen().rows[0] ?? "";
    const after = this.term.screen();
    const colours = this.term.colours(after);
    this.ending = this.ending ?? endReason(after);
    const crashed = this.crash(after);
    if (crashed) return err(crashed);
    const read = statusOf(after);
    this.status = read ? statusAfter(read, this.status) : this.status;
    if (atCommand(after)) this.hero = after.cursor;
    let inventory: readonly string[] | undefined;
    const cur = this.status;
    this.sinceInventory++;
    const due = inventoryReadDue({ action: action.name, message, prev, cur, since: this.sinceInventory });
    if (this.term.exited === null && due) {
      const inv = await this.readInventory();
      if (inv.isErr()) return err(inv.error);
      inventory = inv.value;
    }
    this.levelFiles = levelFiles(this.opts.folder);
    const effect: StepEffect = {
      hpLost: prev && cur ? Math.max(0, prev.hp - cur.hp) : 0,
      dlvlChanged: prev !== undefined && cur !== undefined && (prev.dlvl !== cur.dlvl || prev.place !== cur.place),
      turns: prev && cur ? cur.turn - prev.turn : 0,
      ...(escaped ? { escaped } : {}),
      ...withMonster(newMonster(before, heroBefore, after, this.hero)),
    };
    // The screen as the action left it: the inventory read above clears the message line.
    const observation = this.observation(inventory, after, colours);
    return ok({ observation: joined.value === undefined ? observation : { ...observation, message }, effect });
  }

  /**
   * Answers the --More-- prompts this step left that the options give to the harness (pressMore), one Enter
   * each while the game shows one, and returns their messages joined; undefined when it answered none. A
   * prompt holds a level change back when the game saved a level file during the step.
   */
  private async answerMore(): Promise<Result<string | undefined, ProlongError>> {
    const mode = this.opts.pressMore ?? "level";
    if (this.term.exited !== null || !hasMore(this.term.screen())) return ok(undefined);
    if (mode === "level" && !levelSaved(this.levelFiles, levelFiles(this.opts.folder))) return ok(undefined);
    const messages: string[] = [];
    for (let i = 0; i < MORE_CHAIN && this.term.exited === null && hasMore(this.term.screen()); i++) {
      const screen = this.term.screen();
      this.ending = this.ending ?? endReason(screen);
      const shown = (screen.rows[0] ?? "").replace("--More--", "").trim();
      if (shown !== "") messages.push(shown);
      const pressed = await this.term.press("\r");
      if (pressed.isErr()) return err(pressed.error);
    }
    const last = this.term.exited === null ? (this.term.screen().rows[0] ?? "").trim() : "";
    if (last !== "" && !hasMore(this.term.screen())) messages.push(last);
    return ok(messages.join(" "));
  }

  /**
   * A game process that ended with a non-zero code and no ending on its screens crashed (or was killed):
   * an error, not the end of the episode, so no section records it — the run ends game-failed with the log
   * as it was, and resume replays the log into a fresh game. NetHack's own endings exit with code 0.
   */
  private crash(now: Screen): ProlongError | undefined {
    const code = this.term.exited;
    if (code === null || code === 0 || this.ending !== undefined) return undefined;
    const last = now.rows
      .map((r) => r.trim())
      .filter(Boolean)
      .join(" | ")
      .slice(0, 200);
    return prolongError("nethack-crashed", `NetHack exited with code ${code} without ending the game (last screen: ${last})`, {
      fix: "the run stops with its log intact; `prolong resume` replays the log into a fresh game and goes on",
    });
  }

  /**
   * Reads the inventory menu ('i', every page, Esc) when the game waits for a command; returns the lines
   * only when they changed. Showing the inventory takes no game time and draws no random numbers. When what
   * the 'i' brought up is not the inventory (a game message: the game was waiting for more than a command),
   * nothing is recorded and the inventory stays as last read.
   */
  private async readInventory(): Promise<Result<readonly string[] | undefined, ProlongError>> {
    if (!atCommand(this.term.screen())) return ok(undefined);
    const lines: string[] = [];
    let read = true;
    let pressed = await this.term.press("i");
    for (let page = 0; pressed.isOk() && page < 10; page++) {
      const shown = inventoryPage(this.term.screen());
      if (!shown) {
        read = false;
        break;
      }
      lines.push(...shown.lines);
      if (!shown.more) break;
      pressed = await this.term.press(">");
    }
    if (pressed.isErr()) return err(pressed.error);
    const closed = await this.term.press("\x1b");
    if (closed.isErr()) return err(closed.error);
    if (!read) return ok(undefined);
    this.sinceInventory = 0;
    if (lines.join("\n") === this.inventory.join("\n")) return ok(undefined);
    this.inventory = lines;
    return ok(lines);
  }

  /** What the action left: `screen` and `colours` as taken before the inventory read cleared the message line. */
  private observation(inventory: readonly string[] | undefined, screen: Screen, colours: readonly string[]): Observation {
    const now = this.term.screen();
    const ended =
      this.term.exited !== null
        ? (this.ending ?? endReason(now) ?? `the game process exited (code ${this.term.exited})`)
        : undefined;
    return {
      screen,
      colours,
      held: this.inventory,
      status: this.status,
      ...(inventory ? { inventory } : {}),
      ...(ended ? { ended } : {}),
    };
  }

  async close(): Promise<void> {
    await this.term.close();
  }
}

function statusOf(s: Screen): Status | undefined {
  return parseStatus(s.rows[22] ?? "", s.rows[23] ?? "");
}

function sameScreen(a: Screen, b: Screen): boolean {
  return a.cursor.x === b.cursor.x && a.cursor.y === b.cursor.y && a.rows.every((r, i) => r === b.rows[i]);
}

function withMonster(m: string | undefined): { newMonster?: string } {
  return m === undefined ? {} : { newMonster: m };
}
