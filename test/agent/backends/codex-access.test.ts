// Codex's credentials checked before a run's first call: the provider read from the user's config.toml (as
// Codex reads it), its key tried with one GET of <base_url>/models on a stand-in server. A refusal ends the
// run agent-unavailable with no call made; a good key lets it proceed; a config that cannot work is named
// with the file and the fix. The stand-in `codex` records that it was called.
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { codexAgent } from "../../../src/agent/codex.ts";
import { checkCodexAccess, codexProvider, providerKeys } from "../../../src/agent/codex-provider.ts";
import { playGame } from "../../run/helpers.ts";
import { tempRoot, withEnv } from "./helpers.ts";

interface Seen {
  readonly path: string;
  readonly query: string;
  readonly authorization: string | null;
  readonly extra: string | null;
}

/** A stand-in model API: GET …/models answers `status` and records what it was sent. */
function modelsServer(status: number) {
  const seen: Seen[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const url = new URL(req.url);
      seen.push({
        path: url.pathname,
        query: url.search,
        authorization: req.headers.get("authorization"),
        extra: req.headers.get("x-extra"),
      });
      return status === 200
        ? Response.json({ object: "list", data: [] })
        : Response.json(
            { error: { message: "Incorrect API key provided: sk-wr***ng.", type: "invalid_request_error" } },
            { status },
          );
    },
  });
  return { server, seen, url: `http://127.0.0.1:${server.port}/v1` };
}

/** A user CODEX_HOME holding `toml` as its config.toml (none when null). */
function codexHome(toml: string | null): string {
  const home = tempRoot();
  if (toml !== null) writeFileSync(join(home, "config.toml"), toml);
  return home;
}

function localProvider(url: string, extra = ""): string {
  return `model = "m"\nmodel_provider = "local"\n\n[model_providers.local]\nname = "local"\nbase_url = "${url}"\nwire_api = "responses"\nenv_key = "LOCAL_KEY"\n${extra}`;
}

/** A stand-in codex: marks that it ran, then plays ACTION1 and reports a completed turn. */
function fakeCodex(marker: string): string {
  const bin = join(tempRoot(), "codex");
  writeFileSync(
    bin,
    `#!/bin/sh\ntouch '${marker}'\nprintf '{"actions":["ACTION1"]}' > actions.json\n` +
      `echo '{"type":"thread.started","thread_id":"th-1"}'\n` +
      `echo '{"type":"turn.completed","usage":{"input_tokens":1,"cached_input_tokens":0,"output_tokens":1}}'\n`,
  );
  chmodSync(bin, 0o755);
  return bin;
}

async function playCodex(home: string, vars: Record<string, string>) {
  const marker = join(tempRoot(), "codex-was-called");
  const started = performance.now();
  const run = await withEnv(vars, () =>
    playGame({ game: "glide", agent: "codex", sandbox: "none", maxActions: 1, agentRetries: 3 }, tempRoot(), {
      agent: codexAgent({ bin: fakeCodex(marker), timeoutSec: 10, userCodexHome: home }),
    }),
  );
  return { run, called: existsSync(marker), seconds: (performance.now() - started) / 1000 };
}

const NO_OPENAI = { CODEX_API_KEY: "", OPENAI_API_KEY: "", OPENAI_BASE_URL: "" };

describe("Codex's credentials are checked before the first call", () => {
  test("a key the provider refuses (401): agent-unavailable within seconds, one line, no codex call", async () => {
    const api = modelsServer(401);
    try {
      const { run, called, seconds } = await playCodex(codexHome(localProvider(api.url)), { LOCAL_KEY: "sk-wrong" });
      expect([run.end.reason, run.summary.agentCalls, called]).toEqual(["agent-unavailable", 0, false]);
      expect(seconds).toBeLessThan(10);
      expect(run.end.detail).toContain(
        `codex: the model API at ${api.url} refused the credentials (401 invalid_request_error: Incorrect API key provided`,
      );
      expect(run.end.detail).toContain("LOCAL_KEY");
      expect(run.end.detail.split("\n")).toHaveLength(1);
      expect(api.seen).toEqual([{ path: "/v1/models", query: "", authorization: "Bearer sk-wrong", extra: null }]);
    } finally {
      api.server.stop(true);
    }
  });

  test("a good key: the run proceeds to codex; the check sent the provider's headers and query parameters", async () => {
    const api = modelsServer(200);
    try {
      const extra = `http_headers = { "x-extra" = "fixed" }\nquery_params = { api-version = "2025-01-01" }\n`;
      const { run, called } = await playCodex(codexHome(localProvider(`${api.url}/`, extra)), { LOCAL_KEY: "sk-good" });
      expect([run.end.reason, run.summary.agentCalls, called]).toEqual(["max-actions", 1, true]);
      expect(api.seen).toEqual([
        { path: "/v1/models", query: "?api-version=2025-01-01", authorization: "Bearer sk-good", extra: "fixed" },
      ]);
    } finally {
      api.server.stop(true);
    }
  });

  test("the built-in provider: OPENAI_BASE_URL and CODEX_API_KEY (before OPENAI_API_KEY) are what is tried", async () => {
    const api = modelsServer(403);
    try {
      const vars = { CODEX_API_KEY: "sk-codex", OPENAI_API_KEY: "sk-openai", OPENAI_BASE_URL: api.url };
      const r = await withEnv(vars, () => checkCodexAccess(codexHome(null)));
      expect(r._unsafeUnwrapErr().message).toStartWith(`codex: the model API at ${api.url} refused the credentials (403`);
      expect(r._unsafeUnwrapErr().fix).toContain('CODEX_API_KEY for model provider "openai" (from the built-in default)');
      expect(api.seen.map((s) => s.authorization)).toEqual(["Bearer sk-codex"]);
    } finally {
      api.server.stop(true);
    }
  });

  test("the selected profile's provider wins over the top-level one", () => {
    const home = codexHome(
      `model_provider = "a"\nprofile = "fast"\n[profiles.fast]\nmodel_provider = "b"\n` +
        `[model_providers.a]\nbase_url = "http://a/v1"\nenv_key = "A_KEY"\n[model_providers.b]\nbase_url = "http://b/v1"\nenv_key = "B_KEY"\n`,
    );
    const p = codexProvider(home, { B_KEY: "k" })._unsafeUnwrap();
    expect([p.id, p.baseUrl, p.keyVar]).toEqual(["b", "http://b/v1", "B_KEY"]);
  });

  test("a server that cannot be reached is left to Codex's own call (only a refusal is certain)", async () => {
    const r = await withEnv({ LOCAL_KEY: "k" }, () => checkCodexAccess(codexHome(localProvider("http://127.0.0.1:9/v1"))));
    expect(r.isOk()).toBe(true);
  });
});

