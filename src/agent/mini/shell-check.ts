// Whether a bash command stays inside a tool level, decided BEFORE it runs. The check fails closed: the
// command is split into simple commands by a small shell tokenizer, and anything the tokenizer does not fully
// understand — command or process substitution, variable expansion, subshells, loops, assignments, background
// jobs, a program given by path — is refused at a restricted level rather than guessed at. Each simple
// command's program must be on the level's list, with options checked where a listed program has a
// dangerous one; output redirections may only target actions.json or /dev/null unless the level may write.
//
// This check is an early, friendly answer, not the enforcement: under bubblewrap a restricted level runs
// in a tree holding only its programs (tool-tree.ts), so whatever slips past the check finds nothing to run;
// without a sandbox a restricted level is refused (mini/from-config.ts).
import { basename } from "node:path";
import type { ToolPolicy } from "../tool-ladder.ts";

export type Verdict = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** Programs that only read files or print their arguments. */
const READ = [
  "cat",
  "head",
  "tail",
  "wc",
  "ls",
  "nl",
  "echo",
  "printf",
  "pwd",
  "true",
  "false",
  "cut",
  "tr",
  "tac",
  "stat",
  "basename",
  "dirname",
];
const GREP = ["grep", "egrep", "fgrep"];
const PYTHON = ["python3", "python"];

/** Programs that change files, refused by --no-write even at level all (a courtesy check; the mount enforces). */
const WRITERS = new Set([
  "rm",
  "rmdir",
  "mv",
  "cp",
  "touch",
  "mkdir",
  "tee",
  "dd",
  "truncate",
  "ln",
  "chmod",
  "chown",
  "install",
  "patch",
  "shred",
  "unlink",
  "rsync",
  "tar",
  "unzip",
  "git",
]);

/** Redirect targets that never write a file of the workspace. */
const HARMLESS_TARGETS = new Set(["/dev/null", "/dev/stdout", "/dev/stderr"]);
const ANSWER_FILES = new Set(["actions.json", "./actions.json"]);

export function programsFor(p: ToolPolicy): readonly string[] | "any" {
  switch (p.level) {
    case "read":
      return READ;
    case "read,grep":
      return [...READ, ...GREP];
    case "read,grep,python":
      return [...READ, ...GREP, ...PYTHON];
    case "all":
      return "any";
  }
}

export function checkCommand(command: string, policy: ToolPolicy): Verdict {
  const allowed = programsFor(policy);
  if (allowed === "any" && !policy.noWrite) return { ok: true };
  const parsed = tokenize(command);
  if (!parsed.ok) {
    // At level all with --no-write, what the tokenizer cannot follow is left to the read-only mount.
    return allowed === "any" ? { ok: true } : refuse(parsed.reason, policy);
  }
  const writeOk = allowed === "any" ? false : policy.level === "read,grep,python" && !policy.noWrite;
  for (const simple of parsed.commands) {
    const [program, ...args] = simple.words;
    if (program === undefined) {
      if (simple.redirects.length === 0) continue;
    } else {
      if (allowed !== "any") {
        if (program.expands) return refuse("the program name must be written literally (no $, globs or quotes tricks)", policy);
        if (program.text.includes("/")) return refuse(`programs are run by name, not by path (${program.text})`, policy);
        if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(program.text))
          return refuse("variable assignments are not allowed at this tool level", policy);
        if (!allowed.includes(program.text)) return refuse(`${program.text} is not allowed at this tool level`, policy);
        const bad = optionProblem(
          program.text,
          args.map((a) => a.text),
        );
        if (bad) return refuse(bad, policy);
      } else if (WRITERS.has(basename(program.text))) {
        return refuse(`${program.text} changes files, and --no-write is set`, policy);
      } else if (program.text === "sed" && args.some((a) => /^-[a-zA-Z]*i|^--in-place/.test(a.text))) {
        return refuse("sed -i changes files, and --no-write is set", policy);
      }
    }
    for (const r of simple.redirects) {
      if (!r.output || r.target.startsWith("&")) continue;
      if (r.expands) return refuse("a redirection target must be written literally", policy);
      if (HARMLESS_TARGETS.has(r.target) || ANSWER_FILES.has(r.target)) continue;
      if (!writeOk) return refuse(`writing to ${r.target} is not allowed: only actions.json may be written`, policy);
    }
  }
  return { ok: true };
}

