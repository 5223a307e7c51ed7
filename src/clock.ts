// Time as the harness sees it: the current time and a repeating timer. Passed in (the run's parts, the
// arc-online keep-alive) so tests move time by hand instead of sleeping.

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `tick` every `ms` until the returned function is called. */
  every(ms: number, tick: () => void): () => void;
}

export const realClock: Clock = {
  now: Date.now,
  every(ms, tick) {
    const timer = setInterval(tick, ms);
    timer.unref?.(); // a pending timer never holds the process open
    return () => clearInterval(timer);
  },
};
