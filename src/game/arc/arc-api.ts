// HTTP to ARC-AGI-3's REST API (facts: ../shared/notes/reference-facts.md): the X-API-Key header, the
// session cookies sent back on every request (the service pins a game session to one backend by cookie),
// 600 requests a minute kept on our side, and retries with backoff on 429, 5xx and network errors. Knows
// nothing about games or scorecards; arc-online.ts speaks the endpoints.
import { err, ok, type Result } from "neverthrow";
import { prolongError, type ProlongError } from "../../errors.ts";
import { backoffMs, RateLimiter } from "./rate-limit.ts";

export interface ArcApiOptions {
  readonly baseUrl: string;
  readonly apiKey: string;
  /** Default 600 (the documented limit). */
  readonly requestsPerMinute?: number;
  /** Retries of one request on 429 / 5xx / network errors before giving up (default 5). */
  readonly maxRetries?: number;
  /** Milliseconds now; injected so the keep-alive can be tested without waiting (default Date.now). */
  readonly now?: () => number;
}

export class ArcApi {
  private readonly cookies = new Map<string, string>();
  private readonly limiter: RateLimiter;
  private readonly maxRetries: number;
  /** Time of the last request sent (the keep-alive looks at it). */
  lastRequestAt = 0;
  /** Requests sent, retries included. */
  requests = 0;

  private readonly now: () => number;

  constructor(private readonly o: ArcApiOptions) {
    this.now = o.now ?? Date.now;
    this.limiter = new RateLimiter(o.requestsPerMinute ?? 600, 60_000);
    this.maxRetries = o.maxRetries ?? 5;
  }

  get baseUrl(): string {
    return this.o.baseUrl.replace(/\/+$/, "");
  }

  /** One call; resolves to the parsed JSON body of a 2xx reply, or an error naming the endpoint and the server's message. */
  async call(method: "GET" | "POST", path: string, body?: unknown): Promise<Result<unknown, ProlongError>> {
    const url = `${this.baseUrl}${path}`;
    let last = "";
    for (let attempt = 0; attempt <= this.maxRetries; attempt++) {
      const wait = this.limiter.delayFor(this.now());
      if (wait > 0) await Bun.sleep(wait);
      this.limiter.record(this.now());
      this.lastRequestAt = this.now();
      this.requests++;
      let res: Response;
      try {
        res = await fetch(url, {
          method,
          headers: {
            "X-API-Key": this.o.apiKey,
            Accept: "application/json",
            ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
            ...this.cookieHeader(),
          },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
          keepalive: true,
        });
      } catch (e) {
        last = `network error: ${(e as Error).message}`;
        await Bun.sleep(backoffMs(attempt, null));
        continue;
      }
      this.keepCookies(res);
      const text = await res.text();
      if (res.status === 429 || res.status >= 500) {
        last = `HTTP ${res.status}${text ? `: ${text.slice(0, 300)}` : ""}`;
        if (attempt < this.maxRetries) await Bun.sleep(backoffMs(attempt, res.headers.get("retry-after")));
        continue;
      }
      let json: unknown;
      try {
        json = text.length > 0 ? JSON.parse(text) : null;
      } catch {
        return err(
          prolongError("arc-api", `${method} ${path}: HTTP ${res.status}, a reply that is not JSON: ${text.slice(0, 200)}`, {
            fix: `is ${this.baseUrl} ARC-AGI-3's API? set PROLONG_ARC_URL`,
          }),
        );
      }
      if (!res.ok) {
        const message =
          typeof json === "object" && json !== null && "message" in json
            ? String((json as { message: unknown }).message)
            : text.slice(0, 300);
        const fix =
          res.status === 401 || res.status === 403
            ? "set ARC_API_KEY to your key (https://three.arcprize.org)"
            : "see the server's message above";
        return err(prolongError("arc-api", `${method} ${path}: HTTP ${res.status}: ${message}`, { fix }));
      }
      return ok(json);
    }
    return err(
      prolongError("arc-api", `${method} ${path}: gave up after ${this.maxRetries + 1} tries; last: ${last}`, {
        fix: "the service is unreachable or overloaded; the run is resumable later with `prolong resume`",
      }),
    );
  }

  private cookieHeader(): Record<string, string> {
    if (this.cookies.size === 0) return {};
    return { Cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ") };
  }

  private keepCookies(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(";", 1)[0] ?? "";
      const eq = pair.indexOf("=");
      if (eq > 0) this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }
}
