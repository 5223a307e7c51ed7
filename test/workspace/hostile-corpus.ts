// The hostile-agent corpus (test/workspace/hostile.test.ts says what it proves): every workspace name the
// harness touches × every shape an agent can leave there, for the sandboxes a test file names. The fast tier
// runs it with no sandbox (the harness's own checks, on any machine); the slow tier under bwrap
// (hostile-bwrap.slow.test.ts; as root in CI, the dangerous case).
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RunConfigInput } from "../../src/config/run-config.ts";
import type { RunEvent } from "../../src/run-files/events.ts";
import { HAVE_BWRAP, play, tempRoot } from "../agent/backends/helpers.ts";
import { readEventsFile } from "../run/helpers.ts";

export type Sandbox = "none" | "bwrap";
type Arm = "full" | "stateless" | "no-log";

/** Each name, the arm in which the harness touches it, and what planting at it means. */
const FILES: readonly { name: string; arm: Arm }[] = [
  { name: "logs.txt", arm: "full" },
  { name: "AGENTS.md", arm: "full" },
  { name: "CLAUDE.md", arm: "full" },
  { name: "actions.json", arm: "full" },
  { name: "plans.txt", arm: "stateless" },
  { name: "current_board.txt", arm: "no-log" },
  { name: ".", arm: "full" },
];

/** Shell that replaces $F (a name in the workspace, or "." for the workspace itself) by each shape. */
const KINDS: Record<string, (f: string) => string> = {
  "symlink to the master": (f) => `${remove(f)}; ln -s "$MASTER" ${at(f)}`,
  "symlink to a host file": (f) => `${remove(f)}; ln -s "$HOST" ${at(f)}`,
  "symlink to /dev/zero": (f) => `${remove(f)}; ln -s /dev/zero ${at(f)}`,
  FIFO: (f) => `${remove(f)}; mkfifo ${at(f)}`,
  directory: (f) => `${remove(f)}; mkdir -p ${at(f)}/inner`,
  "hard link to the master": (f) => `${remove(f)}; ln "$MASTER" ${at(f)}`,
  "1 GB file": (f) => `${remove(f)}; truncate -s 1G ${at(f)}`,
  deleted: (f) => remove(f),
};
/** The workspace itself is reached from its parent (the run directory); a file by its name. */
const at = (f: string) => (f === "." ? "../workspace" : f);
const remove = (f: string) => (f === "." ? "cd .. && rm -rf workspace" : `rm -rf ${f}`);

/**
 * The turn that plants: the first, except in the stateless arm, whose plans.txt holds a plan only once a turn
 * has answered (planted at turn 1, deleting the empty file it was is no change the harness can see).
 */
const plantTurn = (arm: Arm) => (arm === "stateless" ? 2 : 1);

/** The agent: two actions per turn, the same plan text; at the plant's turn the plant instead of (or before) actions.json. */
function agentScript(arm: Arm, plant: string | null, target: string): string {
  const write = `printf '{"actions":["ACTION1","ACTION4"]}' > actions.json 2>/dev/null`;
  const planting =
    plant === null
      ? write
      : // Planting at actions.json replaces the turn's answer (that turn fails; the retry answers honestly).
        target === "actions.json"
        ? `(${plant}) 2>/dev/null`
        : `${write}; (${plant}) 2>/dev/null`;
  return `if [ "$PROLONG_TURN" = ${plantTurn(arm)} ]; then ${planting}; else ${write}; fi; echo "plan: probe the corridor"`;
}

function config(
  arm: Arm,
  sandbox: Sandbox,
  cmd: string,
  env: Record<string, string>,
): Partial<RunConfigInput> & { game: string } {
  return {
    game: "glide",
    agent: "command",
    cmd: `export ${Object.entries(env)
      .map(([k, v]) => `${k}='${v}'`)
      .join(" ")}; ${cmd}`,
    // Two actions a turn, up to the turn after the plant's, whose preparation meets the plant.
    maxActions: 2 * (plantTurn(arm) + 1),
    sandbox,
    agentTimeoutSec: 30,
    ...(arm === "stateless" ? { workspace: "stateless" } : {}),
    ...(arm === "no-log" ? { logWindow: { kind: "none" } } : {}),
  } as Partial<RunConfigInput> & { game: string };
}

/** Honest runs, one per arm and sandbox (their masters are the reference). */
const honest = new Map<string, string>();
async function honestMaster(arm: Arm, sandbox: Sandbox): Promise<string> {
  const key = `${arm}/${sandbox}`;
  const known = honest.get(key);
  if (known !== undefined) return known;
  const run = await play(config(arm, sandbox, agentScript(arm, null, ""), { MASTER: "/nonexistent", HOST: "/nonexistent" }), {
    root: tempRoot(),
  });
  expect(run.end.reason).toBe("max-actions");
  honest.set(key, run.master);
  return run.master;
}

