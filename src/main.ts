#!/usr/bin/env bun
// Command dispatch only: find the command, load its module, hand it the rest of argv, exit with its code.
import { readFileSync, writeFileSync } from "node:fs";
import { commands } from "./cli/commands.ts";
import { quietStdout } from "./cli/stdout.ts";
import { VERSION } from "./version.ts";

function mainHelp(): string {
  const width = Math.max(...commands.map((c) => c.name.length), 4);
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    `prolong ${VERSION} — a harness for long-horizon agents on grid games, with programmatic memory`,
    "",
    "usage: prolong <command> [options]",
    "",
    "commands:",
    ...lines,
    "",
    "`prolong <command> --help` (or `prolong help <command>`) shows a command's options. Most commands accept --json.",
  ].join("\n");
}

async function main(argv: string[]): Promise<number> {
  // `prolong help play` (or `help log grep`) is `prolong play --help`.
  if (argv[0] === "help" && argv.length > 1) return main([...argv.slice(1), "--help"]);
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    console.log(mainHelp());
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-V" || name === "version") {
    console.log(`prolong ${VERSION}`);
    return 0;
  }
  const entry = commands.find((c) => c.name === name);
  if (!entry) {
    const { didYouMean } = await import("./suggest.ts");
    console.error(`prolong: unknown command '${name}'${didYouMean(
      name,
      commands.map((c) => c.name),
    )}
  fix: run 'prolong --help' to list the commands`);
    return 2;
  }
  const command = await entry.load();
  // A closed output pipe ends the command quietly (cli/stdout.ts); a command that prints on its own sets it up
  // where it writes through the stream, so that printing with console.log alone never builds the stream.
  if (!entry.printsOnItsOwn) quietStdout();
  // A command with subcommands (`log`) shows the subcommand's help itself.
  const sub = command.subcommands?.some((s) => s.name === rest[0]) === true;
  if (!sub && (rest.includes("--help") || rest.includes("-h"))) {
    console.log(command.usage);
    return 0;
  }
  return command.run(rest);
}

// For `prolong bench`: the process's peak and file-backed resident memory at exit, as the kernel counts them
// (/proc/self/status), written to the file PROLONG_MEMORY_REPORT names. Unset, this costs nothing.
const memoryReport = process.env.PROLONG_MEMORY_REPORT;
if (memoryReport) {
  process.on("exit", () => {
    const status = readFileSync("/proc/self/status", "utf8");
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? NaN);
    writeFileSync(
      memoryReport,
      JSON.stringify({ hwmKiB: kib("VmHWM"), anonKiB: kib("RssAnon"), fileKiB: kib("RssFile"), shmemKiB: kib("RssShmem") }),
    );
  });
}

process.exitCode = await main(process.argv.slice(2));
