// The live progress line on a terminal: one line per game, rewritten in place, throttled.
import { wallMs, type RunSession } from "./session.ts";

export function progressLine(s: RunSession): string {
  const t = s.tally;
  // The run's own clock (wall time since the epoch, plus what earlier processes played): the same figure
  // summary.txt reports, never a mix of that clock and performance.now().
  const secs = (wallMs(s) / 1000).toFixed(1);
  const episode = s.config.episodes > 1 ? `  episode ${t.episode}/${s.config.episodes}` : "";
  return `${s.config.game}  action ${t.action - t.episodeStart}/${s.config.maxActions}  level ${Math.min(t.level, t.winLevels)}/${t.winLevels}  score ${t.score}${episode}  call ${t.agentCalls}  ${secs}s`;
}

/** A progress callback for a TTY (at most ~20 redraws a second); a no-op elsewhere. */
export function ttyProgress(stream: NodeJS.WriteStream = process.stderr): { update: (s: RunSession) => void; done: () => void } {
  if (!stream.isTTY) return { update: () => {}, done: () => {} };
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