export interface Outcome {
  readonly sandbox: Sandbox;
  readonly file: string;
  readonly kind: string;
  /** "tamper <kind>" or "warning <code>" or "nothing (refused by the sandbox)" or "nothing (not read by the harness)". */
  readonly outcome: string;
}
const table: Outcome[] = [];

/** The names a run directory may hold: anything else was made through the workspace. */
const RUN_FILES = [
  "events.jsonl",
  "trajectory.jsonl",
  "index.sqlite",
  "index.sqlite-wal",
  "index.sqlite-shm",
  "logs.txt",
  "plans.txt",
  "run.json",
  "run.lock",
  "scorecard.json",
  "summary.txt",
  "workspace",
];

async function hostileCase(sandbox: Sandbox, file: string, arm: Arm, kind: string): Promise<void> {
  const root = tempRoot();
  const host = join(root, "host-file.sh");
  const sentinel = join(root, "sentinel.txt");
  writeFileSync(host, "#!/bin/sh\necho host\n");
  writeFileSync(sentinel, "untouched\n");
  const master = join(root, "t", "glide", "logs.txt");
  const plant = KINDS[kind]!(file);
  const run = await play(config(arm, sandbox, agentScript(arm, plant, file), { MASTER: master, HOST: host }), { root });
  // The run goes on and ends as the honest one does, with the same master, byte for byte.
  expect(run.end.reason).toBe("max-actions");
  expect(run.master).toBe(await honestMaster(arm, sandbox));
  // Nothing outside the workspace changed.
  expect(readFileSync(host, "utf8")).toBe("#!/bin/sh\necho host\n");
  expect(readFileSync(sentinel, "utf8")).toBe("untouched\n");
  expect(readdirSync(root).sort()).toEqual(["host-file.sh", "sentinel.txt", "t"]);
  for (const n of readdirSync(run.session.paths.dir)) expect(RUN_FILES).toContain(n);
  const events = readEventsFile(run.session.paths.events);
  table.push({ sandbox, file, kind, outcome: describe_(events, file) });
  const tampers = events.filter((e) => e.kind === "tamper" && (e as RunEvent & { file: string }).file === file);
  const warnings = events.filter((e) => e.kind === "warning" && JSON.stringify(e).includes(file === "." ? "workspace" : file));
  const reachable = sandbox === "none" || !/master|host file/.test(kind) || file === "logs.txt";
  if (file === "current_board.txt") {
    // The no-log arm puts the board in the prompt: the harness never opens this name, so nothing can happen.
    expect(tampers).toEqual([]);
  } else if (kind === "deleted" && (file === "actions.json" || file === "plans.txt")) {
    // A missing actions.json is an agent that wrote none (a warning naming the file); plans.txt is the agent's to delete.
    if (file === "actions.json") expect(warnings.length).toBeGreaterThan(0);
  } else if (reachable) {
    expect(tampers.length + warnings.length).toBeGreaterThan(0);
  }
}

function describe_(events: RunEvent[], file: string): string {
  const t = events.find((e) => e.kind === "tamper" && (e as RunEvent & { file: string }).file === file) as
    | (RunEvent & { tamper: string })
    | undefined;
  if (t) return `tamper '${t.tamper}', repaired`;
  const w = events.find((e) => e.kind === "warning" && JSON.stringify(e).includes(file === "." ? "workspace" : file)) as
    | (RunEvent & { code: string })
    | undefined;
  if (w) return `warning '${w.code}'`;
  if (file === "current_board.txt") return "nothing: the harness never opens it";
  if (file === "plans.txt") return "nothing: plans.txt was empty, as the harness left it";
  return "nothing: the plant was refused by the sandbox";
}

/** Registers the corpus's cases for each sandbox named, and a check that every case ran. */
export function defineCorpus(sandboxes: readonly Sandbox[]): void {
  for (const sandbox of sandboxes) {
    const skip = sandbox === "bwrap" && !HAVE_BWRAP;
    describe.skipIf(skip)(
      `the hostile corpus under --sandbox ${sandbox}${skip ? " (skipped: bwrap cannot run here)" : ""}`,
      () => {
        for (const { name, arm } of FILES) {
          for (const kind of Object.keys(KINDS)) {
            test(`${name} × ${kind}: master identical to the honest run, nothing outside changed, the event names it`, async () => {
              await hostileCase(sandbox, name, arm, kind);
            }, 60_000);
          }
        }
      },
    );
  }

  describe("the corpus table", () => {
    test("every case ran (printed for the notes)", () => {
      if (process.env["PROLONG_PRINT_CORPUS"])
        for (const r of table) console.log(`| ${r.sandbox} | ${r.file} | ${r.kind} | ${r.outcome} |`);
      expect(table.length).toBe(
        sandboxes.filter((s) => s === "none" || HAVE_BWRAP).length * FILES.length * Object.keys(KINDS).length,
      );
    });
  });
}
