// How far a reader travels to follow the run's session through one turn of the loop: starting at the loop's
// body (src/run/runner.ts, `loop`), every call that hands the session or a part of it (`s`, `s.tally`, an
// object literal holding one such as `{ master: s.master }`, and whatever name the callee gives it) to a
// function of src/ is followed into that function, depth first, in
// the order the calls are written; each function is read once (a second call to it is a stop, not a second
// reading). A call on a part's interface (`s.env.step`, `s.agent.turn`) is where the reader leaves the loop's
// code for a part's, so it is not followed. Counted:
//   stops     calls followed (each call site that hands the session on)
//   functions distinct functions read
//   files     distinct files those are in
//   returns   moves into a file the reader had already left (a call into it, or coming back to the caller)
// Usage: bun scripts/turn-walk.ts [SRC_DIR] [--trace]   (SRC_DIR: default ./src; another tree's src/ to compare)
// A reading of text, not of types: names are resolved through each file's own functions and its
// `import { a, b as c } from "./x.ts"` lines, which is how the code under src/ names its functions.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

const args = process.argv.slice(2);
const SRC = args.find((a) => !a.startsWith("--")) ?? join(import.meta.dir, "..", "src");
const TRACE = args.includes("--trace");

interface Fn {
  readonly file: string;
  readonly name: string;
  /** Each parameter's names: one, or those a destructuring pattern (`{ master, index }`) binds. */
  readonly params: readonly (readonly string[])[];
  /** The body's text, strings and comments blanked (so braces and calls in them do not count). */
  readonly body: string;
}