function refuse(why: string, p: ToolPolicy): Verdict {
  const allowed = programsFor(p);
  const list = allowed === "any" ? "any program that does not change files" : allowed.join(", ");
  return {
    ok: false,
    reason: `refused (--tools ${p.level}${p.noWrite ? " --no-write" : ""}): ${why}. Allowed: ${list}; pipes, ;, &&, ||, input redirection, and output redirection to actions.json only${p.level === "read,grep,python" && !p.noWrite ? " (python may write files)" : ""}.`,
  };
}

/**
 * Options of listed programs that would do more than read. The listed coreutils and grep have no option
 * that writes a file or runs a program; bash's printf -v assigns a variable, refused for simplicity.
 */
function optionProblem(program: string, args: readonly string[]): string | null {
  if (program === "printf" && args[0] === "-v") return "printf -v is not allowed";
  return null;
}

// ---- the tokenizer ----

interface Word {
  readonly text: string;
  /** Holds an unquoted glob or anything the shell would expand. */
  readonly expands: boolean;
}

interface Redirect {
  readonly output: boolean;
  readonly target: string;
  readonly expands: boolean;
}

interface Simple {
  readonly words: Word[];
  readonly redirects: Redirect[];
}

type Tokens = { ok: true; commands: Simple[] } | { ok: false; reason: string };

const OPERATOR_CHARS = new Set(["|", "&", ";", "\n"]);

/**
 * Splits a command into simple commands at | || && ; and newlines, resolving quotes. Refuses (ok: false) on
 * $…, `…`, ( ) subshells and groups, <( >( process substitution, & background jobs and unterminated quotes.
 * Here-documents are read; an unquoted delimiter's body must hold no $ or backtick.
 */
