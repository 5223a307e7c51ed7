// RunConfig: every setting of one run, its defaults, and its schema. Written to <run-dir>/run.json so that
// `prolong resume` continues with exactly the settings the run started with.
import { err, ok, type Result } from "neverthrow";
import * as v from "valibot";
import { FULL_WINDOW, LogWindowSchema } from "../config/log-window.ts";
import { prolongError, type ProlongError } from "../errors.ts";
import { FILE_CAPS, readRegularText } from "../safe-file.ts";
import { VERSION } from "../version.ts";
import { ALIGNMENTS, RACES, ROLES } from "./nethack-character.ts";

export const AGENT_KINDS = ["explorer", "random", "human", "command", "claude", "codex", "mini"] as const;
export type AgentKind = (typeof AGENT_KINDS)[number];

/**
 * What a run's agent is called in summaries and derived arm names. `--agent explorer` (the default) means the
 * environment's built-in player, and NetHack's is its own agent, not the grid explorer; run.json keeps the flag
 * value, so the arm's fingerprint and the runs recorded before stay as they were.
 */
export function agentName(c: { readonly agent: AgentKind; readonly env: (typeof ENV_KINDS)[number] }): string {
  return c.agent === "explorer" && c.env === "nethack" ? "nethack-agent" : c.agent;
}
/** Where games come from: the committed local games, ARC's engine run offline, or ARC's REST service. */
export const ENV_KINDS = ["local", "arc-local", "arc-online", "nethack"] as const;
/** How external agents are confined: bubblewrap, nothing, or bubblewrap where it is installed. */
export const SANDBOX_KINDS = ["auto", "bwrap", "none"] as const;
export const WORKSPACE_MODES = ["persistent", "stateless"] as const;
export const GRID_MODES = ["ascii", "hex"] as const;

/**
 * The range of each numeric setting: the flag accepts exactly these (cli/play.ts) and run.json is held to
 * them, so a hand-edited run.json cannot carry what the flag refuses (a 1e7 s timeout overflows a timer).
 */
export const SETTING_BOUNDS = {
  agentTimeoutSec: [1, 7 * 24 * 3600],
  agentRetries: [0, 1000],
  stepLimit: [1, 10_000],
  contextLimit: [1000, 100_000_000],
  maxActions: [1, 1_000_000],
  actionCap: [1, 100_000],
  episodes: [1, 10_000],
} as const satisfies Record<string, readonly [number, number]>;

type Bounded = keyof typeof SETTING_BOUNDS;
const range = (k: Bounded) => `${SETTING_BOUNDS[k][0]} to ${SETTING_BOUNDS[k][1]}`;
const Int = (k: Bounded, what: string) => {
  const msg = `${what} must be a whole number from ${range(k)}`;
  return v.pipe(v.number(msg), v.integer(msg), v.minValue(SETTING_BOUNDS[k][0], msg), v.maxValue(SETTING_BOUNDS[k][1], msg));
};
/** A free-text setting: bounded, one line of printable text (it is shown in summaries and tables). */
const Text = (max: number, what: string, lines: "one line" | "lines" = "one line") =>
  v.pipe(
    v.string(),
    v.maxLength(max, `${what} is longer than ${max} characters`),
    lines === "lines"
      ? v.regex(/^[^\u0000-\u0008\u000b-\u001f\u007f-\u009f]*$/, `${what} must hold no control characters but tab and newline`)
      : v.regex(/^[^\u0000-\u0008\u000a-\u001f\u007f-\u009f]*$/, `${what} must be one line without control characters`),
  );

/** The tool ladder of the ablation arms (--tools); what each level allows is agent/tool-ladder.ts. */
/** Where the board comes from besides the log: `mcp`, a read-only observe tool (docs/trajectory.md). */
export const OBSERVE_MODES = ["mcp"] as const;

