// The end of a run: scorecard.json (built and validated by score/scorecard.ts) and summary.txt in the run directory, the run-end event, files closed.
import type { Result } from "neverthrow";
import type { ProlongError } from "../errors.ts";
import { guardIo } from "./io-failure.ts";
import { writeFileReplacing } from "../safe-file.ts";
import { jsonText, terminalText } from "../terminal-text.ts";
import { buildScorecard, RESUMABLE, type EpisodeResult, type Scorecard } from "../score/scorecard.ts";
import { formatRhae } from "../score/rhae.ts";
import { gameVersionOf } from "../game/version.ts";
import { finalProvenance } from "./provenance.ts";
import { windowLabel } from "../setting/log-window.ts";
import { agentName } from "../config/run-config.ts";
import { emit } from "./record.ts";
import { saveState } from "./saved-state.ts";
import { wallMs as playedMs, type RunEnd, type RunSession } from "./session.ts";
import type { TokenUsage } from "../agent/agent.ts";
import { currentEpisode } from "./tally.ts";

export interface RunSummary {
  readonly run: string;
  readonly dir: string;
  readonly game: string;
  readonly agent: string;
  /** How the agent was confined: "bwrap", "none", or "in-process" for the built-in agents. */
  readonly sandbox: string;
  readonly logWindow: string;
  /** "stateless" when the workspace was wiped each turn (--workspace stateless). */
  readonly workspace: string;
  readonly end: RunEnd["reason"];
  readonly detail: string;
  readonly levelsCompleted: number;
  readonly winLevels: number;
  /** Per level, a good human's action count (RHAE's baseline); empty for NetHack. */
  readonly baselines: readonly number[];
  /** What rhae and the episodes' rhae measure: RHAE, or BALROG progression in percent (NetHack). */
  readonly metric: "rhae" | "progression";
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

/** `failure`: the scorecard or the end mark could not be written (disk full): the run stays resumable. */
export async function finishRun(
  s: RunSession,
  end: RunEnd,
): Promise<{ summary: RunSummary; text: string; failure?: ProlongError }> {
  // The game and the agent close first: what the environment reports on closing goes into summary.txt.
  await s.agent.close?.();
  await s.turn.env.close();
  const baselines = s.turn.env.info.baselineActions;
  const wallMs = playedMs(s);
  const card = buildScorecard({
    run: s.name,
    config: s.config,
    gameVersion: gameVersionOf(s.turn.env.info),
    provenance: finalProvenance(s.paths.config, s.config),
    end,
    baselines,
    winLevels: s.tally.winLevels,
    episodes: [...s.tally.finished, currentEpisode(s.tally)],
    actions: s.tally.action,
    agentCalls: s.tally.agentCalls,
    tokens: s.tally.tokens,
    tamperEvents: s.tally.tamperEvents,
    wallMs,
  });
  const summary: RunSummary = {
    run: s.name,
    dir: s.paths.dir,
    game: s.config.game,
    agent: agentName(s.config),
    sandbox: s.agent.sandbox ?? "in-process",
    logWindow: windowLabel(s.config.logWindow),
    workspace: s.config.workspace,
    end: end.reason,
    detail: end.detail,
    levelsCompleted: card.levels_completed,
    winLevels: card.win_levels,
    baselines: [...baselines],
    metric: card.metric ?? "rhae",
    actions: card.actions,
    rhae: card.score,
    episodes: card.episodes.map((e) => ({
      episode: e.episode,
      levels: e.levels_completed,
      state: e.state,
      actions: e.actions,
      levelActions: e.level_actions,
      rhae: e.score,
    })),
    agentCalls: card.agent_calls,
    tokens: s.tally.tokens,
    billedTokens: card.billed_tokens,
    tamperEvents: card.tamper_events,
    wallMs,
  };
  // The end's detail may quote the agent's stderr: summary.txt and the printed summary hold no raw control.
  const text = terminalText([summaryText(summary), ...s.summaryLines].join("\n"));
  // The scorecard first, written whole and renamed into place (a reader never sees half of one); the run is
  // marked ended only once it exists, so a disk that fills here leaves a run `prolong resume` can finish.
  // An interrupted run is not over: without the "ended" mark `prolong resume` continues it (its scorecard
  // says interrupted until then, and `prolong score` skips it with that reason). Nor is one whose game
  // (a bridge or server that died) or log files failed: the master is the truth, resume goes on from it.
  // So is one whose model API could not be used (agent-unavailable): fix the setting the error names, then resume.
  const written = writeEnd(s, card, end, wallMs, text);
  emit(s, [
    "run-end",
    {
      reason: end.reason,
      actions: summary.actions,
      levels: summary.levelsCompleted,
      rhae: summary.rhae,
      agentCalls: summary.agentCalls,
      tamperEvents: summary.tamperEvents,
      ms: wallMs,
    },
  ]);
  // Closing flushes (the index's WAL among them); on a full disk that fails too, and changes nothing above.
  for (const close of [() => s.events.close(), () => s.index.close(), () => s.master.close(), () => s.workspace.close()])
    guardIo(s.paths.dir, close);
  s.lock.release();
  if (written.isErr())
    return {
      summary,
      text,
      failure: { ...written.error, message: `the run's end could not be recorded: ${written.error.message}` },
    };
  return { summary, text };
}

/** The scorecard, the end mark in the index (or the time played, for a resumable end), then summary.txt. */
function writeEnd(s: RunSession, card: Scorecard, end: RunEnd, wallMs: number, text: string): Result<void, ProlongError> {
  // A fresh file renamed over each name: a link planted there is replaced, never written through.
  const write = (path: string, text: string) =>
    writeFileReplacing(path, text).mapErr((e) => ({
      ...e,
      fix: `${e.fix ?? "free disk space"}, then \`prolong resume ${s.paths.dir}\``,
    }));
  // jsonText: the same data, with no raw C1 control a `cat scorecard.json` would hand to the terminal.
  return write(s.paths.scorecard, jsonText(card, null, 2) + "\n")
    .andThen(() =>
      RESUMABLE.includes(end.reason)
        ? saveState(s.index, { wallMs })
        : saveState(s.index, { ended: { reason: end.reason, detail: end.detail, wallMs } }),
    )
    .andThen(() => write(s.paths.summary, text + "\n"));
}

/** A NetHack run: BALROG progression of the best episode and of each, instead of levels and RHAE. */
function progressionSummary(r: RunSummary): string {
  const pct = (x: number) => `${x.toFixed(2)}%`;
  return [
    `${r.game}: ${r.end} — ${r.detail}`,
    `  progress   ${pct(r.rhae)} (BALROG progression, best episode)`,
    ...(r.episodes.length > 1 ? [`  episodes   ${r.episodes.map((e) => `${e.episode}: ${pct(e.rhae)}`).join("; ")}`] : []),
    `  actions    ${r.actions}`,
    agentLine(r),
    `  sandbox    ${sandboxText(r.sandbox)}`,
    `  tampering  ${r.tamperEvents === 0 ? "none" : `${r.tamperEvents} event(s) repaired (see events.jsonl)`}`,
    `  time       ${(r.wallMs / 1000).toFixed(1)}s`,
    `  run        ${r.dir}`,
  ].join("\n");
}

/** The agent, its calls, what it kept between turns (the log window; a stateless workspace), billed tokens. */
function agentLine(r: RunSummary): string {
  const workspace = r.workspace === "stateless" ? ", workspace: stateless (wiped each turn but logs.txt and plans.txt)" : "";
  const billed = r.billedTokens > 0 ? `, ${Math.round(r.billedTokens).toLocaleString("en-US")} billed tokens` : "";
  return `  agent      ${r.agent}, ${r.agentCalls} call(s), log: ${r.logWindow}${workspace}${billed}`;
}

/**
 * The actions with, for each level completed (of the best episode), the agent's count beside a good human's:
 * what RHAE compares.
 */
function actionsLine(r: RunSummary): string {
  const best = r.episodes.reduce<RunSummary["episodes"][number] | undefined>(
    (b, e) => (b === undefined || e.rhae > b.rhae ? e : b),
    undefined,
  );
  const done = best ? best.levelActions.slice(0, best.levels) : [];
  if (done.length === 0) return `  actions    ${r.actions}`;
  const which = r.episodes.length > 1 ? `best episode's levels` : "per level";
  return `  actions    ${r.actions} (${which}: ${done.join(", ")}; a good human: ${r.baselines.slice(0, done.length).join(", ")})`;
}

/** What an RHAE figure means, beside it: a bare "RHAE 1.93" says nothing to someone new. */
const RHAE_SCALE = "(0 to 115: 100 = a good human's action count on every level, 0 = no level completed)";

function sandboxText(kind: string): string {
  if (kind === "bwrap")
    return "bwrap (workspace read-write, system read-only, private /tmp, runs directory and homes hidden; network open)";
  if (kind === "none") return "none: the agent ran unconfined (--sandbox none, or auto without bubblewrap)";
  return "none needed: the agent runs inside prolong (the built-in player, or you at the keyboard)";
}

export function summaryText(r: RunSummary): string {
  if (r.metric === "progression") return progressionSummary(r);
  const lines = [
    `${r.game}: ${r.end} — ${r.detail}`,
    `  levels     ${r.levelsCompleted}/${r.winLevels}`,
    actionsLine(r),
    `  RHAE       ${formatRhae(r.rhae)} ${RHAE_SCALE}`,
    agentLine(r),
    `  sandbox    ${sandboxText(r.sandbox)}`,
    `  tampering  ${r.tamperEvents === 0 ? "none" : `${r.tamperEvents} event(s) repaired (see events.jsonl)`}`,
    `  time       ${(r.wallMs / 1000).toFixed(1)}s`,
    `  run        ${r.dir}`,
  ];
  if (r.episodes.length > 1) {
    lines.splice(
      4,
      0,
      `  episodes   ${r.episodes.map((e) => `${e.episode}: ${e.levels} level(s), RHAE ${formatRhae(e.rhae)}`).join("; ")}`,
    );
  }
  return lines.join("\n");
}
