// Progress on stderr: on a terminal one line per game, rewritten in place, throttled; elsewhere (a log file, a
// pipe, CI) a plain line after an agent call, at most one per NONTTY_INTERVAL_MS, so a long run is not silent.
import { wallMs, type RunSession } from "./session.ts";

export function progressLine(s: RunSession): string {
  const t = s.tally;
  // The run's own clock (wall time since the epoch, plus what earlier processes played): the same figure
  // summary.txt reports, never a mix of that clock and performance.now().
  const secs = (wallMs(s) / 1000).toFixed(1);
  const episode = s.config.episodes > 1 ? `  episode ${t.episode}/${s.config.episodes}` : "";
  return `${s.config.game}  action ${t.episodeActions}/${s.config.maxActions}  level ${Math.min(t.level, t.winLevels)}/${t.winLevels}  score ${t.score}${episode}  call ${t.agentCalls}  ${secs}s`;
}

/** The least time between two progress lines when stderr is not a terminal. */
export const NONTTY_INTERVAL_MS = 10_000;

/** Lines for a stream that is not a terminal: after the first agent call, then after a later one every interval. */
function plainProgress(stream: NodeJS.WritableStream, intervalMs: number): { update: (s: RunSession) => void; done: () => void } {
  let calls = 0;
  let last = Number.NEGATIVE_INFINITY;
  return {
    update(s) {
      const now = performance.now();
      if (s.tally.agentCalls === calls || now - last < intervalMs) return;
      calls = s.tally.agentCalls;
      last = now;
      stream.write(`prolong: ${progressLine(s)}\n`);
    },
    done: () => {},
  };
}

/** A progress callback for stderr: a line redrawn in place on a TTY (at most ~20 a second), sparse lines elsewhere. */
export function ttyProgress(
  stream: NodeJS.WriteStream = process.stderr,
  intervalMs = NONTTY_INTERVAL_MS,
): { update: (s: RunSession) => void; done: () => void } {
  if (!stream.isTTY) return plainProgress(stream, intervalMs);
  let last = 0;
  let shown = false;
  return {
    update(s) {
      const now = performance.now();
      if (now - last < 50) return;
      last = now;
      shown = true;
      stream.write(`\r\x1b[2K${progressLine(s)}`);
    },
    done() {
      if (shown) stream.write("\r\x1b[2K");
    },
  };
}
