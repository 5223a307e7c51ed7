// `prolong uninstall`: take out exactly what prolong init put in, keeping the user's own edits.
import { formatError } from "../errors.ts";
import { parseClientFlags } from "../init/client-flags.ts";
import { uninstallProject } from "../init/project.ts";
import { flag, parseCommandArgs } from "./args.ts";
import type { Command } from "./command.ts";

const usage = `usage: prolong uninstall [--client claude|codex|opencode|pi|all]... [--dir DIR] [--force] [--remove-log] [--json]

Removes what prolong init installed in the project at DIR (default: .): prolong's hook groups from the
settings files (the user's own hooks and settings stay), the managed blocks (text outside them stays),
and prolong's own files. A file created by init is deleted once nothing else is left in it.

  --client C     remove only these clients (default: all installed); the shared runtime, skill and
                 AGENTS.md / .gitignore blocks go when no client is left
  --force        also delete prolong-owned files edited since init (otherwise they are kept and listed)
  --remove-log   also delete .prolong/log.jsonl when it holds session events (otherwise it is kept, and
                 so is its .gitignore entry; a later \`prolong uninstall --remove-log\` deletes both)
  --json         print the report as JSON`;

const flags = {
  client: flag.list(),
  dir: flag.text(),
  force: flag.bool(),
  "remove-log": flag.bool(),
  json: flag.bool(),
} as const;

export const uninstallCommand: Command = {
  name: "uninstall",
  summary: "remove prolong memory from a project, keeping the user's own edits",
  usage,
  flags,
  async run(args) {
    const parsed = parseCommandArgs("uninstall", args, flags, 0);
    if (!parsed) return 2;
    const clients = parseClientFlags(parsed.values.client);
    if (clients.isErr()) {
      console.error(formatError(clients.error));
      return 2;
    }
    const options = { force: parsed.values.force ?? false, removeLog: parsed.values["remove-log"] ?? false };
    const report = uninstallProject(parsed.values.dir ?? process.cwd(), clients.value, options);
    if (report.isErr()) {
      console.error(formatError(report.error));
      return 2;
    }
    const r = report.value;
    if (parsed.values.json) {
      console.log(JSON.stringify(r, null, 2));
      return 0;
    }
    console.log(
      `prolong memory removed for ${r.clients.join(", ") || "no client (what an earlier uninstall kept)"}${r.remaining.length > 0 ? `; still installed: ${r.remaining.join(", ")}` : ""}`,
    );
    for (const o of r.outcomes.filter((o) => o.action === "kept"))
      console.log(`kept (edited since init; 'prolong uninstall --force' removes it): ${o.path}`);
    if (r.keptLog)
      console.log(
        `kept the session log ${r.keptLog} and its .gitignore entry, so it stays out of git ('prolong uninstall --remove-log' deletes both)`,
      );
    return 0;
  },
};
