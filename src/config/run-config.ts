// RunConfig: every setting of one run, its defaults, and its schema. Written to <run-dir>/run.json so that
// `prolong resume` continues with exactly the settings the run started with.
import { err, ok, type Result } from "neverthrow";
import * as v from "valibot";
import { resolve } from "node:path";
import { flag } from "../setting/flag.ts";
import { FULL_WINDOW, LogWindowFlagSchema, LogWindowSchema } from "../setting/log-window.ts";
import {
  type SettingTable,
  Text,
  bounded,
  boundedOptional,
  defaultsOf,
  presetsOf,
  fieldsFromFlagValues,
  notApplicable,
  schemaEntries,
  setting,
  settingFlags,
} from "../setting/declaration.ts";
import { TOOL_LEVELS, ToolLevelFlag } from "./tool-level.ts";

export { TOOL_LEVELS, type ToolLevel } from "./tool-level.ts";
import { prolongError, type ProlongError } from "../errors.ts";
import { FILE_CAPS, readRegularText } from "../safe-file.ts";
import { VERSION } from "../version.ts";
import { DEFAULT_ENV_KIND, ENV_KINDS, envKind, KIND_SETTINGS, type EnvKindName } from "../game/kinds.ts";

export const AGENT_KINDS = ["explorer", "random", "human", "command", "claude", "codex", "mini"] as const;
export type AgentKind = (typeof AGENT_KINDS)[number];

/**
 * What a run's agent is called in summaries and derived arm names. `--agent explorer` (the default) means the
 * environment's built-in player, and NetHack's is its own agent, not the grid explorer; run.json keeps the flag
 * value, so the arm's fingerprint and the runs recorded before stay as they were.
 */
export function agentName(c: { readonly agent: AgentKind; readonly env: EnvKindName }): string {
  return c.agent === "explorer" ? envKind(c.env).builtinPlayer : c.agent;
}
/** Where games come from: the environment kinds (game/kinds.ts). */
export { ENV_KINDS };
/** How external agents are confined: bubblewrap, nothing, or bubblewrap where it is installed. */
export const SANDBOX_KINDS = ["auto", "bwrap", "none"] as const;
export const WORKSPACE_MODES = ["persistent", "stateless"] as const;
export const GRID_MODES = ["ascii", "hex"] as const;

/** A directory shown inside the sandbox: absolute, one line, no NUL (bwrap takes it as one argument). */
const SandboxPath = (flag: string) =>
  v.pipe(
    v.string(),
    v.regex(/^\/[^\u0000-\u001f]*$/, `${flag} takes a directory (made absolute), on one line`),
    v.maxLength(4096, `${flag} takes a path of at most 4096 characters`),
  );

/** Directories given to --bind/--bind-ro are saved absolute: run.json means the same from wherever it is resumed. */
const absolutePaths = (value: unknown) => (value as string[]).map((d) => resolve(d));

/** The spend guard's range, which `resume --max-billed-tokens` raises it within. */
const maxBilledTokens = boundedOptional("max-billed-tokens", "--max-billed-tokens", [1, 1e15]);
export const MAX_BILLED_TOKENS_FLAG = maxBilledTokens.flag.read;

/** Where the board comes from besides the log: `mcp`, a read-only observe tool (docs/trajectory.md). */
export const OBSERVE_MODES = ["mcp"] as const;

/** How the mini agent gives its commands: as tool calls or in fenced ```bash blocks. */
export const TOOL_FORMATS = ["tools", "text"] as const;

/**
 * Every setting of a run, each declared once (setting/declaration.ts): the order here is run.json's key order, so
 * runs written before read and write back byte for byte.
 */