describe("a Codex configuration that cannot work is named with its file and the fix, before any call", () => {
  const cases: { name: string; toml: string | null; env: Record<string, string>; says: string[]; fix: string }[] = [
    {
      name: "no config.toml and no key in the environment",
      toml: null,
      env: NO_OPENAI,
      says: ['no credentials for model provider "openai" (from the built-in default)'],
      fix: "export CODEX_API_KEY (or OPENAI_API_KEY), or select a provider with base_url and env_key in",
    },
    {
      name: "an unknown provider",
      toml: `model_provider = "nowhere"\n[model_providers.local]\nbase_url = "http://x/v1"\n`,
      env: {},
      says: ['selects model_provider "nowhere" but defines no [model_providers.nowhere]'],
      fix: 'add a [model_providers.nowhere] table with base_url and env_key, or set model_provider to "local"',
    },
    {
      name: "the provider's env_key is not set",
      toml: localProvider("http://127.0.0.1:9/v1"),
      env: { LOCAL_KEY: "" },
      says: ['model provider "local" takes its key from $LOCAL_KEY, which is not set'],
      fix: "export LOCAL_KEY=",
    },
    {
      name: "a profile that is not defined",
      toml: `profile = "gone"\n`,
      env: {},
      says: ['selects profile "gone" but defines no [profiles.gone]'],
      fix: "add a [profiles.gone] table",
    },
    {
      name: "a file that is not TOML",
      toml: `model_provider = \n`,
      env: {},
      says: ["is not valid TOML (TOML Parse error: Missing value"],
      fix: "correct the TOML there",
    },
    {
      name: "a base_url that is not a string",
      toml: `model_provider = "local"\n[model_providers.local]\nbase_url = 8080\n`,
      env: {},
      says: ["model_providers.local.base_url of the wrong shape"],
      fix: "strings for URLs",
    },
  ];
  for (const c of cases)
    test(c.name, async () => {
      const home = codexHome(c.toml);
      const marker = join(tempRoot(), "codex-was-called");
      const run = await withEnv(c.env, () =>
        playGame({ game: "glide", agent: "codex", sandbox: "none", maxActions: 1 }, tempRoot(), {
          agent: codexAgent({ bin: fakeCodex(marker), timeoutSec: 10, userCodexHome: home }),
        }),
      );
      expect([run.end.reason, run.summary.agentCalls, existsSync(marker)]).toEqual(["agent-unavailable", 0, false]);
      for (const s of c.says) expect(run.end.detail).toContain(s);
      expect(run.end.detail).toContain(join(home, "config.toml"));
      expect(run.end.detail).toContain(c.fix);
    });

  test("a directory, a FIFO or a link to /dev/zero where config.toml should be: refused at once, named", () => {
    const plants: [string, (at: string) => void][] = [
      ["directory", (at) => mkdirSync(at)],
      ["FIFO", (at) => Bun.spawnSync(["mkfifo", at])],
      ["link to /dev/zero", (at) => symlinkSync("/dev/zero", at)],
    ];
    for (const [what, plant] of plants) {
      const home = codexHome(null);
      plant(join(home, "config.toml"));
      const e = codexProvider(home, {})._unsafeUnwrapErr();
      expect([what, e.path, e.message]).toEqual([what, join(home, "config.toml"), "Codex's config.toml is not a regular file"]);
      expect(providerKeys(home, { LOCAL_KEY: "k" })).toEqual({});
    }
  });
});

test("play names Codex's model server before the first call (the real command, a stand-in codex in ./node_modules/.bin)", async () => {
  const api = modelsServer(200);
  try {
    const cwd = tempRoot();
    const bin = join(cwd, "node_modules", ".bin");
    mkdirSync(bin, { recursive: true });
    const marker = join(cwd, "codex-was-called");
    Bun.spawnSync(["cp", fakeCodex(marker), join(bin, "codex")]);
    const main = join(import.meta.dir, "../../../src/main.ts");
    const args = ["play", "glide", "--agent", "codex", "--sandbox", "none", "--max-actions", "1", "--runs-dir", tempRoot()];
    // Spawned, not spawnSync: the stand-in server lives in this process and must go on answering.
    const p = Bun.spawn([process.execPath, main, ...args], {
      cwd,
      env: { ...process.env, CODEX_HOME: codexHome(localProvider(api.url)), LOCAL_KEY: "sk-good" },
      stdout: "ignore",
      stderr: "pipe",
    });
    const err = await new Response(p.stderr).text();
    expect(await p.exited).toBe(0);
    expect(existsSync(marker)).toBe(true);
    expect(err).toContain(`prolong: calling the model API at ${api.url} (codex, model provider "local")\n`);
  } finally {
    api.server.stop(true);
  }
});
