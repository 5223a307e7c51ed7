// `prolong init`: give an everyday coding-agent session programmatic memory (see docs/init.md).
import { formatError } from "../errors.ts";
import { parseClientFlags } from "../init/client-flags.ts";
import { initProject } from "../init/project.ts";
import { flag, parseCommandArgs } from "./args.ts";
import type { Command } from "./command.ts";

const usage = `usage: prolong init [--client claude|codex|opencode|pi|all]... [--dir DIR] [--force] [--json]

Installs programmatic memory for coding-agent sessions in the project at DIR (default: the current
directory): an append-only log .prolong/log.jsonl (one JSON object per event: time, client, session, type,
content), the small Node runtime the hooks call (.prolong/hook.mjs), a manifest with a checksum of every
installed piece, the prolong-memory skill, managed blocks in AGENTS.md / CLAUDE.md / .gitignore, and each
client's hooks or plugin (.claude/settings.json, .codex/hooks.json, .opencode/plugins/, .pi/extensions/).

  --client C   claude, codex, opencode, pi or all; repeat or comma-separate. Default: the clients found on
               PATH or configured in the project. Clients installed earlier stay installed.
  --dir DIR    the project root (default: .)
  --force      overwrite a prolong-owned file that was edited since the last init
  --json       print the report as JSON

Re-running init changes nothing when nothing changed. Existing settings files are merged, never replaced;
a malformed one is left untouched and named in the error. Codex runs project hooks only in a trusted
project and asks you to review new hooks once (/hooks).`;

const flags = { client: flag.list(), dir: flag.text(), force: flag.bool(), json: flag.bool() } as const;

export const initCommand: Command = {
  name: "init",
  summary: "install programmatic memory (session log, hooks, skill) for coding agents in a project",
  usage,
  flags,
  async run(args) {
    const parsed = parseCommandArgs("init", args, flags, 0);
    if (!parsed) return 2;
    const clients = parseClientFlags(parsed.values.client);
    if (clients.isErr()) {
      console.error(formatError(clients.error));
      return 2;
    }
    const root = parsed.values.dir ?? process.cwd();
    const report = initProject(root, clients.value, parsed.values.force ?? false);
    if (report.isErr()) {
      console.error(formatError(report.error));
      return 2;
    }
    const r = report.value;
    if (parsed.values.json) {
      console.log(JSON.stringify(r, null, 2));
      return 0;
    }
    console.log(`prolong memory installed for ${r.clients.join(", ")} in ${r.root}`);
    console.log(r.written.length === 0 ? "nothing changed (already installed)" : `wrote: ${r.written.join(", ")}`);
    if (r.clients.includes("codex"))
      console.log("codex: trust the project and review the new hooks once with /hooks before they run");
    return 0;
  },
};
