// The mini agent's command check per tool level: what each level lets through, and that everything the
// tokenizer cannot follow is refused rather than guessed at (fail closed).
import { describe, expect, test } from "bun:test";
import { checkCommand, tokenize } from "../../../src/agent/mini/shell-check.ts";
import { claudeToolArgs, codexToolArgs, parseToolLevel, type ToolPolicy } from "../../../src/agent/tool-ladder.ts";

const READ: ToolPolicy = { level: "read", noWrite: false };
const GREP: ToolPolicy = { level: "read,grep", noWrite: false };
const PY: ToolPolicy = { level: "read,grep,python", noWrite: false };
const PY_NW: ToolPolicy = { level: "read,grep,python", noWrite: true };
const ALL: ToolPolicy = { level: "all", noWrite: false };
const ALL_NW: ToolPolicy = { level: "all", noWrite: true };

const allowed = (cmd: string, p: ToolPolicy) => checkCommand(cmd, p).ok;
const reason = (cmd: string, p: ToolPolicy) => {
  const v = checkCommand(cmd, p);
  return v.ok ? "" : v.reason;
};

describe("the tool ladder", () => {
  test("--tools accepts the four levels in any order and spacing, and nothing else", () => {
    expect(parseToolLevel("read")._unsafeUnwrap()).toBe("read");
    expect(parseToolLevel("grep, read")._unsafeUnwrap()).toBe("read,grep");
    expect(parseToolLevel("python,read,grep")._unsafeUnwrap()).toBe("read,grep,python");
    expect(parseToolLevel("ALL")._unsafeUnwrap()).toBe("all");
    expect(parseToolLevel("read,python")._unsafeUnwrapErr().fix).toContain("read | read,grep | read,grep,python | all");
    expect(parseToolLevel("grep").isErr()).toBe(true);
  });

  test("Claude Code: the tools offered and the tools allowed, per level", () => {
    expect(claudeToolArgs(READ)).toEqual(["--tools", "Read,Write", "--allowedTools", "Read,Edit(./actions.json)"]);
    expect(claudeToolArgs(GREP)).toEqual([
      "--tools",
      "Read,Write,Grep,Glob",
      "--allowedTools",
      "Read,Edit(./actions.json),Grep,Glob",
    ]);
    expect(claudeToolArgs(PY)).toEqual([
      "--tools",
      "Read,Write,Grep,Glob,Bash,Edit",
      "--allowedTools",
      "Read,Write,Edit,Grep,Glob,Bash(python3:*),Bash(python:*)",
    ]);
    expect(claudeToolArgs(PY_NW)).toEqual([
      "--tools",
      "Read,Write,Grep,Glob,Bash",
      "--allowedTools",
      "Read,Edit(./actions.json),Grep,Glob,Bash(python3:*),Bash(python:*)",
    ]);
    expect(claudeToolArgs(ALL)).toEqual([
      "--tools",
      "Read,Write,Grep,Glob,Bash,Edit",
      "--allowedTools",
      "Read,Write,Edit,Grep,Glob,Bash",
    ]);
    expect(claudeToolArgs(ALL_NW)).toEqual([
      "--tools",
      "Read,Write,Grep,Glob,Bash,Edit",
      "--allowedTools",
      "Read,Edit(./actions.json),Grep,Glob,Bash",
    ]);
  });

  test("Codex: only level all without --no-write can be enforced; the others are refused with the reason", () => {
    expect(codexToolArgs(ALL)._unsafeUnwrap()).toEqual([]);
    for (const p of [READ, GREP, PY, ALL_NW])
      expect(codexToolArgs(p)._unsafeUnwrapErr().message).toContain("cannot be enforced for Codex");
  });
});

