// `prolong status`: per coding client, whether prolong memory is installed and still intact.
import { formatError } from "../errors.ts";
import { projectStatus, type StatusReport } from "../init/project.ts";
import { flag, parseCommandArgs } from "./args.ts";
import type { Command } from "./command.ts";

const usage = `usage: prolong status [--dir DIR] [--json]

For each coding client (claude, codex, opencode, pi) and the shared pieces: its command on PATH or not,
installed or not, and intact / modified / missing against the checksums prolong init recorded, plus the
size of the session log. Exit 0 when everything installed is intact, 1 when something is modified or
missing or init has not run, 2 on unreadable input.`;

function describe(r: StatusReport): string {
  if (!r.initialized) return `prolong memory is not installed in ${r.root} (run 'prolong init')`;
  const lines = r.clients.map((c) => {
    const head = `${c.name.padEnd(9)} ${c.installed ? c.state : "not installed"}${c.detected || c.name === "shared" ? "" : " (command not on PATH)"}`;
    const details = c.pieces.filter((p) => p.state !== "intact").map((p) => `    ${p.state}: ${p.path}`);
    return [head, ...details].join("\n");
  });
  lines.push(
    `log       ${r.log.exists ? `${r.log.events} event(s), ${r.log.bytes} bytes in ${r.log.path}` : `missing: ${r.log.path}`}`,
  );
  return lines.join("\n");
}

function healthy(r: StatusReport): boolean {
  return r.initialized && r.clients.every((c) => !c.installed || c.state === "intact");
}

const flags = { dir: flag.text(), json: flag.bool() } as const;

export const statusCommand: Command = {
  name: "status",
  summary: "show which coding clients have prolong memory installed, intact or modified",
  usage,
  flags,
  async run(args) {
    const parsed = parseCommandArgs("status", args, flags, 0);
    if (!parsed) return 2;
    const report = projectStatus(parsed.values.dir ?? process.cwd());
    if (report.isErr()) {
      console.error(formatError(report.error));
      return 2;
    }
    console.log(parsed.values.json ? JSON.stringify(report.value, null, 2) : describe(report.value));
    return healthy(report.value) ? 0 : 1;
  },
};
