// --env arc-online: a game played on ARC-AGI-3's service through its REST API, behind the same GameEnv as
// every other game. The first reset opens a scorecard (tagged), RESET starts a session whose guid every
// later action carries; while the agent thinks, a keep-alive touches the scorecard so the service does not
// close it as idle; close() closes the scorecard and reports the server's scorecard and the replay link
// through the run's EnvContext (the run writes arc-scorecard.json and two lines of summary.txt).
import { err, ok, type Result } from "neverthrow";
import * as v from "valibot";
import { realClock, type Clock } from "../../clock.ts";
import { prolongError, type ProlongError } from "../../errors.ts";
import { NO_ENV_CONTEXT, type EnvContext, type GameEnv } from "../env.ts";
import type { Action, ActionId, FrameData, GameInfo, GameState, Grid } from "../../game-model.ts";
import { ArcApi } from "./arc-api.ts";

export const DEFAULT_ARC_URL = "https://three.arcprize.org";
/** The service closes scorecards idle for 15 minutes; touch it well before. */
const DEFAULT_KEEP_ALIVE_MS = 5 * 60_000;

export interface ArcOnlineOptions {
  readonly game: string;
  /** Default PROLONG_ARC_URL, else https://three.arcprize.org. */
  readonly baseUrl?: string;
  /** Default ARC_API_KEY. */
  readonly apiKey?: string;
  /** Scorecard tags; "prolong" is always added. */
  readonly tags?: readonly string[];
  readonly requestsPerMinute?: number;
  readonly maxRetries?: number;
  /** Idle time after which the scorecard is touched (default 5 min). */
  readonly keepAliveMs?: number;
  /** Time and timers; injected so tests drive the keep-alive by hand instead of sleeping (default: the real ones). */
  readonly clock?: Clock;
  /** Where close() reports the server's scorecard (default: nowhere). */
  readonly context?: EnvContext;
}

const Cell = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(15));
const FrameSchema = v.looseObject({
  game_id: v.string(),
  guid: v.nullish(v.string()),
  frame: v.array(v.array(v.array(Cell))),
  state: v.picklist(["NOT_PLAYED", "NOT_FINISHED", "WIN", "GAME_OVER"] as const),
  levels_completed: v.pipe(v.number(), v.integer(), v.minValue(0)),
  win_levels: v.pipe(v.number(), v.integer(), v.minValue(0)),
  available_actions: v.optional(v.array(v.picklist([0, 1, 2, 3, 4, 5, 6, 7] as const)), []),
});
const OpenSchema = v.looseObject({ card_id: v.pipe(v.string(), v.minLength(1)) });
const GameInfoSchema = v.looseObject({ game_id: v.string(), title: v.nullish(v.string()), tags: v.nullish(v.array(v.string())) });
/** What we read from GET /api/scorecard/<card_id>: each game's runs with their baselines, when the service shares them. */
const CardSchema = v.looseObject({
  environments: v.optional(
    v.array(
      v.looseObject({
        id: v.string(),
        runs: v.optional(v.array(v.looseObject({ level_baseline_actions: v.optional(v.array(v.number())) }))),
      }),
    ),
  ),
});

function rowsToGrid(rows: number[][]): Grid | undefined {
  const height = rows.length;
  const width = rows[0]?.length ?? 0;
  if (height === 0 || width === 0 || rows.some((r) => r.length !== width)) return undefined;
  const cells = new Uint8Array(width * height);
  rows.forEach((r, y) => cells.set(r, y * width));
  return { width, height, cells };
}

export function arcOnlineEnv(o: ArcOnlineOptions): Result<GameEnv, ProlongError> {
  const apiKey = o.apiKey ?? process.env.ARC_API_KEY;
  if (!apiKey) {
    return err(
      prolongError("no-api-key", "--env arc-online needs an ARC API key in ARC_API_KEY", {
        fix: "export ARC_API_KEY=<your key> (get one at https://three.arcprize.org); or play offline with --env arc-local",
      }),
    );
  }
  const baseUrl = o.baseUrl ?? process.env.PROLONG_ARC_URL ?? DEFAULT_ARC_URL;
  const api = new ArcApi({
    baseUrl,
    apiKey,
    now: (o.clock ?? realClock).now,
    ...(o.requestsPerMinute ? { requestsPerMinute: o.requestsPerMinute } : {}),
    ...(o.maxRetries !== undefined ? { maxRetries: o.maxRetries } : {}),
  });
  return ok(new ArcOnlineEnv(o, api));
}

export class ArcOnlineEnv implements GameEnv {
  private current: GameInfo;
  private cardId: string | null = null;
  private guid: string | null = null;
  private stopKeepAlive: (() => void) | null = null;
  private readonly keepAliveMs: number;
  private readonly clock: Clock;
  private readonly context: EnvContext;
  /** Scorecard touches sent by the keep-alive. */
  heartbeats = 0;

  constructor(
    private readonly o: ArcOnlineOptions,
    readonly api: ArcApi,
  ) {
    this.keepAliveMs = o.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS;
    this.clock = o.clock ?? realClock;
    this.context = o.context ?? NO_ENV_CONTEXT;
    this.current = { id: o.game, title: o.game, winLevels: 0, availableActions: [], baselineActions: [], tags: [] };
  }

  get info(): GameInfo {
    return this.current;
  }

  get links(): { scorecard: string | null; replay: string | null } {
    const base = this.api.baseUrl;
    return {
      scorecard: this.cardId ? `${base}/scorecards/${this.cardId}` : null,
      replay: this.guid ? `${base}/replay/${this.current.id}/${this.guid}` : null,
    };
  }

