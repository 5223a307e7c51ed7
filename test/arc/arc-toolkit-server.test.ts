// --env arc-online against ARC's own toolkit server (arc_agi/server.py, run offline over the real games):
// the published ft09 run, played again through the REST API, writes the same bytes as through arc-local and
// the toolkit's scorecard agrees with the published one. Needs PROLONG_ARC_ENGINE, PROLONG_ARC_GAMES and
// PROLONG_ARC_TOOLKIT (a directory holding the arc_agi/ package; flask, requests and python-dotenv
// importable); skipped with the reason printed otherwise.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseLog, writeLog } from "../../src/log/format.ts";
import { playGame } from "../run/helpers.ts";
import { arcWithFixtures, FIXTURES } from "./arc-setup.ts";
import { publishedAgentCommand, publishedBatches } from "./published-agent.ts";

function toolkitSetup(): { engine: string; games: string; toolkit: string } | string {
  const s = arcWithFixtures();
  if (typeof s === "string") return s;
  const toolkit = process.env.PROLONG_ARC_TOOLKIT;
  if (!toolkit) return "PROLONG_ARC_TOOLKIT is not set (a directory holding ARC's arc_agi/ package)";
  if (!existsSync(join(toolkit, "arc_agi", "server.py"))) return `PROLONG_ARC_TOOLKIT=${toolkit} holds no arc_agi/server.py`;
  const probe = Bun.spawnSync(["python3", "-c", "import flask, requests, dotenv"]);
  if (probe.exitCode !== 0) return "python3 cannot import flask, requests and dotenv (the toolkit server's dependencies)";
  return { ...s, toolkit };
}

const setup = toolkitSetup();
if (typeof setup === "string") console.log(`skipping the toolkit-server tests: ${setup}`);
const ready = typeof setup !== "string";

let server: Bun.Subprocess | null = null;
let url = "";
const saved = { key: process.env.ARC_API_KEY, url: process.env.PROLONG_ARC_URL };

beforeAll(async () => {
  if (typeof setup === "string") return;
  const port = 20_000 + Math.floor(Math.random() * 30_000);
  const script = [
    "import logging, sys",
    "from arc_agi import Arcade, OperationMode",
    `a = Arcade(operation_mode=OperationMode.OFFLINE, environments_dir=${JSON.stringify(setup.games)})`,
    `a.listen_and_serve(host="127.0.0.1", port=${port})`,
  ].join("\n");
  server = Bun.spawn(["python3", "-c", script], { env: { ...process.env, PYTHONPATH: [setup.engine, setup.toolkit].join(":") }, stdout: "ignore", stderr: "ignore" });
  url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`${url}/api/healthcheck`).then((r) => r.ok).catch(() => false);
    if (up) break;
    await Bun.sleep(100);
  }
  process.env.ARC_API_KEY = "prolong-test";
  process.env.PROLONG_ARC_URL = url;
});

afterAll(() => {
  server?.kill();
  for (const [k, v] of [["ARC_API_KEY", saved.key], ["PROLONG_ARC_URL", saved.url]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe.skipIf(!ready)("arc-online against ARC's toolkit server", () => {
  test("the published ft09 batches, through the API: the published boards, scores and the server's RHAE", async () => {
    const { sections } = parseLog(readFileSync(join(FIXTURES, "ft09", "logs.txt"), "utf8"));
    const cmd = publishedAgentCommand(publishedBatches(sections));
    const run = await playGame({ game: "ft09", env: "arc-online", agent: "command", cmd, sandbox: "none", maxActions: 500 });
    expect(run.end.reason).toBe("win");
    const ours = parseLog(run.master).sections;
    expect(run.master).toBe(writeLog(sections.map((s, i) => ({ ...s, plan: ours[i]!.plan })), "ascii"));
    const card = JSON.parse(readFileSync(join(run.session.paths.dir, "arc-scorecard.json"), "utf8"));
    const env = card.scorecard.environments[0];
    expect(env.id).toBe("ft09-0d8bbf25");
    const win = env.runs.find((r: { state: string }) => r.state === "WIN");
    expect(win.level_actions).toEqual([4, 7, 14, 21, 21, 15]);
    expect(win.score).toBe(100);
    expect(run.summary.rhae).toBe(100); // our RHAE, from the baselines the scorecard shared
    expect(card.replay_url).toBe(`${url}/replay/ft09-0d8bbf25/${card.guid}`);
  }, 180_000);
});