describe("checkCommand", () => {
  test("read: reading programs, pipes, input redirection and writing actions.json pass", () => {
    for (const cmd of [
      "cat logs.txt | tail -n 70",
      "head -c 300 logs.txt; wc -l logs.txt",
      "ls -la && pwd",
      `echo '{"actions": ["ACTION1"]}' > actions.json`,
      `printf '%s' '{"actions":[]}' >actions.json 2>/dev/null`,
      "tail -5 < logs.txt 2>&1",
      'cat > actions.json <<\'EOF\'\n{"actions": ["ACTION2"], "x": "$HOME"}\nEOF',
      "cat logs.txt # a comment with $(danger)",
      'echo "quoted ; | && stays one word"',
    ])
      expect([cmd, allowed(cmd, READ)]).toEqual([cmd, true]);
  });

  test("read: other programs, other write targets and every construct the check cannot follow are refused", () => {
    const cases: [string, string][] = [
      ["grep ACTION logs.txt", "grep is not allowed"],
      ["cat logs.txt | python3 -c 'print(1)'", "python3 is not allowed"],
      ["echo hi > notes.txt", "writing to notes.txt is not allowed"],
      ["echo hi >> ../x", "writing to ../x"],
      ["cat logs.txt > /tmp/x", "writing to /tmp/x"],
      ["echo $(rm -rf /)", "$ expansion"],
      ["echo `id`", "command substitution"],
      ["cat $HOME/.bashrc", "$ expansion"],
      ['cat "${X}"', "$ expansion"],
      ["(cat logs.txt)", "subshells"],
      ["{ cat logs.txt; }", "shell keyword {"],
      ["for f in *; do cat $f; done", "shell keyword for"],
      ["cat <(id)", "process substitution"],
      ["sleep 100 &", "background jobs"],
      ["X=1 cat logs.txt", "variable assignments"],
      ["/bin/cat logs.txt", "by name, not by path"],
      ["./run.sh", "by name, not by path"],
      ["ca* logs.txt", "written literally"],
      ["echo 'unterminated", "unterminated"],
      ["cat <<EOF > actions.json\n$(id)\nEOF", "here-document"],
      ["cat > actions.json <<EOF\n{}\n", "not closed"],
      ["echo hi > $F", "$ expansion"],
      ["echo hi >& out.txt", "writing to out.txt"],
      ["echo hi &> out.txt", "writing to out.txt"],
      ["printf -v X hi", "printf -v"],
      ["eval 'cat logs.txt'", "eval is not allowed"],
      ["bash -c 'cat logs.txt'", "bash is not allowed"],
      ["xargs cat < files", "xargs is not allowed"],
      ["echo $'\\x41'", "$'…'"],
      ["file -C -m magic", "file is not allowed"],
      ["cat <>notes.txt", "a redirection without a target"],
      ["echo x 1>notes.txt", "writing to notes.txt"],
      ["echo hi >actions.json>notes.txt", "writing to notes.txt"],
      ["{cat,logs.txt}", "written literally"],
    ];
    for (const [cmd, why] of cases) expect([cmd, reason(cmd, READ)]).toEqual([cmd, expect.stringContaining(why)]);
    expect(reason("grep x logs.txt", READ)).toContain("refused (--tools read)");
    expect(reason("grep x logs.txt", READ)).toContain("Allowed: cat, head, tail");
  });

  test("read,grep adds grep; read,grep,python adds python, which may write unless --no-write", () => {
    expect(allowed("grep -c '^Action ' logs.txt | head -1", GREP)).toBe(true);
    expect(allowed("egrep 'Level [0-9]+' logs.txt", GREP)).toBe(true);
    expect(allowed("python3 -c 'print(1)'", GREP)).toBe(false);
    expect(allowed('python3 -c \'open("notes.txt","w")\'', PY)).toBe(true);
    expect(allowed("python3 parse.py > summary.txt", PY)).toBe(true);
    expect(reason("python3 parse.py > summary.txt", PY_NW)).toContain("writing to summary.txt is not allowed");
    expect(allowed("python3 parse.py > actions.json", PY_NW)).toBe(true);
    expect(allowed("awk '{print}' logs.txt", PY)).toBe(false);
  });

  test("all: anything; with --no-write the known writers and write redirections are refused", () => {
    for (const cmd of ["rm -rf /", "awk 'BEGIN{system(\"id\")}'", "echo $(id) > x"]) expect(allowed(cmd, ALL)).toBe(true);
    expect(reason("rm logs.txt", ALL_NW)).toContain("rm changes files");
    expect(reason("/bin/rm logs.txt", ALL_NW)).toContain("changes files");
    expect(reason("sed -i s/a/b/ logs.txt", ALL_NW)).toContain("sed -i");
    expect(reason("grep x logs.txt > out", ALL_NW)).toContain("writing to out");
    expect(allowed("awk '{print $1}' logs.txt | sort | uniq -c", ALL_NW)).toBe(true);
    expect(allowed("echo '{}' > actions.json", ALL_NW)).toBe(true);
    // What the tokenizer cannot follow is left to the read-only workspace mount at this level.
    expect(allowed("for f in *; do wc -l $f; done", ALL_NW)).toBe(true);
  });

  test("the tokenizer splits at operators and keeps fd numbers with their redirections", () => {
    const t = tokenize("grep -c x logs.txt 2>/dev/null || echo 0; cat a | wc -l && echo done");
    expect(t.ok && t.commands.map((c) => c.words.map((w) => w.text).join(" "))).toEqual([
      "grep -c x logs.txt",
      "echo 0",
      "cat a",
      "wc -l",
      "echo done",
    ]);
  });
});