  async reset(): Promise<Result<FrameData, ProlongError>> {
    if (!this.cardId) {
      const opened = await this.open();
      if (opened.isErr()) return err(opened.error);
      const first = await this.step({ id: 0 });
      if (first.isOk()) await this.touch(); // the scorecard now lists the game, with its baselines for RHAE
      return first;
    }
    return this.step({ id: 0 });
  }

  async step(action: Action): Promise<Result<FrameData, ProlongError>> {
    if (!this.cardId) return err(prolongError("arc-online", "an action before the first RESET: no scorecard is open"));
    const name = action.id === 0 ? "RESET" : `ACTION${action.id}`;
    const body: Record<string, unknown> = { game_id: this.current.id, ...(this.guid ? { guid: this.guid } : {}) };
    if (action.id === 0) body.card_id = this.cardId;
    if (action.id === 6) Object.assign(body, { x: action.x, y: action.y });
    if (action.id !== 0 && !this.guid)
      return err(prolongError("arc-online", `${name} before the first RESET: no game session yet`));
    const reply = await this.api.call("POST", `/api/cmd/${name}`, body);
    if (reply.isErr()) return err(reply.error);
    const parsed = v.safeParse(FrameSchema, reply.value);
    if (!parsed.success) {
      const issue = parsed.issues[0];
      return err(
        prolongError(
          "arc-api",
          `POST /api/cmd/${name}: the reply is not a frame (${issue.path?.map((p) => String(p.key)).join(".") ?? "reply"}: ${issue.message})`,
          { fix: "is PROLONG_ARC_URL an ARC-AGI-3 API?" },
        ),
      );
    }
    const f = parsed.output;
    if (f.guid) this.guid = f.guid;
    const frames: Grid[] = [];
    for (const rows of f.frame) {
      const g = rowsToGrid(rows);
      if (!g) return err(prolongError("arc-api", `POST /api/cmd/${name}: a frame whose rows differ in length`));
      frames.push(g);
    }
    if (frames.length === 0)
      return err(prolongError("arc-api", `POST /api/cmd/${name}: a reply with no frame`, { fix: "send RESET first" }));
    const available = f.available_actions as ActionId[];
    this.current = { ...this.current, id: f.game_id || this.current.id, winLevels: f.win_levels, availableActions: available };
    return ok({
      frames,
      state: f.state as GameState,
      levelsCompleted: f.levels_completed,
      winLevels: f.win_levels,
      availableActions: available,
    });
  }

  async close(): Promise<void> {
    this.stopKeepAlive?.();
    this.stopKeepAlive = null;
    if (!this.cardId) return;
    const closed = await this.api.call("POST", "/api/scorecard/close", { card_id: this.cardId });
    const record = {
      card_id: this.cardId,
      game_id: this.current.id,
      guid: this.guid,
      scorecard_url: this.links.scorecard,
      replay_url: this.links.replay,
      requests: this.api.requests,
      heartbeats: this.heartbeats,
      ...(closed.isOk() ? { scorecard: closed.value } : { close_error: closed.error.message }),
    };
    this.cardId = null;
    this.context.saveFile("arc-scorecard.json", JSON.stringify(record, null, 2) + "\n");
    if (record.replay_url) {
      this.context.summaryLine(`  replay     ${record.replay_url}`);
      this.context.summaryLine(`  scorecard  ${record.scorecard_url}`);
    }
  }

  /** Opens the scorecard and learns the game's title and, when shared, its baselines. */
  private async open(): Promise<Result<void, ProlongError>> {
    const info = await this.api.call("GET", `/api/games/${encodeURIComponent(this.o.game)}`);
    if (info.isOk()) {
      const g = v.safeParse(GameInfoSchema, info.value);
      if (g.success)
        this.current = {
          ...this.current,
          id: g.output.game_id,
          title: g.output.title ?? g.output.game_id,
          tags: g.output.tags ?? [],
        };
    }
    const tags = ["prolong", ...(this.o.tags ?? [])];
    const opened = await this.api.call("POST", "/api/scorecard/open", {
      tags,
      source_url: "https://github.com/prolong",
      opaque: { harness: "prolong" },
    });
    if (opened.isErr()) return err(opened.error);
    const card = v.safeParse(OpenSchema, opened.value);
    if (!card.success)
      return err(
        prolongError("arc-api", "POST /api/scorecard/open: the reply has no card_id", {
          fix: "is PROLONG_ARC_URL an ARC-AGI-3 API?",
        }),
      );
    this.cardId = card.output.card_id;
    this.startKeepAlive();
    return ok(undefined);
  }

  /** While nothing else is sent (an agent thinking for minutes), touch the scorecard so it is not closed as idle. */
  private startKeepAlive(): void {
    const tick = Math.max(10, Math.min(this.keepAliveMs, 60_000) / 2);
    this.stopKeepAlive = this.clock.every(tick, () => void this.heartbeat());
  }

  /** One keep-alive tick: touches the scorecard when nothing was sent for the keep-alive interval; says whether it did. */
  async heartbeat(): Promise<boolean> {
    if (!this.cardId || this.clock.now() - this.api.lastRequestAt < this.keepAliveMs) return false;
    this.heartbeats++;
    await this.touch();
    return true;
  }

  /** GET the scorecard: keeps the card alive and, when the service shares them, gives the game's baselines. */
  async touch(): Promise<void> {
    if (!this.cardId) return;
    const r = await this.api.call("GET", `/api/scorecard/${this.cardId}`);
    if (r.isErr()) return;
    const card = v.safeParse(CardSchema, r.value);
    const game = card.success ? card.output.environments?.find((e) => e.id === this.current.id) : undefined;
    const baselines = game?.runs?.find((x) => x.level_baseline_actions)?.level_baseline_actions;
    if (baselines && this.current.baselineActions.length === 0) this.current = { ...this.current, baselineActions: baselines };
  }
}
