// A sliding-window request limiter: at most `limit` requests in any `windowMs` (ARC's API allows 600 a
// minute). Pure bookkeeping over timestamps the caller supplies, so it is tested without clocks; arc-api.ts
// sleeps for what delayFor() says before each request.
export class RateLimiter {
  private readonly sent: number[] = [];

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Milliseconds to wait before a request at time `now` stays within the limit (0 = go now). */
  delayFor(now: number): number {
    while (this.sent.length > 0 && this.sent[0]! <= now - this.windowMs) this.sent.shift();
    if (this.sent.length < this.limit) return 0;
    return this.sent[this.sent.length - this.limit]! + this.windowMs - now;
  }

  /** Records a request sent at `now`. */
  record(now: number): void {
    this.sent.push(now);
  }
}

/** Exponential backoff with a cap: 0.5 s, 1 s, 2 s, ... 30 s; a server's Retry-After wins when it gives one. */
export function backoffMs(attempt: number, retryAfterHeader: string | null): number {
  const retryAfter = retryAfterHeader === null ? Number.NaN : Number(retryAfterHeader);
  if (Number.isFinite(retryAfter) && retryAfter >= 0) return Math.min(retryAfter * 1000, 60_000);
  return Math.min(500 * 2 ** attempt, 30_000);
}
