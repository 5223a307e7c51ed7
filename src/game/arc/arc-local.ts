// --env arc-local: a real ARC-AGI-3 game, run by ARC's own engine in a Python child process (the bridge),
// behind the same GameEnv the committed games use. Game files come from a games directory in the toolkit's
// layout (games-dir.ts); baselines come from its metadata.json and feed RHAE.
import { err, ok, type Result } from "neverthrow";
import * as v from "valibot";
import { prolongError, type ProlongError } from "../../errors.ts";
import type { GameEnv } from "../env.ts";
import type { Action, ActionId, FrameData, GameInfo, GameState, Grid } from "../../game-model.ts";
import { BridgeProcess } from "./bridge-process.ts";
import { findArcGame, type ArcGameEntry } from "./games-dir.ts";

export interface ArcLocalOptions {
  /** The games directory (<id>/<version>/<id>.py + metadata.json). */
  readonly gamesDir: string;
  /** "ft09" (latest version) or "ft09-0d8bbf25". */
  readonly game: string;
  readonly seed: number;
  /** Interpreter; default PROLONG_PYTHON, else python3. */
  readonly python?: string;
  /** Directory holding arcengine/; default PROLONG_ARC_ENGINE. */
  readonly engineDir?: string;
}

const STATES = ["NOT_PLAYED", "NOT_FINISHED", "WIN", "GAME_OVER"] as const;
const ActionIdSchema = v.picklist([0, 1, 2, 3, 4, 5, 6, 7] as const);

const ReadySchema = v.variant("ready", [
  v.object({ ready: v.literal(true), python: v.string(), arcengine: v.string() }),
  v.object({ ready: v.literal(false), code: v.string(), message: v.string(), fix: v.string() }),
]);

const ReplySchema = v.variant("ok", [
  v.object({
    ok: v.literal(true),
    width: v.pipe(v.number(), v.integer(), v.minValue(1)),
    height: v.pipe(v.number(), v.integer(), v.minValue(1)),
    frames: v.pipe(v.array(v.string()), v.minLength(1, "a step returned no frame")),
    state: v.picklist(STATES),
    levels_completed: v.pipe(v.number(), v.integer(), v.minValue(0)),
    win_levels: v.pipe(v.number(), v.integer(), v.minValue(0)),
    available_actions: v.array(ActionIdSchema),
  }),
  v.object({ ok: v.literal(false), message: v.string() }),
]);

/** One hex digit per cell, row-major → Grid; undefined when the text is not width*height hex digits. */
export function hexToGrid(text: string, width: number, height: number): Grid | undefined {
  if (text.length !== width * height) return undefined;
  const cells = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1;
    if (d < 0) return undefined;
    cells[i] = d;
  }
  return { width, height, cells };
}

export function arcLocalEnv(o: ArcLocalOptions): Result<GameEnv, ProlongError> {
  const entry = findArcGame(o.gamesDir, o.game);
  if (entry.isErr()) return err(entry.error);
  const e = entry.value;
  const bridge = BridgeProcess.spawn({
    ...((o.python ?? process.env.PROLONG_PYTHON) ? { python: (o.python ?? process.env.PROLONG_PYTHON) as string } : {}),
    ...((o.engineDir ?? process.env.PROLONG_ARC_ENGINE)
      ? { engineDir: (o.engineDir ?? process.env.PROLONG_ARC_ENGINE) as string }
      : {}),
    gameFile: e.gameFile,
    className: e.className,
    gameId: e.gameId,
    seed: o.seed,
  });
  if (bridge.isErr()) return err(bridge.error);
  return ok(new ArcLocalEnv(e, bridge.value));
}

class ArcLocalEnv implements GameEnv {
  private current: GameInfo;
  private ready: Promise<Result<void, ProlongError>> | null = null;
  /** Requests run one after another even if a caller does not await. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly entry: ArcGameEntry,
    private readonly bridge: BridgeProcess,
  ) {
    this.current = {
      id: entry.gameId,
      title: entry.title,
      winLevels: entry.baselineActions.length,
      availableActions: [],
      baselineActions: entry.baselineActions,
      tags: entry.tags,
    };
  }

  /** Level count and actions are only known once the engine has answered; until then metadata's. */
  get info(): GameInfo {
    return this.current;
  }

  reset(): Promise<Result<FrameData, ProlongError>> {
    return this.step({ id: 0 });
  }

  step(action: Action): Promise<Result<FrameData, ProlongError>> {
    const run = this.queue.then(() => this.request(action));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    await this.bridge.close();
  }

  private handshake(): Promise<Result<void, ProlongError>> {
    this.ready ??= (async () => {
      const line = await this.bridge.readLine();
      if (line.isErr()) return err(line.error);
      const parsed = parseJson(line.value, ReadySchema);
      if (!parsed)
        return err(
          this.bridge.died(`sent a start-up line that is not the bridge protocol: ${JSON.stringify(line.value.slice(0, 200))}`),
        );
      if (!parsed.ready) {
        const path = parsed.code === "game-file" ? this.entry.gameFile : undefined;
        const tail = this.bridge.tail();
        const detail = parsed.code === "game-file" && tail ? `\n${tail.split("\n").slice(-6).join("\n")}` : "";
        return err(prolongError(parsed.code, parsed.message + detail, { fix: parsed.fix, ...(path ? { path } : {}) }));
      }
      return ok(undefined);
    })();
    return this.ready;
  }

  private async request(action: Action): Promise<Result<FrameData, ProlongError>> {
    const started = await this.handshake();
    if (started.isErr()) return err(started.error);
    const sent = this.bridge.send(
      action.id === 6 ? { op: "step", id: 6, x: action.x, y: action.y } : { op: "step", id: action.id },
    );
    if (sent.isErr()) return err(sent.error);
    const line = await this.bridge.readLine();
    if (line.isErr()) return err(line.error);
    const reply = parseJson(line.value, ReplySchema);
    if (!reply)
      return err(this.bridge.died(`sent a reply that is not the bridge protocol: ${JSON.stringify(line.value.slice(0, 200))}`));
    if (!reply.ok) {
      const tail = this.bridge.tail().split("\n").slice(-8).join("\n");
      return err(
        prolongError(
          "game-error",
          `${this.entry.gameId} raised on ${action.id === 0 ? "RESET" : `ACTION${action.id}`}: ${reply.message}${tail ? `\n${tail}` : ""}`,
          { path: this.entry.gameFile, fix: "a bug in the game file or the engine; the run is resumable once it is fixed" },
        ),
      );
    }
    const frames: Grid[] = [];
    for (const text of reply.frames) {
      const g = hexToGrid(text, reply.width, reply.height);
      if (!g) return err(this.bridge.died(`sent a frame that is not ${reply.width}x${reply.height} hex digits`));
      frames.push(g);
    }
    const available = reply.available_actions as ActionId[];
    this.current = { ...this.current, winLevels: reply.win_levels, availableActions: available };
    return ok({
      frames,
      state: reply.state as GameState,
      levelsCompleted: reply.levels_completed,
      winLevels: reply.win_levels,
      availableActions: available,
    });
  }
}

function parseJson<T>(line: string, schema: v.GenericSchema<unknown, T>): T | undefined {
  try {
    const r = v.safeParse(schema, JSON.parse(line));
    return r.success ? r.output : undefined;
  } catch {
    return undefined;
  }
}