export const TOOL_LEVELS = ["read", "read,grep", "read,grep,python", "all"] as const;
export type ToolLevel = (typeof TOOL_LEVELS)[number];

/** A directory shown inside the sandbox: absolute, one line, no NUL (bwrap takes it as one argument). */
const SandboxPath = (flag: string) =>
  v.pipe(
    v.string(),
    v.regex(/^\/[^\u0000-\u001f]*$/, `${flag} takes a directory (made absolute), on one line`),
    v.maxLength(4096, `${flag} takes a path of at most 4096 characters`),
  );

export const RunConfigSchema = v.object({
  game: v.pipe(v.string(), v.minLength(1, "a game id is required")),
  /** The arm's name (`--arm`); without it the name is derived from the settings (config/arm.ts). */
  arm: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^[^\u0000-\u001f\u007f]{1,80}$/, "--arm takes a name of 1 to 80 printable characters on one line"),
      v.check((s) => s.trim() !== "", "--arm takes a non-blank name"),
    ),
  ),
  env: v.picklist(ENV_KINDS, `env must be one of ${ENV_KINDS.join(", ")}`),
  /** For env arc-local: the directory of ARC game files (<id>/<version>/<id>.py + metadata.json). */
  arcGames: v.optional(Text(4096, "--arc-games")),
  /** For env nethack: the fixed character (defaults: a human neutral female valkyrie). */
  role: v.optional(v.picklist(ROLES, `role must be one of ${ROLES.join(", ")}`)),
  race: v.optional(v.picklist(RACES, `race must be one of ${RACES.join(", ")}`)),
  alignment: v.optional(v.picklist(ALIGNMENTS, `alignment must be one of ${ALIGNMENTS.join(", ")}`)),
  sandbox: v.picklist(SANDBOX_KINDS, `sandbox must be one of ${SANDBOX_KINDS.join(", ")}`),
  /** Environment variables a sandboxed agent gets beyond what its backend needs (`--pass-env NAME`, repeatable). */
  passEnv: v.optional(
    v.pipe(
      v.array(
        v.pipe(
          v.string(),
          v.regex(/^[A-Za-z_][A-Za-z0-9_]{0,199}$/, "--pass-env takes an environment variable name such as MY_TOKEN"),
        ),
      ),
      v.maxLength(256, "--pass-env is given at most 256 times"),
    ),
  ),
  /** Directories a sandboxed agent also sees, read-write (`--bind DIR`) and read-only (`--bind-ro DIR`, and by
   * default the directory prolong was started in): absolute paths, as run.json keeps them for resume. */
  bind: v.optional(v.array(SandboxPath("--bind"))),
  bindRo: v.optional(v.array(SandboxPath("--bind-ro"))),
  agent: v.picklist(AGENT_KINDS, `agent must be one of ${AGENT_KINDS.join(", ")}`),
  cmd: v.optional(Text(65_536, "--cmd", "lines")),
  model: v.optional(Text(200, "--model")),
  effort: v.optional(Text(200, "--effort")),
  /** --agent mini: the API root of an OpenAI-compatible Chat Completions server. */
  baseUrl: v.optional(
    v.pipe(
      v.string(),
      v.url("--base-url must be a URL such as http://127.0.0.1:8080/v1"),
      v.regex(/^https?:\/\//i, "--base-url must start with http:// or https://"),
    ),
  ),
  /** --agent mini: the environment variable holding the API key (its NAME is saved, never the key). */
  apiKeyEnv: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "--api-key-env must be an environment variable name such as OPENAI_API_KEY"),
    ),
  ),
  /** --agent mini: commands as tool calls or as fenced ```bash blocks. */
  toolFormat: v.optional(v.picklist(["tools", "text"], "--tool-format must be tools or text")),
  /** --agent mini: most model replies per turn. */
  stepLimit: v.optional(Int("stepLimit", "--step-limit")),
  /** Tokens of conversation kept before compacting (mini: oldest outputs dropped; codex/claude: their own setting). */
  contextLimit: v.optional(Int("contextLimit", "--context-limit (tokens)")),
  /** The tool ladder level (absent: all). */
  tools: v.optional(v.picklist(TOOL_LEVELS, `--tools must be one of ${TOOL_LEVELS.join(" | ")}`)),
  /** No file may be created or changed but actions.json. */
  noWrite: v.optional(v.boolean()),
  /** --observe mcp: the board is not in the prompt; the agent asks for it with an `observe` tool served over MCP. */
  observe: v.optional(v.picklist(OBSERVE_MODES, `--observe must be one of ${OBSERVE_MODES.join(", ")}`)),
  /** Most actions per episode; RESET counts, as in the paper. */
  maxActions: Int("maxActions", "max actions"),
  /** Most actions executed from one actions.json. */
  actionCap: Int("actionCap", "the action cap"),
  /** What part of the log the agent's copy holds (config/log-window.ts). */
  logWindow: LogWindowSchema,
  workspace: v.picklist(WORKSPACE_MODES, "workspace must be persistent or stateless"),
  episodes: Int("episodes", "episodes"),
  gridMode: v.picklist(GRID_MODES, "grid mode must be ascii or hex"),
  // Any whole number a flag can give (run k of --runs K plays seed + k - 1, past the flag's own 2^32 - 1).
  seed: v.pipe(v.number(), v.integer("the seed must be a whole number"), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER)),
  /** Consecutive failed agent calls (crash, no or malformed actions.json) before the run ends. */
  agentRetries: Int("agentRetries", "agent retries"),
  agentTimeoutSec: v.pipe(
    v.number(`the agent timeout must be a number of seconds from ${range("agentTimeoutSec")}`),
    v.minValue(
      SETTING_BOUNDS.agentTimeoutSec[0],
      `the agent timeout must be at least ${SETTING_BOUNDS.agentTimeoutSec[0]} second`,
    ),
    v.maxValue(
      SETTING_BOUNDS.agentTimeoutSec[1],
      `the agent timeout must be at most ${SETTING_BOUNDS.agentTimeoutSec[1]} seconds (a week)`,
    ),
  ),
  version: Text(200, "version"),
  /** The plan job this run is (`prolong run-plan`), so runs gathered from many machines map back to the plan. */
  job: v.optional(v.pipe(v.string(), v.regex(/^j-[0-9a-f]{12}$/, "a plan job id is j- and 12 hex digits"))),
});

