// `prolong verify <master> <copy>`: is the agent's copy an exact byte-prefix of the master log?
import { formatError } from "../errors.ts";
import { lineOfOffset, loadLog, readLogBytes, sectionAt } from "../log/load.ts";
import { prefixCheck } from "../native.ts";
import { flag, parseCommandArgs } from "./args.ts";
import type { Command } from "./command.ts";

const usage = `usage: prolong verify <master-log> <copy> [--json]

Checks that <copy> (an agent's workspace/logs.txt) is a byte-prefix of <master-log>.
Exit 0 when it is; exit 1 naming the first differing byte, the action section it falls in, and how many
bytes are missing or extra; exit 2 on unreadable input.`;

export interface VerifyReport {
  readonly master: string;
  readonly copy: string;
  readonly prefix: boolean;
  readonly masterBytes: number;
  readonly copyBytes: number;
  /** Bytes of the master the copy does not have yet (only when it is a prefix). */
  readonly pendingBytes: number;
  readonly firstDiff: number | null;
  readonly diffLine: number | null;
  /** The action number of the master section holding the first differing byte (null when past the end). */
  readonly diffAction: number | null;
  /** Bytes past the divergence: what the master has there, and what the copy has. */
  readonly masterBytesAfterDiff: number | null;
  readonly copyBytesAfterDiff: number | null;
}

export function verifyCopy(masterPath: string, master: Uint8Array, copyPath: string, copy: Uint8Array, actionOfSection: (offset: number) => number | null): VerifyReport {
  const d = prefixCheck(master, copy);
  const base = { master: masterPath, copy: copyPath, masterBytes: master.length, copyBytes: copy.length };
  if (d === -1) {
    return { ...base, prefix: true, pendingBytes: master.length - copy.length, firstDiff: null, diffLine: null, diffAction: null, masterBytesAfterDiff: null, copyBytesAfterDiff: null };
  }
  return {
    ...base,
    prefix: false,
    pendingBytes: 0,
    firstDiff: d,
    diffLine: lineOfOffset(copy, d),
    diffAction: d < master.length ? actionOfSection(d) : null,
    masterBytesAfterDiff: master.length - d,
    copyBytesAfterDiff: copy.length - d,
  };
}

function describe(r: VerifyReport): string {
  if (r.prefix) {
    const pending = r.pendingBytes === 0 ? "identical to the master" : `${r.pendingBytes} byte(s) behind the master`;
    return `ok: ${r.copy} is a byte-prefix of ${r.master} (${r.copyBytes} of ${r.masterBytes} bytes; ${pending})`;
  }
  const where = r.diffAction === null ? "past the master's last section" : `in the section of Action ${r.diffAction}`;
  const after = r.masterBytesAfterDiff === 0
    ? `the copy has ${r.copyBytesAfterDiff} extra byte(s) past the end of the master`
    : r.copyBytesAfterDiff === 0
      ? `the copy is missing ${r.masterBytesAfterDiff} byte(s)`
      : `from there the master has ${r.masterBytesAfterDiff} byte(s) and the copy ${r.copyBytesAfterDiff}`;
  return `DIFFERS: ${r.copy} is not a byte-prefix of ${r.master}: first differing byte at offset ${r.firstDiff} (line ${r.diffLine} of the copy, ${where}); ${after}`;
}

const flags = { json: flag.bool() } as const;

export const verifyCommand: Command = {
  name: "verify",
  summary: "check that an agent's copy of the log is a byte-prefix of the master",
  usage,
  flags,
  async run(args) {
    const parsed = parseCommandArgs("verify", args, flags);
    if (!parsed) return 2;
    const [masterPath, copyPath] = parsed.positionals;
    if (masterPath === undefined || copyPath === undefined || parsed.positionals.length > 2) {
      console.error(usage);
      return 2;
    }
    const master = loadLog(masterPath);
    if (master.isErr()) {
      console.error(formatError(master.error));
      return 2;
    }
    const copy = readLogBytes(copyPath);
    if (copy.isErr()) {
      console.error(formatError(copy.error));
      return 2;
    }
    const { table, bytes } = master.value;
    const report = verifyCopy(masterPath, bytes, copyPath, copy.value, (offset) => {
      const i = sectionAt(table, offset);
      if (i < 0) return null;
      const action = table.action[i] as number;
      return action >= 0 ? action : null;
    });
    console.log(parsed.values.json ? JSON.stringify(report) : describe(report));
    return report.prefix ? 0 : 1;
  },
};
