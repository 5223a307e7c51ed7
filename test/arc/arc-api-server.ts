// A stand-in for ARC-AGI-3's REST service, following the documented endpoints (reference-facts.md, and the
// toolkit's own server, arc_agi/server.py + api.py): GET /api/games[/<id>], POST /api/scorecard/open|close,
// GET /api/scorecard/<card>, POST /api/cmd/RESET|ACTION1..7. It serves the committed local games in
// ARC's frame shape, demands the X-API-Key header and the session cookie it set, and can be told to fail
// (429 / 5xx) so the client's retries are exercised. Runs in CI: no Python, no network.
import { createGame } from "../../src/game/catalog.ts";
import type { Action, FrameData, Game } from "../../src/game-model.ts";

export interface FakeArc {
  readonly url: string;
  /** Every request: method, path, whether the session cookie came back. */
  readonly requests: { method: string; path: string; cookie: boolean; body: Record<string, unknown> }[];
  /** Fail the next `count` /api/cmd requests with `status` (and Retry-After when given). */
  failNext(status: number, count: number, retryAfter?: string): void;
  readonly closedCards: string[];
  stop(): void;
}

const KEY = "test-key";
export const FAKE_ARC_KEY = KEY;
const COOKIE = "AWSALB";

function toArcFrame(gameId: string, guid: string, f: FrameData, actionId: number) {
  return {
    game_id: gameId,
    guid,
    frame: f.frames.map((g) =>
      Array.from({ length: g.height }, (_, y) => Array.from(g.cells.subarray(y * g.width, (y + 1) * g.width))),
    ),
    state: f.state,
    levels_completed: f.levelsCompleted,
    win_levels: f.winLevels,
    action_input: { id: actionId, data: {} },
    available_actions: f.availableActions,
    full_reset: false,
  };
}

export function startFakeArc(gameIds: readonly string[]): FakeArc {
  const requests: FakeArc["requests"] = [];
  const sessions = new Map<string, { game: Game; gameId: string; card: string; actions: number }>();
  const cards = new Map<string, { tags: string[]; guids: string[] }>();
  const closedCards: string[] = [];
  let failing = { status: 0, count: 0, retryAfter: undefined as string | undefined };
  const cookieValue = crypto.randomUUID();
  const json = (body: unknown, status = 200, headers: Record<string, string> = {}) => Response.json(body, { status, headers });
  const error = (status: number, message: string) =>
    json({ error: status === 400 ? "VALIDATION_ERROR" : "SERVER_ERROR", message }, status);
  const infoOf = (id: string) => {
    const g = createGame(id, { seed: 0 })._unsafeUnwrap();
    return { game_id: id, title: g.info.title, tags: [...g.info.tags], baselines: [...g.info.baselineActions] };
  };

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      const path = url.pathname;
      const body = req.method === "POST" ? ((await req.json().catch(() => ({}))) as Record<string, unknown>) : {};
      const cookie = (req.headers.get("cookie") ?? "").includes(`${COOKIE}=${cookieValue}`);
      requests.push({ method: req.method, path, cookie, body });
      if (req.headers.get("x-api-key") !== KEY) return error(401, "invalid or missing X-API-Key");

      if (req.method === "GET" && path === "/api/games")
        return json(
          gameIds.map((id) => {
            const { baselines: _, ...rest } = infoOf(id);
            return rest;
          }),
        );
      const gameMatch = /^\/api\/games\/([^/]+)$/.exec(path);
      if (req.method === "GET" && gameMatch) {
        const id = gameIds.find((g) => g === gameMatch[1] || g.startsWith(`${gameMatch[1]}-`));
        if (!id) return error(404, `game ${gameMatch[1]} not found`);
        const { baselines: _, ...rest } = infoOf(id);
        return json(rest);
      }
      if (req.method === "POST" && path === "/api/scorecard/open") {
        const card = crypto.randomUUID();
        const tags = Array.isArray(body.tags) ? (body.tags as string[]) : [];
        cards.set(card, { tags: [...tags, "agent"], guids: [] });
        return json({ card_id: card }, 200, { "Set-Cookie": `${COOKIE}=${cookieValue}; Path=/; HttpOnly` });
      }
      const cardMatch = /^\/api\/scorecard\/([^/]+)$/.exec(path);
      if (req.method === "GET" && cardMatch && cardMatch[1] !== "open" && cardMatch[1] !== "close") {
        const card = cards.get(cardMatch[1]!);
        if (!card) return error(404, `card_id \`${cardMatch[1]}\` not found`);
        const environments = card.guids.map((guid) => {
          const s = sessions.get(guid)!;
          return { id: s.gameId, runs: [{ guid, actions: s.actions, level_baseline_actions: infoOf(s.gameId).baselines }] };
        });
        return json({ card_id: cardMatch[1], tags: card.tags, environments });
      }
      if (req.method === "POST" && path === "/api/scorecard/close") {
        const id = String(body.card_id ?? "");
        const card = cards.get(id);
        if (!card) return error(404, `scorecard ${id} not found`);
        cards.delete(id);
        closedCards.push(id);
        return json({
          card_id: id,
          tags: card.tags,
          environments: card.guids.map((guid) => ({
            id: sessions.get(guid)!.gameId,
            runs: [{ guid, actions: sessions.get(guid)!.actions }],
          })),
        });
      }
      const cmd = /^\/api\/cmd\/(RESET|ACTION[1-7])$/.exec(path);
      if (req.method === "POST" && cmd) {
        if (failing.count > 0) {
          failing.count--;
          return new Response("busy", {
            status: failing.status,
            headers: failing.retryAfter !== undefined ? { "Retry-After": failing.retryAfter } : {},
          });
        }
        if (!cookie) return error(400, "session cookie missing: requests of one game must carry the cookie the service set");
        const gameId = String(body.game_id ?? "");
        const id = cmd[1] === "RESET" ? 0 : Number(cmd[1]!.slice(6));
        let guid = typeof body.guid === "string" ? body.guid : "";
        if (id === 0 && !guid) {
          const card = cards.get(String(body.card_id ?? ""));
          if (!card) return error(400, "RESET of a new game needs an open card_id");
          if (!gameIds.includes(gameId)) return error(400, `game ${gameId} not found`);
          guid = crypto.randomUUID();
          card.guids.push(guid);
          sessions.set(guid, {
            game: createGame(gameId, { seed: 0 })._unsafeUnwrap(),
            gameId,
            card: String(body.card_id),
            actions: 0,
          });
        }
        const s = sessions.get(guid);
        if (!s) return error(400, "missing `guid` for any action other than RESET");
        const action: Action = id === 6 ? { id: 6, x: Number(body.x), y: Number(body.y) } : ({ id } as Action);
        const frame = id === 0 ? s.game.reset() : s.game.step(action);
        s.actions++;
        return json(toArcFrame(gameId, guid, frame, id));
      }
      return error(404, `no route ${req.method} ${path}`);
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    closedCards,
    failNext(status, count, retryAfter) {
      failing = { status, count, retryAfter };
    },
    stop() {
      server.stop(true);
    },
  };
}
