// The end of a run: scorecard.json and summary.txt in the run directory, the run-end event, files closed.
import { writeFileSync } from "node:fs";
import { gameRhae } from "../score/rhae.ts";
import { describeWindow } from "./config.ts";
import type { RunEnd, RunSession } from "./session.ts";
import type { TokenUsage } from "../agent/agent.ts";
import { billedTokens, currentEpisode, type EpisodeResult } from "./tally.ts";

export interface RunSummary {
  readonly run: string;
  readonly dir: string;
  readonly game: string;
  readonly agent: string;
  readonly logWindow: string;
  readonly end: RunEnd["reason"];
  readonly detail: string;
  readonly levelsCompleted: number;
  readonly winLevels: number;
  readonly actions: number;
  /** RHAE of the best episode, 0..100. */
  readonly rhae: number;
  readonly episodes: readonly (EpisodeResult & { readonly rhae: number })[];
  readonly agentCalls: number;
  readonly tokens: TokenUsage;
  /** (input − cached) + 6 × output + 0.1 × cached, over the run. */
  readonly billedTokens: number;
  readonly tamperEvents: number;
  readonly wallMs: number;
}

export async function finishRun(s: RunSession, end: RunEnd): Promise<{ summary: RunSummary; text: string }> {
  const baselines = s.env.info.baselineActions;
  const episodes = [...s.tally.finished, currentEpisode(s.tally)].map((e) => ({ ...e, rhae: gameRhae(baselines, e.levelActions, e.score) }));
  const best = episodes.reduce((a, b) => (b.rhae > a.rhae || (b.rhae === a.rhae && b.score > a.score) ? b : a));
  const wallMs = Math.round(performance.now() - s.startedAt + s.priorMs);
  const summary: RunSummary = {
    run: s.name,
    dir: s.paths.dir,
    game: s.config.game,
    agent: s.config.agent,
    logWindow: describeWindow(s.config.logWindow),
    end: end.reason,
    detail: end.detail,
    levelsCompleted: best.score,
    winLevels: s.tally.winLevels,
    actions: s.tally.action,
    rhae: best.rhae,
    episodes,
    agentCalls: s.tally.agentCalls,
    tokens: s.tally.tokens,
    billedTokens: billedTokens(s.tally.tokens),
    tamperEvents: s.tally.tamperEvents,
    wallMs,
  };
  s.index.setState("ended", { reason: end.reason, detail: end.detail, wallMs });
  s.events.emit("run-end", { reason: end.reason, actions: summary.actions, levels: summary.levelsCompleted, score: summary.rhae, agentCalls: summary.agentCalls, tamperEvents: summary.tamperEvents, ms: wallMs });
  const scorecard = {
    game_id: s.config.game,
    settings: s.config,
    end_reason: end.reason,
    levels_completed: best.score,
    win_levels: s.tally.winLevels,
    actions: s.tally.action,
    level_actions: best.levelActions,
    level_baseline_actions: baselines,
    score: best.rhae,
    episodes,
    agent_calls: s.tally.agentCalls,
    tokens: summary.tokens,
    billed_tokens: summary.billedTokens,
    tamper_events: s.tally.tamperEvents,
    wall_ms: wallMs,
  };
  const text = summaryText(summary);
  writeFileSync(s.paths.scorecard, JSON.stringify(scorecard, null, 2) + "\n");
  writeFileSync(s.paths.summary, text + "\n");
  await s.agent.close?.();
  await s.env.close();
  s.events.close();
  s.index.close();
  s.master.close();
  return { summary, text };
}

export function summaryText(r: RunSummary): string {
  const lines = [
    `${r.game}: ${r.end} — ${r.detail}`,
    `  levels     ${r.levelsCompleted}/${r.winLevels}`,
    `  actions    ${r.actions}`,
    `  RHAE       ${r.rhae.toFixed(1)}`,
    `  agent      ${r.agent}, ${r.agentCalls} call(s), log: ${r.logWindow}${r.billedTokens > 0 ? `, ${Math.round(r.billedTokens).toLocaleString("en-US")} billed tokens` : ""}`,
    `  tampering  ${r.tamperEvents === 0 ? "none" : `${r.tamperEvents} event(s) repaired (see events.jsonl)`}`,
    `  time       ${(r.wallMs / 1000).toFixed(1)}s`,
    `  run        ${r.dir}`,
  ];
  if (r.episodes.length > 1) {
    lines.splice(4, 0, `  episodes   ${r.episodes.map((e) => `${e.episode}: ${e.score} level(s), RHAE ${e.rhae.toFixed(1)}`).join("; ")}`);
  }
  return lines.join("\n");
}