export function tokenize(src: string): Tokens {
  const commands: Simple[] = [];
  let current: Simple = { words: [], redirects: [] };
  let pendingRedirect: { output: boolean } | null = null;
  const heredocs: { delim: string; quoted: boolean; strip: boolean }[] = [];
  let i = 0;
  const fail = (reason: string): Tokens => ({ ok: false, reason });
  const endCommand = () => {
    if (current.words.length > 0 || current.redirects.length > 0) commands.push(current);
    current = { words: [], redirects: [] };
  };
  while (i < src.length) {
    const c = src[i]!;
    if (c === " " || c === "\t") {
      i++;
      continue;
    }
    if (c === "\\" && src[i + 1] === "\n") {
      i += 2;
      continue;
    }
    if (c === "#") {
      while (i < src.length && src[i] !== "\n") i++;
      continue;
    }
    if (c === "(" || c === ")") return fail("subshells and ( ) groups are not allowed at this tool level");
    if (c === "`") return fail("command substitution (`…`) is not allowed at this tool level");
    if (OPERATOR_CHARS.has(c)) {
      if (pendingRedirect) return fail("a redirection without a target");
      if (c === "&" && src[i + 1] === ">") {
        // &> and &>> send both streams to a file
        i += src[i + 2] === ">" ? 3 : 2;
        pendingRedirect = { output: true };
        continue;
      }
      if (c === "&" && src[i + 1] !== "&") return fail("background jobs (&) are not allowed at this tool level");
      if ((c === "&" || c === "|") && src[i + 1] === c) i++;
      i++;
      endCommand();
      if (c === "\n" && heredocs.length > 0) {
        const read = readHeredocs(src, i, heredocs.splice(0));
        if (!read.ok) return fail(read.reason);
        i = read.next;
      }
      continue;
    }
    if (c === "<" || c === ">") {
      if (pendingRedirect) return fail("a redirection without a target");
      if (src[i + 1] === "(") return fail("process substitution is not allowed at this tool level");
      if (c === "<" && src.startsWith("<<<", i)) {
        i += 3;
        pendingRedirect = { output: false };
        continue;
      }
      if (c === "<" && src[i + 1] === "<") {
        i += 2;
        const strip = src[i] === "-";
        if (strip) i++;
        while (src[i] === " " || src[i] === "\t") i++;
        const w = readWord(src, i);
        if (!w.ok) return fail(w.reason);
        if (w.text === "") return fail("a here-document without a delimiter");
        heredocs.push({ delim: w.text, quoted: w.quoted, strip });
        i = w.next;
        continue;
      }
      const output = c === ">";
      i++;
      if (output && (src[i] === ">" || src[i] === "|")) i++;
      if (src[i] === "&") {
        // >&N duplicates a descriptor; >&- closes one; >& word writes to a file (bash)
        const m = /^&(\d+|-)(?![^\s;|&<>])/.exec(src.slice(i));
        if (m) {
          i += m[0].length;
          current.redirects.push({ output, target: m[0], expands: false });
          continue;
        }
        i++;
      }
      pendingRedirect = { output };
      continue;
    }
    // a word (an fd number right before < or > belongs to the redirection)
    const w = readWord(src, i);
    if (!w.ok) return fail(w.reason);
    i = w.next;
    if (pendingRedirect) {
      current.redirects.push({ output: pendingRedirect.output, target: w.text, expands: w.expands });
      pendingRedirect = null;
      continue;
    }
    if (/^\d+$/.test(w.raw) && (src[i] === "<" || src[i] === ">")) continue;
    current.words.push({ text: w.text, expands: w.expands });
    if (
      current.words.length === 1 &&
      /^(\{|\}|\[\[|\(\(|!|if|then|else|elif|fi|for|while|until|do|done|case|esac|function|select|coproc)$/.test(w.text)
    ) {
      return fail(`shell keyword ${w.text} is not allowed at this tool level`);
    }
  }
  if (pendingRedirect) return fail("a redirection without a target");
  if (heredocs.length > 0) return fail("a here-document without its body");
  endCommand();
  return { ok: true, commands };
}

type WordRead =
  | { ok: true; text: string; raw: string; quoted: boolean; expands: boolean; next: number }
  | { ok: false; reason: string };

function readWord(src: string, start: number): WordRead {
  let i = start;
  let text = "";
  let quoted = false;
  let expands = false;
  while (i < src.length) {
    const c = src[i]!;
    if (c === " " || c === "\t" || OPERATOR_CHARS.has(c) || c === "<" || c === ">" || c === "(" || c === ")") break;
    if (c === "`") return { ok: false, reason: "command substitution (`…`) is not allowed at this tool level" };
    if (c === "'") {
      const end = src.indexOf("'", i + 1);
      if (end === -1) return { ok: false, reason: "an unterminated ' quote" };
      text += src.slice(i + 1, end);
      quoted = true;
      i = end + 1;
      continue;
    }
    if (c === '"') {
      i++;
      quoted = true;
      for (;;) {
        if (i >= src.length) return { ok: false, reason: 'an unterminated " quote' };
        const d = src[i]!;
        if (d === '"') break;
        if (d === "`") return { ok: false, reason: "command substitution (`…`) is not allowed at this tool level" };
        if (d === "$" && src[i + 1] !== undefined && /[A-Za-z_{(0-9@*#?$!-]/.test(src[i + 1]!))
          return { ok: false, reason: "$ expansion is not allowed at this tool level; write values literally" };
        if (d === "\\" && i + 1 < src.length && '"\\$`\n'.includes(src[i + 1]!)) {
          if (src[i + 1] !== "\n") text += src[i + 1];
          i += 2;
          continue;
        }
        text += d;
        i++;
      }
      i++;
      continue;
    }
    if (c === "\\") {
      if (i + 1 < src.length) text += src[i + 1];
      i += 2;
      continue;
    }
    if (c === "$") {
      if (src[i + 1] === "'") return { ok: false, reason: "$'…' quoting is not allowed at this tool level" };
      if (src[i + 1] !== undefined && /[A-Za-z_{(0-9@*#?$!-]/.test(src[i + 1]!))
        return { ok: false, reason: "$ expansion is not allowed at this tool level; write values literally" };
    }
    if (c === "*" || c === "?" || c === "[" || c === "{" || c === "~") expands = true;
    text += c;
    i++;
  }
  return { ok: true, text, raw: src.slice(start, i), quoted, expands, next: i };
}

/** Skips the bodies of the here-documents opened on the line just ended; checks unquoted ones for expansions. */
function readHeredocs(
  src: string,
  start: number,
  docs: readonly { delim: string; quoted: boolean; strip: boolean }[],
): { ok: true; next: number } | { ok: false; reason: string } {
  let i = start;
  for (const doc of docs) {
    for (;;) {
      if (i >= src.length) return { ok: false, reason: `the here-document ${doc.delim} is not closed` };
      const nl = src.indexOf("\n", i);
      const end = nl === -1 ? src.length : nl;
      const line = src.slice(i, end);
      i = nl === -1 ? src.length : nl + 1;
      if ((doc.strip ? line.replace(/^\t+/, "") : line) === doc.delim) break;
      if (!doc.quoted && /[`]|\$[A-Za-z_{(0-9@*#?$!-]/.test(line))
        return {
          ok: false,
          reason: "$ expansion in a here-document is not allowed at this tool level; quote its delimiter (<<'EOF')",
        };
    }
  }
  return { ok: true, next: i };
}
