// `prolong score` in a terminal: its Markdown tables fitted to the terminal's width. A table wider than the
// terminal wraps into a tangle of half-rows; here its columns are aligned and, when they do not fit, split
// into several tables that each repeat the first column (the game or arm a row is about). Still Markdown.
// Only for a terminal: a file or a pipe gets the tables as written, for pasting into notes and docs.

const isTableLine = (line: string) => line.startsWith("| ") && line.endsWith(" |");
const isRule = (cells: readonly string[]) => cells.every((c) => /^-+$/.test(c));

/** The Markdown with each table aligned and, where wider than `width`, split into column groups that fit. */
export function fitTables(markdown: string, width: number): string {
  const lines = markdown.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; ) {
    if (!isTableLine(lines[i]!)) {
      out.push(lines[i]!);
      i++;
      continue;
    }
    const block: string[][] = [];
    while (i < lines.length && isTableLine(lines[i]!)) block.push(lines[i++]!.slice(2, -2).split(" | "));
    out.push(...fitTable(block, width));
  }
  return out.join("\n");
}

function fitTable(rows: readonly string[][], width: number): string[] {
  const n = Math.max(...rows.map((r) => r.length));
  const body = rows.filter((r) => !isRule(r));
  const widths = Array.from({ length: n }, (_, c) => Math.max(3, ...body.map((r) => (r[c] ?? "").length)));
  // Columns 1.. in groups, each group shown beside column 0: "| " + cells joined by " | " + " |".
  const groups: number[][] = [];
  let used = 4 + widths[0]!;
  for (let c = 1; c < n; c++) {
    const extra = 3 + widths[c]!;
    if (groups.length === 0 || used + extra > width) {
      groups.push([c]);
      used = 4 + widths[0]! + extra;
    } else {
      groups[groups.length - 1]!.push(c);
      used += extra;
    }
  }
  if (groups.length === 0) groups.push([]);
  const out: string[] = [];
  groups.forEach((group, g) => {
    if (g > 0) out.push("");
    const cols = [0, ...group];
    for (const r of rows) {
      const cells = isRule(r) ? cols.map((c) => "-".repeat(widths[c]!)) : cols.map((c) => (r[c] ?? "").padEnd(widths[c]!));
      out.push(`| ${cells.join(" | ")} |`);
    }
  });
  return out;
}
