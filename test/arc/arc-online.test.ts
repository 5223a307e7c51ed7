// --env arc-online against a stand-in of ARC's REST service (arc-api-server.ts): the same game through the
// API writes the same log as played locally; the key, the session cookie, retries on 429/5xx, the keep-alive,
// the server's scorecard saved beside ours, and the rate limiter's arithmetic.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { arcOnlineEnv, type ArcOnlineEnv } from "../../src/game/arc/arc-online.ts";
import { backoffMs, RateLimiter } from "../../src/game/arc/rate-limit.ts";
import { playGame } from "../run/helpers.ts";
import { FAKE_ARC_KEY, startFakeArc, type FakeArc } from "./arc-api-server.ts";

let arc: FakeArc;
const saved = { key: process.env.ARC_API_KEY, url: process.env.PROLONG_ARC_URL };
beforeAll(() => {
  arc = startFakeArc(["glide", "lumen"]);
  process.env.ARC_API_KEY = FAKE_ARC_KEY;
  process.env.PROLONG_ARC_URL = arc.url;
});
afterAll(() => {
  arc.stop();
  for (const [k, v] of [
    ["ARC_API_KEY", saved.key],
    ["PROLONG_ARC_URL", saved.url],
  ] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe("arc-online through the REST API", () => {
  test("plays a game to the same log, score and RHAE as the local engine; saves the server's scorecard and the replay link", async () => {
    const local = await playGame({ game: "glide", maxActions: 40 });
    const before = arc.requests.length;
    const online = await playGame({ game: "glide", env: "arc-online", maxActions: 40 });
    expect(online.master).toBe(local.master);
    expect(online.summary.rhae).toBe(local.summary.rhae);
    expect(online.summary.levelsCompleted).toBe(local.summary.levelsCompleted);
    const mine = arc.requests.slice(before);
    const cmds = mine.filter((r) => r.path.startsWith("/api/cmd/"));
    expect(cmds.length).toBe(41); // the initial RESET + 40 actions
    expect(cmds.every((r) => r.cookie)).toBe(true);
    expect(cmds.slice(1).every((r) => typeof r.body.guid === "string")).toBe(true);
    expect(mine.at(-1)!.path).toBe("/api/scorecard/close");
    const opened = mine.find((r) => r.path === "/api/scorecard/open")!;
    expect(opened.body.tags).toEqual(["prolong"]);
    const saved = JSON.parse(readFileSync(join(online.session.paths.dir, "arc-scorecard.json"), "utf8"));
    expect(arc.closedCards).toContain(saved.card_id);
    expect(saved.scorecard.card_id).toBe(saved.card_id);
    expect(saved.scorecard.environments[0].runs[0].actions).toBe(41);
    expect(saved.replay_url).toBe(`${arc.url}/replay/glide/${saved.guid}`);
    expect(readFileSync(online.session.paths.summary, "utf8")).toContain(`replay     ${saved.replay_url}`);
  });

  test("429 and 503 are retried (Retry-After honoured); a service that stays down is an error after the last try", async () => {
    const env = arcOnlineEnv({ game: "glide", maxRetries: 2 })._unsafeUnwrap() as ArcOnlineEnv;
    try {
      expect((await env.reset()).isOk()).toBe(true);
      arc.failNext(429, 2, "0");
      const n = env.api.requests;
      const r = await env.step({ id: 1 });
      expect(r.isOk()).toBe(true);
      expect(env.api.requests - n).toBe(3);
      arc.failNext(503, 3, "0");
      const down = await env.step({ id: 1 });
      const e = down._unsafeUnwrapErr();
      expect(e.code).toBe("arc-api");
      expect(e.message).toBe("POST /api/cmd/ACTION1: gave up after 3 tries; last: HTTP 503: busy");
      expect(e.fix).toContain("prolong resume");
    } finally {
      await env.close();
    }
  });

  test("a wrong key is refused with the server's message and how to set the key; no key at all is caught before any request", async () => {
    const env = arcOnlineEnv({ game: "glide", apiKey: "wrong" })._unsafeUnwrap();
    const e = (await env.reset())._unsafeUnwrapErr();
    expect(e.message).toBe("POST /api/scorecard/open: HTTP 401: invalid or missing X-API-Key");
    expect(e.fix).toContain("ARC_API_KEY");
    const key = process.env.ARC_API_KEY;
    delete process.env.ARC_API_KEY;
    try {
      expect(arcOnlineEnv({ game: "glide" })._unsafeUnwrapErr().code).toBe("no-api-key");
    } finally {
      process.env.ARC_API_KEY = key;
    }
  });

  test("while nothing is sent for longer than the keep-alive interval, the scorecard is touched", async () => {
    // A hand-driven clock: time moves only when the test says, and ticks run when the test fires them.
    let now = 1_000_000;
    const ticks: (() => void)[] = [];
    const clock = { now: () => now, every: (_ms: number, tick: () => void) => (ticks.push(tick), () => ticks.splice(0)) };
    const env = arcOnlineEnv({ game: "glide", keepAliveMs: 30, clock })._unsafeUnwrap() as ArcOnlineEnv;
    try {
      expect((await env.reset()).isOk()).toBe(true);
      expect(ticks.length).toBe(1); // the keep-alive timer was started through the clock
      const touches = () => arc.requests.filter((r) => r.method === "GET" && r.path.startsWith("/api/scorecard/")).length;
      const first = touches();
      now += 29; // still within the interval since the last request: no touch
      expect(await env.heartbeat()).toBe(false);
      expect(touches()).toBe(first);
      now += 1; // idle for exactly the interval: touched
      expect(await env.heartbeat()).toBe(true);
      expect(touches()).toBe(first + 1);
      expect(await env.heartbeat()).toBe(false); // the touch was itself a request, so the idle time starts again
      now += 30; // an agent thinking on
      expect(await env.heartbeat()).toBe(true);
      expect(env.heartbeats).toBe(2);
      expect(touches()).toBe(first + 2);
      expect(env.info.baselineActions.length).toBeGreaterThan(0); // learned from the scorecard for RHAE
    } finally {
      await env.close();
    }
    expect(ticks.length).toBe(0); // close() stopped the timer
  });
});

describe("rate limit and backoff arithmetic", () => {
  test("600 a minute: the 601st request waits until the first leaves the window", () => {
    const l = new RateLimiter(600, 60_000);
    for (let i = 0; i < 600; i++) {
      expect(l.delayFor(1000 + i)).toBe(0);
      l.record(1000 + i);
    }
    expect(l.delayFor(2000)).toBe(1000 + 60_000 - 2000);
    expect(l.delayFor(61_000)).toBe(0); // the first request has left the window
    l.record(61_000);
    expect(l.delayFor(61_000)).toBe(1001 + 60_000 - 61_000);
  });

  test("backoff doubles from half a second up to 30 s; Retry-After wins", () => {
    expect([0, 1, 2, 3, 10].map((a) => backoffMs(a, null))).toEqual([500, 1000, 2000, 4000, 30_000]);
    expect(backoffMs(3, "2")).toBe(2000);
    expect(backoffMs(0, "soon")).toBe(500);
  });
});
