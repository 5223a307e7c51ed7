// Shared by the backend tests: where the real CLIs are, a scoped environment for the process under test,
// and runs of a local game in-process (whole, or stopped after some actions for `resume`).
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findCli } from "../../../src/agent/cli-process.ts";
import { probeBwrap } from "../../../src/agent/sandbox.ts";
import { newConfig, type RunConfigInput } from "../../../src/config/run-config.ts";
import { finishRun } from "../../../src/run/finish.ts";
import { resumeRun } from "../../../src/run/resume.ts";
import { runLoop } from "../../../src/run/runner.ts";
import type { RunEnd, RunSession } from "../../../src/run/session.ts";
import { startRun } from "../../../src/run/start.ts";
import type { ModelServer, ReceivedRequest } from "../../support/model-server.ts";
import { readEventsFile, tempRoot } from "../../run/helpers.ts";

export { readEventsFile, tempRoot };

/** A real CLI, or null with the reason printed (the tests that need it skip). */
export function realCli(name: "claude" | "codex", npmPackage: string): string | null {
  const bin = findCli(name);
  if (!bin) console.log(`skipping the ${name} backend tests: ${name} is not installed (npm install --no-save ${npmPackage})`);
  return bin;
}

/** What points the real Claude Code at the scripted model server (and keeps it from calling anywhere else). */
export function claudeEnv(server: Pick<ModelServer, "url">): Record<string, string> {
  return { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: "scripted", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" };
}

/**
 * What points the real Codex at the scripted model server: a user CODEX_HOME whose config.toml names it as a
 * Responses API provider (the backend copies it into the run's own CODEX_HOME), and the provider's key. The key
 * variable is named CODEX_*: under bwrap only the backends' own variables reach the CLI.
 */
export function codexEnv(server: Pick<ModelServer, "url">, home = tempRoot()): Record<string, string> {
  writeFileSync(
    join(home, "config.toml"),
    `model = "scripted"\nmodel_provider = "local"\n\n[model_providers.local]\nname = "local"\nbase_url = "${server.url}/v1"\nwire_api = "responses"\nenv_key = "CODEX_LOCAL_KEY"\n`,
  );
  return { CODEX_HOME: home, CODEX_LOCAL_KEY: "scripted" };
}

export const HAVE_BWRAP = probeBwrap() !== null;
if (!HAVE_BWRAP)
  console.log(
    "skipping the bubblewrap tests: bwrap is not installed or cannot create a sandbox here (apt-get install bubblewrap)",
  );

/** Runs `fn` with extra variables in process.env (the backends pass process.env on to the CLI), then restores it. */
export async function withEnv<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

export interface Played {
  readonly session: RunSession;
  readonly end: RunEnd;
  readonly master: string;
}

/** Plays a whole run, or stops it (as Ctrl-C does) once `stopAfter` actions are in the log, leaving it resumable. */
export async function play(
  fields: Partial<RunConfigInput> & { game: string },
  opts: { root?: string; name?: string; stopAfter?: number } = {},
): Promise<Played> {
  const config = newConfig(fields)._unsafeUnwrap();
  const stop = new AbortController();
  const stopAfter = opts.stopAfter;
  const started = await startRun(config, {
    runsRoot: opts.root ?? tempRoot(),
    stamp: "t",
    ...(opts.name ? { name: opts.name } : {}),
    ...(stopAfter !== undefined
      ? {
          onProgress: (x: RunSession) => {
            if (x.tally.action >= stopAfter) stop.abort();
          },
        }
      : {}),
  });
  const session = started._unsafeUnwrap();
  const end = await runLoop(session, stop.signal);
  if (stopAfter !== undefined) {
    session.events.close();
    session.index.close();
    session.master.close();
    session.lock.release(); // as the process would on exit
  } else {
    await finishRun(session, end);
  }
  return { session, end, master: readFileSync(session.paths.log, "utf8") };
}

/** Resumes a run left by play({stopAfter}) and plays it to its end. */
export async function resumeToEnd(dir: string): Promise<Played> {
  const session = (await resumeRun(dir))._unsafeUnwrap();
  const end = await runLoop(session, new AbortController().signal);
  await finishRun(session, end);
  return { session, end, master: readFileSync(session.paths.log, "utf8") };
}

/** The requests that carried a script turn (the agent's own calls, not titles and other side requests). */
export function scripted(requests: readonly ReceivedRequest[]): ReceivedRequest[] {
  return requests.filter((r) => r.scripted);
}

/** Everything a request carried as conversation (Anthropic messages or OpenAI input), as one string. */
export function conversation(r: ReceivedRequest): string {
  return JSON.stringify(r.body["messages"] ?? r.body["input"] ?? []);
}

/** Live processes (not zombies) whose environment holds `entry`, e.g. a variable every process of a CLI inherits. */
export function processesWith(entry: string): number[] {
  const out: number[] = [];
  const needle = Buffer.from(`${entry}\0`);
  for (const name of readdirSync("/proc")) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      if (/\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"))) continue;
      if (readFileSync(`/proc/${pid}/environ`).includes(needle)) out.push(pid);
    } catch {
      // gone, or not ours
    }
  }
  return out;
}

/** Polls `what` every 100 ms until it holds or `ms` have passed; whether it held. */
export async function until(what: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (what()) return true;
    await Bun.sleep(100);
  }
  return what();
}