export type RunConfig = v.InferOutput<typeof RunConfigSchema>;
/** Settings as they come in (flags, run.json): the window may be its text form or an older run's number. */
export type RunConfigInput = v.InferInput<typeof RunConfigSchema>;

export const DEFAULTS = {
  env: "local",
  sandbox: "auto",
  agent: "explorer",
  maxActions: 500,
  actionCap: 20,
  logWindow: FULL_WINDOW,
  workspace: "persistent",
  episodes: 1,
  gridMode: "ascii",
  seed: 0,
  agentRetries: 3,
  agentTimeoutSec: 600,
} as const satisfies Partial<RunConfig>;

/** Validates a config assembled from flags (or read back from run.json); `source` names it in errors. */
export function validateConfig(input: unknown, source: string): Result<RunConfig, ProlongError> {
  const parsed = v.safeParse(RunConfigSchema, input);
  if (parsed.success) return ok(parsed.output);
  const issue = parsed.issues[0];
  const field = issue.path?.map((p) => String(p.key)).join(".") ?? "(config)";
  return err(
    prolongError("bad-config", `${field}: ${issue.message}`, {
      path: source,
      fix: "see `prolong play --help` for the accepted values",
    }),
  );
}

/** Defaults that differ for NetHack: episodes of 20,000 actions and batches of up to 30, as in the paper. */
export const NETHACK_DEFAULTS = { maxActions: 20_000, actionCap: 30 } as const satisfies Partial<RunConfig>;