export const RUN_SETTINGS = {
  game: setting({ schema: v.pipe(v.string(), v.minLength(1, "a game id is required")), arm: false }),
  /** The arm's name (`--arm`); without it the name is derived from the settings (config/arm.ts). */
  arm: setting({
    schema: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[^\u0000-\u001f\u007f]{1,80}$/, "--arm takes a name of 1 to 80 printable characters on one line"),
        v.check((s) => s.trim() !== "", "--arm takes a non-blank name"),
      ),
    ),
    flag: { name: "arm", read: flag.text() },
    arm: false,
    help: {
      group: "other",
      arg: "NAME",
      text: `the arm this run belongs to, for \`prolong score\` and \`report\` (default: derived from
the settings, e.g. "explorer --log-window 25"); runs under one name must share every
setting that changes what the agent sees or does, or score refuses to pool them`,
    },
  }),
  env: setting({
    schema: v.picklist(ENV_KINDS, `env must be one of ${ENV_KINDS.join(", ")}`),
    flag: { name: "env", read: flag.choice(ENV_KINDS) },
    default: DEFAULT_ENV_KIND,
    arm: true,
    help: {
      group: "games",
      arg: ENV_KINDS.join("|"),
      text: `where the game comes from (default {default}):
${ENV_KINDS.map((k) => `  ${k}: ${envKind(k).about}`).join("\n")}`,
    },
  }),
  // Each environment kind's own settings (game/kinds.ts), in run.json right after env.
  ...KIND_SETTINGS,
  sandbox: setting({
    schema: v.picklist(SANDBOX_KINDS, `sandbox must be one of ${SANDBOX_KINDS.join(", ")}`),
    flag: { name: "sandbox", read: flag.choice(SANDBOX_KINDS) },
    default: "auto",
    arm: false,
    help: {
      group: "sandbox",
      arg: SANDBOX_KINDS.join("|"),
      text: `confine external agents with bubblewrap (auto: when installed; default {default})
Under bwrap an agent also sees, read-only, the directory prolong was started in
(unless it is / or a home directory itself) and the directories of the scripts
--cmd names (relative paths there are made absolute: the command runs in the
workspace); never the runs directory.`,
    },
  }),
  /** Environment variables a sandboxed agent gets beyond what its backend needs (`--pass-env NAME`, repeatable). */
  passEnv: setting({
    schema: v.optional(
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
    flag: { name: "pass-env", read: flag.list() },
    arm: false,
    help: {
      group: "sandbox",
      arg: "NAME",
      text: `under bwrap the agent gets only what its backend needs of the environment (PATH,
HOME, locale, proxies and CA files, ANTHROPIC_*/CLAUDE_*/OPENAI_*/CODEX_*/PROLONG_*);
pass NAME too (repeatable). Without a sandbox the agent sees the whole environment.`,
    },
  }),
  /** Directories a sandboxed agent also sees, read-write (`--bind DIR`) and read-only (`--bind-ro DIR`, and by
   * default the directory prolong was started in): absolute paths, as run.json keeps them for resume. */
  bind: setting({
    schema: v.optional(v.array(SandboxPath("--bind"))),
    flag: { name: "bind", read: flag.list(), toField: absolutePaths },
    // Which of this machine's directories the agent is shown is where its tools are, not the experiment.
    arm: false,
    help: {
      group: "sandbox",
      arg: "DIR",
      text: "show DIR read-write (repeatable): what the agent writes there stays on this machine",
    },
  }),
  bindRo: setting({
    schema: v.optional(v.array(SandboxPath("--bind-ro"))),
    flag: { name: "bind-ro", read: flag.list(), toField: absolutePaths },
    arm: false,
    help: {
      group: "sandbox",
      arg: "DIR",
      text: "show DIR read-only too (repeatable), e.g. --bind-ro ~/.pyenv for pyenv's python",
    },
  }),
  agent: setting({
    schema: v.picklist(AGENT_KINDS, `agent must be one of ${AGENT_KINDS.join(", ")}`),
    flag: { name: "agent", read: flag.choice(AGENT_KINDS) },
    default: "explorer",
    arm: true,
    help: {
      group: "agent",
      arg: "KIND",
      text: `${AGENT_KINDS.join(" | ")} (default {default}: the
environment's built-in player, offline, no key: ${[...new Set(ENV_KINDS.map((k) => envKind(k).builtinPlayer))].join(" or ")}).
human: you play in this terminal (keys, mouse clicks); the run is
recorded, scored and resumable like any agent's.
random: seeded uniform draws among the available actions, clicks on the
board's distinct things (the floor to compare with; grid games only).`,
    },
  }),
  cmd: setting({
    schema: v.optional(Text(65_536, "--cmd", "lines")),
    flag: { name: "cmd", read: flag.text() },
    appliesTo: { agent: ["command"] },
    arm: true,
    help: {
      group: "agent",
      arg: "'SHELL COMMAND'",
      text: "for --agent command: run in the workspace each turn; it must leave actions.json",
    },
  }),
  model: setting({
    schema: v.optional(Text(200, "--model")),
    flag: { name: "model", read: flag.text() },
    appliesTo: { agent: ["claude", "codex", "mini"] },
    arm: true,
    help: { group: "agent", arg: "M", text: "the model, passed to coding-agent backends and mini" },
  }),
  effort: setting({
    schema: v.optional(Text(200, "--effort")),
    flag: { name: "effort", read: flag.text() },
    appliesTo: { agent: ["claude", "codex"] },
    arm: true,
    help: { group: "agent", arg: "E", text: "the reasoning effort, passed to claude and codex" },
  }),
  /** --agent mini: the API root of an OpenAI-compatible Chat Completions server. */
  baseUrl: setting({
    schema: v.optional(
      v.pipe(
        v.string(),
        v.url("--base-url must be a URL such as http://127.0.0.1:8080/v1"),
        v.regex(/^https?:\/\//i, "--base-url must start with http:// or https://"),
      ),
    ),
    flag: { name: "base-url", read: flag.text() },
    appliesTo: { agent: ["mini"] },
    arm: true,
    help: {
      group: "mini",
      arg: "URL",
      text: "the API root (default https://api.openai.com/v1; llama.cpp: http://127.0.0.1:8080/v1)",
    },
  }),
  /** --agent mini: the environment variable holding the API key (its NAME is saved, never the key). */
  apiKeyEnv: setting({
    schema: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "--api-key-env must be an environment variable name such as OPENAI_API_KEY"),
      ),
    ),
    flag: { name: "api-key-env", read: flag.text() },
    appliesTo: { agent: ["mini"] },
    arm: false,
    help: {
      group: "mini",
      arg: "NAME",
      text: "the variable holding the key (default OPENAI_API_KEY; local servers take any value)",
    },
  }),
  /** --agent mini: commands as tool calls or as fenced ```bash blocks. */
  toolFormat: setting({
    schema: v.optional(v.picklist(TOOL_FORMATS, "--tool-format must be tools or text")),
    flag: { name: "tool-format", read: flag.choice(TOOL_FORMATS) },
    appliesTo: { agent: ["mini"] },
    arm: true,
    help: {
      group: "mini",
      arg: TOOL_FORMATS.join("|"),
      text: "bash as a tool call (default) or in fenced ```bash blocks (servers without tools)",
    },
  }),
  /** --agent mini: most model replies per turn. */
  stepLimit: setting({
    ...boundedOptional("step-limit", "--step-limit", [1, 10_000]),
    appliesTo: { agent: ["mini"] },
    arm: true,
    help: { group: "mini", arg: "N", text: "most model replies per turn (default 30)" },
  }),
  /** Tokens of conversation kept before compacting (mini: oldest outputs dropped; codex/claude: their own setting). */
  contextLimit: setting({
    ...boundedOptional("context-limit", "--context-limit", [1000, 100_000_000], { unit: " of tokens" }),
    appliesTo: { agent: ["mini", "claude", "codex"] },
    arm: true,
    help: {
      group: "ablation",
      arg: "N",
      text: `tokens kept before compacting: mini drops the oldest outputs, codex and claude
pass it to their own auto-compaction`,
    },
  }),
  /** The tool ladder level (absent: all). */
  tools: setting({
    schema: v.optional(v.picklist(TOOL_LEVELS, `--tools must be one of ${TOOL_LEVELS.join(" | ")}`)),
    flag: { name: "tools", read: flag.custom(ToolLevelFlag) },
    appliesTo: { agent: ["mini", "claude", "codex"] },
    arm: true,
    help: { group: "ablation", arg: "LEVEL", text: `${TOOL_LEVELS.join(" | ")} (default); mini and claude (codex: all)` },
  }),
  /** No file may be created or changed but actions.json. */
  noWrite: setting({
    schema: v.optional(v.boolean()),
    flag: { name: "no-write", read: flag.bool() },
    appliesTo: { agent: ["mini", "claude", "codex"] },
    arm: true,
    help: { group: "ablation", text: "no file but actions.json may be written" },
  }),
  /** --observe mcp: the board is not in the prompt; the agent asks for it with an `observe` tool served over MCP. */
  observe: setting({
    schema: v.optional(v.picklist(OBSERVE_MODES, `--observe must be one of ${OBSERVE_MODES.join(", ")}`)),
    flag: { name: "observe", read: flag.choice(OBSERVE_MODES) },
    // A command agent has no tool channel: a program of the user's reads files, and the board is one already.
    appliesTo: { agent: ["mini", "claude", "codex"] },
    arm: true,
    help: {
      group: "ablation",
      arg: OBSERVE_MODES.join("|"),
      text: `the board is not in the prompt: a read-only observe tool serves it over MCP
(claude, codex; mini as a second tool), every call in trajectory.jsonl`,
    },
  }),
  /** Most actions per episode; RESET counts, as in the paper. */
  maxActions: setting({
    ...bounded("max-actions", "max actions", [1, 1_000_000]),
    default: 500,
    arm: true,
    help: { group: "budget", arg: "N", text: "actions per episode, RESET included (default {default})" },
  }),
  /**
   * The spend guard: no agent call starts once the run has billed this many tokens; the run stops as
   * interrupted, resumable (`prolong resume DIR --max-billed-tokens N` raises it). Bookkeeping, like a timeout:
   * runs under different guards are one arm.
   */
  maxBilledTokens: setting({
    ...maxBilledTokens,
    arm: false,
    help: {
      group: "budget",
      arg: "N",
      text: "the spend guard: no agent call starts once the run has billed N tokens ((input − cached) +\n6 × output + 0.1 × cached); it stops as interrupted, and `prolong resume DIR\n--max-billed-tokens M` goes on with a larger budget",
    },
  }),
  /** Most actions executed from one actions.json. */
  actionCap: setting({
    ...bounded("action-cap", "the action cap", [1, 100_000]),
    default: 20,
    arm: true,
    help: { group: "budget", arg: "N", text: "most actions executed from one actions.json (default {default})" },
  }),
  /** What part of the log the agent's copy holds (setting/log-window.ts). */
  logWindow: setting({
    schema: LogWindowSchema,
    flag: { name: "log-window", read: flag.custom(LogWindowFlagSchema) },
    default: FULL_WINDOW,
    arm: true,
    help: {
      group: "memory",
      arg: "W",
      text: `full (default): the whole log; last:N (or N): the last N action sections, the
header section kept; newest (or 0): the newest section, animation frames
stripped; none (or -1): no log file, the board goes into the prompt`,
    },
  }),
  workspace: setting({
    schema: v.picklist(WORKSPACE_MODES, "workspace must be persistent or stateless"),
    flag: { name: "workspace", read: flag.choice(WORKSPACE_MODES) },
    default: "persistent",
    arm: true,
    help: {
      group: "memory",
      arg: "MODE",
      text: `persistent (default) | stateless: wiped each turn but logs.txt, plans.txt and the
instructions; the agent's plan goes to plans.txt instead of the log`,
    },
  }),
  episodes: setting({
    ...bounded("episodes", "episodes", [1, 10_000]),
    default: 1,
    arm: true,
    help: { group: "memory", arg: "K", text: "K episodes on one seed, the log kept across them (default {default})" },
  }),
  gridMode: setting({
    schema: v.picklist(GRID_MODES, "grid mode must be ascii or hex"),
    flag: { name: "grid", read: flag.choice(GRID_MODES) },
    default: "ascii",
    arm: true,
    help: {
      group: "other",
      arg: GRID_MODES.join("|"),
      text: "how boards are written in the log (default {default}, as in the paper)",
    },
  }),
  seed: setting({
    // Any whole number a flag can give (run k of --runs K plays seed + k - 1, past the flag's own 2^32 - 1).
    schema: v.pipe(v.number(), v.integer("the seed must be a whole number"), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER)),
    flag: { name: "seed", read: flag.int(0, 2 ** 32 - 1) },
    default: 0,
    // The arm spans seeds.
    arm: false,
    help: { group: "other", arg: "N", text: "game and agent seed (default {default})" },
  }),
  /** Consecutive failed agent calls (crash, no or malformed actions.json) before the run ends. */
  agentRetries: setting({
    ...bounded("agent-retries", "agent retries", [0, 1000]),
    default: 3,
    arm: false,
    help: { group: "agent", arg: "N", text: "failed calls in a row before the run ends (default {default})" },
  }),
  agentTimeoutSec: setting({
    // A week at most: a longer timer overflows.
    ...bounded("agent-timeout", "the agent timeout", [1, 7 * 24 * 3600], { unit: " of seconds", fractions: true }),
    default: 600,
    arm: false,
    help: { group: "agent", arg: "SEC", text: "per agent call (default {default}); a hung agent's process group is killed" },
  }),
  // The build that made the run: part of the arm, so runs of two builds are never pooled unasked.
  version: setting({ schema: Text(200, "version"), arm: true, label: "prolong version" }),
  /** The plan job this run is (`prolong run-plan`), so runs gathered from many machines map back to the plan. */
  job: setting({
    schema: v.optional(v.pipe(v.string(), v.regex(/^j-[0-9a-f]{12}$/, "a plan job id is j- and 12 hex digits"))),
    arm: false,
  }),
};

