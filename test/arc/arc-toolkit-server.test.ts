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

/**
 * Starts the toolkit's server the way Arcade.listen_and_serve does (its create_app, Flask's app.run), except
 * that app.run binds through werkzeug's make_server on port 0 and prints the port once the socket listens:
 * the test waits for that line — the server is accepting from then on — instead of polling a health check.
 */
async function startToolkitServer(s: {
  engine: string;
  games: string;
  toolkit: string;
}): Promise<{ proc: Bun.Subprocess<"ignore", "pipe", "pipe">; url: string }> {
  const script = [
    "import flask",
    "from werkzeug.serving import make_server",
    "def run(app, host, port, **kwargs):",
    "    srv = make_server(host, 0, app, threaded=True)",
    "    print(f'prolong-test: listening on {srv.server_port}', flush=True)",
    "    srv.serve_forever()",
    "flask.Flask.run = run",
    "from arc_agi import Arcade, OperationMode",
    `a = Arcade(operation_mode=OperationMode.OFFLINE, environments_dir=${JSON.stringify(s.games)})`,
    `a.listen_and_serve(host="127.0.0.1")`,
  ].join("\n");
  const proc = Bun.spawn(["python3", "-c", script], {
    env: { ...process.env, PYTHONPATH: [s.engine, s.toolkit].join(":") },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  // Both streams are drained for the server's whole life (werkzeug logs every request to stderr; a full pipe
  // would stall it). The toolkit logs to stdout too: the port is on the line our run() prints; stdout ending
  // before it means the server died.
  const stderr = new Response(proc.stderr).text();
  const line = await lineMatching(proc.stdout, /^prolong-test: listening on (\d+)$/);
  if (line === null) throw new Error(`the toolkit server exited before listening: ${await stderr}`);
  return { proc, url: `http://127.0.0.1:${line[1]}` };
}

/** The first line of a stream that matches (null if it ends first); the rest is read and dropped in the background. */
async function lineMatching(stream: ReadableStream<Uint8Array>, re: RegExp): Promise<RegExpMatchArray | null> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return null;
    text += decoder.decode(value, { stream: true });
    const lines = text.split("\n");
    text = lines.pop() ?? "";
    for (const l of lines) {
      const m = l.match(re);
      if (m) {
        void (async () => {
          while (!(await reader.read()).done);
        })();
        return m;
      }
    }
  }
}

beforeAll(async () => {
  if (typeof setup === "string") return;
  const started = await startToolkitServer(setup);
  server = started.proc;
  url = started.url;
  process.env.ARC_API_KEY = "prolong-test";
  process.env.PROLONG_ARC_URL = url;
});

afterAll(() => {
  server?.kill();
  for (const [k, v] of [
    ["ARC_API_KEY", saved.key],
    ["PROLONG_ARC_URL", saved.url],
  ] as const) {
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
    expect(run.master).toBe(
      writeLog(
        sections.map((s, i) => ({ ...s, plan: ours[i]!.plan })),
        "ascii",
      ),
    );
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