/** The defaults of a run in this environment: DEFAULTS, with NetHack's own where they differ. */
export function defaultsFor(env: (typeof ENV_KINDS)[number] | undefined): Partial<RunConfig> {
  return env === "nethack" ? { ...DEFAULTS, ...NETHACK_DEFAULTS } : DEFAULTS;
}

export function newConfig(fields: Partial<RunConfigInput> & { game: string }): Result<RunConfig, ProlongError> {
  return validateConfig({ ...defaultsFor(fields.env), version: VERSION, ...fields }, "command line").andThen(checkApplicable);
}

/** Which agents (or environments) each optional setting means something to. */
const APPLIES_TO: readonly {
  readonly field: keyof RunConfig;
  readonly flag: string;
  readonly on: "agent" | "env";
  readonly kinds: readonly string[];
}[] = [
  { field: "cmd", flag: "--cmd", on: "agent", kinds: ["command"] },
  { field: "model", flag: "--model", on: "agent", kinds: ["claude", "codex", "mini"] },
  { field: "effort", flag: "--effort", on: "agent", kinds: ["claude", "codex"] },
  { field: "baseUrl", flag: "--base-url", on: "agent", kinds: ["mini"] },
  { field: "apiKeyEnv", flag: "--api-key-env", on: "agent", kinds: ["mini"] },
  { field: "toolFormat", flag: "--tool-format", on: "agent", kinds: ["mini"] },
  { field: "stepLimit", flag: "--step-limit", on: "agent", kinds: ["mini"] },
  { field: "contextLimit", flag: "--context-limit", on: "agent", kinds: ["mini", "claude", "codex"] },
  { field: "tools", flag: "--tools", on: "agent", kinds: ["mini", "claude", "codex"] },
  { field: "noWrite", flag: "--no-write", on: "agent", kinds: ["mini", "claude", "codex"] },
  // A command agent has no tool channel: a program of the user's reads files, and the board is one already.
  { field: "observe", flag: "--observe", on: "agent", kinds: ["mini", "claude", "codex"] },
  { field: "arcGames", flag: "--arc-games", on: "env", kinds: ["arc-local"] },
  { field: "role", flag: "--role", on: "env", kinds: ["nethack"] },
  { field: "race", flag: "--race", on: "env", kinds: ["nethack"] },
  { field: "alignment", flag: "--align", on: "env", kinds: ["nethack"] },
];

/**
 * A flag given for an agent or environment it does not apply to is an error naming the flag: accepted, it
 * would change the run's arm (its name and fingerprint) without changing what the agent does.
 */
export function checkApplicable(c: RunConfig): Result<RunConfig, ProlongError> {
  for (const a of APPLIES_TO) {
    if (c[a.field] === undefined) continue;
    const kind = a.on === "agent" ? c.agent : c.env;
    if (a.kinds.includes(kind)) continue;
    return err(
      prolongError("flag-not-applicable", `${a.flag} does not apply to --${a.on} ${kind} (it is for ${a.kinds.join(", ")})`, {
        path: "command line",
        fix: `drop ${a.flag}, or use it with --${a.on} ${a.kinds.join(" | ")}`,
      }),
    );
  }
  return ok(c);
}

export function readConfigFile(path: string): Result<RunConfig, ProlongError> {
  const text = readRegularText(path, FILE_CAPS.settings, "the run's settings (run.json)");
  if (text.isErr()) {
    const e = text.error;
    return err(
      e.code === "missing-file"
        ? { ...e, fix: "is this a prolong run directory? it should hold run.json, logs.txt and index.sqlite" }
        : e,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text.value);
  } catch (e) {
    return err(
      prolongError("bad-config", `cannot read the run's settings: ${(e as Error).message}`, {
        path,
        fix: "is this a prolong run directory? it should hold run.json, logs.txt and index.sqlite",
      }),
    );
  }
  return validateConfig(json, path);
}