/** Strings, template literals' text and comments blanked to spaces, lengths kept. */
function blank(code: string): string {
  let out = "";
  let i = 0;
  const n = code.length;
  while (i < n) {
    const c = code[i]!;
    const next = code[i + 1];
    if (c === "/" && next === "/") {
      while (i < n && code[i] !== "\n") (out += " "), i++;
    } else if (c === "/" && next === "*") {
      const end = code.indexOf("*/", i + 2);
      const stop = end < 0 ? n : end + 2;
      out += code.slice(i, stop).replace(/[^\n]/g, " ");
      i = stop;
    } else if (c === '"' || c === "'") {
      out += c;
      i++;
      while (i < n && code[i] !== c && code[i] !== "\n") {
        if (code[i] === "\\") (out += " "), i++;
        out += " ";
        i++;
      }
      out += code[i] ?? "";
      i++;
    } else if (c === "`") {
      // The template's text is blanked; its ${...} parts are code and stay.
      out += c;
      i++;
      let depth = 0;
      while (i < n) {
        const t = code[i]!;
        if (depth === 0 && t === "`") break;
        if (depth === 0 && t === "\\") {
          out += "  ";
          i += 2;
          continue;
        }
        if (depth === 0 && t === "$" && code[i + 1] === "{") {
          out += "${";
          i += 2;
          depth = 1;
          continue;
        }
        if (depth > 0) {
          if (t === "{") depth++;
          if (t === "}") depth--;
          out += depth === 0 ? "}" : t;
        } else out += t === "\n" ? "\n" : " ";
        i++;
      }
      out += "`";
      i++;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The index just past the bracket that closes the one at `open`. */
function closing(text: string, open: number): number {
  const pairs: Record<string, string> = { "(": ")", "{": "}", "[": "]" };
  const stack: string[] = [];
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (pairs[c]) stack.push(pairs[c]!);
    else if (c === stack[stack.length - 1]) {
      stack.pop();
      if (stack.length === 0) return i + 1;
    }
  }
  return text.length;
}

/** Top-level comma-separated parts of a bracket's inside. */
function splitTop(inside: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < inside.length; i++) {
    const c = inside[i]!;
    if ("([{<".includes(c)) depth++;
    else if (")]}>".includes(c) && !(c === ">" && inside[i - 1] === "=")) depth--;
    else if (c === "," && depth === 0) {
      parts.push(inside.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(inside.slice(from));
  return parts.map((p) => p.trim()).filter((p) => p.length > 0);
}

/** Where a function's body opens after its parameters: the first `{` outside the return type's angle brackets. */
function bodyStart(code: string, from: number): number {
  let angle = 0;
  for (let i = from; i < code.length; i++) {
    const c = code[i]!;
    if (c === "<") angle++;
    else if (c === ">" && code[i - 1] !== "=") angle--;
    else if (c === "{" && angle === 0) return i;
    else if (c === ";" && angle === 0) return -1;
  }
  return -1;
}

function paramNames(p: string): string[] {
  if (p.startsWith("{")) {
    // `{ a, b: c, ...d }: T`: the names bound (c, not b).
    const inside = p.slice(1, closing(p, 0) - 1);
    return splitTop(inside).flatMap((part) => {
      const bound = /:\s*([A-Za-z_$][\w$]*)\s*(?:=.*)?$/.exec(part)?.[1] ?? /^(?:\.\.\.)?([A-Za-z_$][\w$]*)/.exec(part)?.[1];
      return bound ? [bound] : [];
    });
  }
  const name = /^(?:readonly\s+|\.\.\.)?([A-Za-z_$][\w$]*)/.exec(p)?.[1];
  return name ? [name] : [];
}

/** The functions a file declares at its top level: `function f(`, `const f = (...) =>`, `const f = async (`. */
function functionsOf(file: string, code: string): Map<string, Fn> {
  const fns = new Map<string, Fn>();
  const decl =
    /^(?:export\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)\s*(?:<[^(]*>)?\s*\(|^(?:export\s+)?const\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:async\s+)?\(/gm;
  for (const m of code.matchAll(decl)) {
    const name = (m[1] ?? m[2])!;
    const open = m.index! + m[0].length - 1;
    const close = closing(code, open);
    const params = splitTop(code.slice(open + 1, close - 1)).map(paramNames);
    const bodyOpen = bodyStart(code, close);
    const arrow = code.slice(close, bodyOpen);
    if (bodyOpen < 0 || (m[2] && !arrow.includes("=>"))) continue;
    fns.set(name, { file, name, params, body: code.slice(bodyOpen, closing(code, bodyOpen)) });
  }
  return fns;
}

/** A file's imported names → [file, exported name]. */
function importsOf(file: string, code: string): Map<string, [string, string]> {
  const out = new Map<string, [string, string]>();
  for (const m of code.matchAll(/^import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+"(\.[^"]+)"/gm)) {
    const target = normalize(join(dirname(file), m[2]!));
    for (const part of m[1]!.split(",")) {
      const [orig, alias] = part
        .trim()
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/);
      if (orig) out.set((alias ?? orig).trim(), [target, orig.trim()]);
    }
  }
  return out;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith(".ts") ? [p] : [];
  });
}

const files = new Map<string, { fns: Map<string, Fn>; imports: Map<string, [string, string]> }>();
for (const f of tsFiles(SRC)) {
  const raw = readFileSync(f, "utf8");
  files.set(f, { fns: functionsOf(f, blank(raw)), imports: importsOf(f, raw) });
}

/** The function a name means in a file: its own, or the one it imports (through re-exports). */
function resolve(file: string, name: string, depth = 0): Fn | undefined {
  const f = files.get(file);
  if (!f || depth > 5) return undefined;
  const own = f.fns.get(name);
  if (own) return own;
  const imported = f.imports.get(name);
  if (imported && existsSync(imported[0])) return resolve(imported[0], imported[1], depth + 1);
  // `export { a } from "./x.ts"`
  const code = readFileSync(file, "utf8");
  const re = new RegExp(`^export\\s+\\{[^}]*\\b${name}\\b[^}]*\\}\\s+from\\s+"(\\.[^"]+)"`, "m");
  const m = re.exec(code);
  return m ? resolve(normalize(join(dirname(file), m[1]!)), name, depth + 1) : undefined;
}

const KEYWORDS = new Set(["if", "for", "while", "switch", "return", "catch", "function", "typeof", "await", "new", "super"]);
const rel = (f: string) => relative(SRC, f);

const read = new Set<Fn>();
const trace: string[] = [];
let stops = 0;
const lines: string[] = [];

/**
 * Whether an argument hands the session on: it is rooted in a name for it (`s`, `s.tally.tokens`), or it is an
 * object literal one of whose values is (`{ master: s.master }`, `{ ...s.config }`, `{ index }`).
 */
function handsOn(arg: string, session: ReadonlySet<string>): boolean {
  const root = /^([A-Za-z_$][\w$]*)/.exec(arg)?.[1];
  if (root !== undefined) return session.has(root);
  if (!arg.startsWith("{")) return false;
  return splitTop(arg.slice(1, closing(arg, 0) - 1)).some((part) => {
    const value = part.startsWith("...") ? part.slice(3) : (/^[\w$]+\s*:\s*([\s\S]*)$/.exec(part)?.[1] ?? part);
    return handsOn(value.trim(), session);
  });
}

/** Follows the session through one function's body: every call that hands it on. */
function walk(fn: Fn, session: ReadonlySet<string>, depth: number): void {
  const call = /(?<![.\w$])([A-Za-z_$][\w$]*)\s*(?:<[^()]*>)?\(/g;
  for (const m of fn.body.matchAll(call)) {
    const name = m[1]!;
    if (KEYWORDS.has(name)) continue;
    const open = m.index! + m[0].length - 1;
    const argTexts = splitTop(fn.body.slice(open + 1, closing(fn.body, open) - 1));
    const handed = argTexts.flatMap((a, i) => (handsOn(a, session) ? [i] : []));
    if (handed.length === 0) continue;
    const callee = resolve(fn.file, name);
    if (!callee) continue;
    stops++;
    lines.push(`${"  ".repeat(depth)}${name} (${rel(callee.file)})${read.has(callee) ? " again" : ""}`);
    trace.push(callee.file);
    if (!read.has(callee)) {
      read.add(callee);
      const names = new Set(handed.flatMap((i) => callee.params[i] ?? []));
      walk(callee, names, depth + 1);
    }
    trace.push(fn.file);
  }
}

const runner = join(SRC, "run", "runner.ts");
const loop = files.get(runner)?.fns.get("loop");
if (!loop) {
  console.error(`turn-walk: no function 'loop' in ${runner}\n  fix: pass the src/ directory of a prolong tree`);
  process.exit(2);
}
read.add(loop);
trace.push(loop.file);
walk(loop, new Set(loop.params[0]!), 0);

let returns = 0;
const left = new Set<string>();
for (let i = 1; i < trace.length; i++) {
  if (trace[i] === trace[i - 1]) continue;
  left.add(trace[i - 1]!);
  if (left.has(trace[i]!)) returns++;
}
const fileCount = new Set([...read].map((f) => f.file)).size;
if (TRACE) console.log(lines.join("\n"));
console.log(
  JSON.stringify({
    src: SRC,
    stops,
    functions: read.size,
    files: fileCount,
    returns,
    filesRead: [...new Set([...read].map((f) => rel(f.file)))],
  }),
);