export const RunConfigSchema = v.object(schemaEntries(RUN_SETTINGS));

export type RunConfig = v.InferOutput<typeof RunConfigSchema>;
/** Settings as they come in (flags, run.json): the window may be its text form or an older run's number. */
export type RunConfigInput = v.InferInput<typeof RunConfigSchema>;

/** The kinds' settings that say where their games lie on this machine (not part of the arm): a plan's. */
export const KIND_PLACES = Object.fromEntries(Object.entries(KIND_SETTINGS as SettingTable).filter(([, s]) => !s.arm));

/** The declared defaults (setting/declaration.ts). */
export const DEFAULTS = defaultsOf(RUN_SETTINGS) as Partial<RunConfig> &
  Pick<RunConfig, "env" | "sandbox" | "agent" | "maxActions" | "actionCap" | "logWindow" | "workspace" | "episodes">;

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

/** The defaults of a run in this environment: DEFAULTS, with the kind's own where they differ. */
export function defaultsFor(env: EnvKindName | undefined): Partial<RunConfig> {
  return { ...DEFAULTS, ...envKind(env ?? DEFAULT_ENV_KIND).defaults };
}

export function newConfig(fields: Partial<RunConfigInput> & { game: string }): Result<RunConfig, ProlongError> {
  const presets = presetsOf(RUN_SETTINGS, fields);
  if (presets.conflict) {
    const c = presets.conflict;
    return err(
      prolongError(
        "preset-conflict",
        `${c.preset} ${String(c.value)} plays with ${c.label} ${String(c.fixed)}, not ${String(c.given)}`,
        {
          path: "command line",
          fix: `drop ${c.label} (or drop ${c.preset} ${String(c.value)} to choose it yourself)`,
        },
      ),
    );
  }
  return validateConfig(
    { ...defaultsFor(fields.env), ...presets.defaults, version: VERSION, ...presets.fixed, ...fields },
    "command line",
  ).andThen(checkApplicable);
}

/**
 * A flag given for an agent or environment it does not apply to is an error naming the flag: accepted, it
 * would change the run's arm (its name and fingerprint) without changing what the agent does.
 */
export function checkApplicable<C extends Readonly<Record<string, unknown>>>(c: C): Result<C, ProlongError> {
  const bad = notApplicable(RUN_SETTINGS, c);
  if (bad === undefined) return ok(c);
  const { label, on, kind, kinds } = bad;
  return err(
    prolongError("flag-not-applicable", `${label} does not apply to --${on} ${kind} (it is for ${kinds.join(", ")})`, {
      path: "command line",
      fix: `drop ${label}, or use it with --${on} ${kinds.join(" | ")}`,
    }),
  );
}

/** The run settings parsed play flags give (each already checked; newConfig checks them together). */
export function fieldsFromFlags(values: Readonly<Record<string, unknown>>): Partial<RunConfigInput> {
  return fieldsFromFlagValues(RUN_SETTINGS, values) as Partial<RunConfigInput>;
}

/** The play flag of every setting that has one, by flag name. */
export const SETTING_FLAGS = settingFlags(RUN_SETTINGS);

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
