// The lifetime arm (--episodes K): K episodes of the same game on the same seed, one log kept across them.
// A new episode starts a fresh game and is marked in the log by an INITIAL STATE section.
import { err, ok, type Result } from "neverthrow";
import type { ProlongError } from "../errors.ts";
import type { RunSession } from "./session.ts";
import { openEnv } from "./start.ts";
import { sectionFromFrame, writeSection } from "./steps.ts";
import { startEpisode } from "./tally.ts";

export async function startNextEpisode(s: RunSession): Promise<Result<void, ProlongError>> {
  const env = openEnv(s.config);
  if (env.isErr()) return err(env.error);
  await s.env.close();
  s.env = env.value;
  const first = await s.env.reset();
  if (first.isErr()) return err(first.error);
  const frame = first.value;
  s.events.emit("episode-end", { episode: s.tally.episode, score: s.tally.score, actions: s.tally.action - s.tally.episodeStart });
  startEpisode(s.tally, frame);
  s.frame = frame;
  s.events.emit("episode-start", { episode: s.tally.episode, action: s.tally.action });
  const header = { action: s.tally.action, level: 1, attempt: 1, score: frame.levelsCompleted, kind: "initial" as const };
  const written = writeSection(s, { ...sectionFromFrame(frame, header, {}), episode: { index: s.tally.episode, total: s.config.episodes } });
  return written.isErr() ? err(written.error) : ok(undefined);
}
