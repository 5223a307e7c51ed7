// The explorer is general: nothing in its source may be keyed to a game of ARC-AGI-3's public set (their
// ids double as titles). A test, not a convention, so that a tuned constant cannot slip in unnoticed.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const PUBLIC_GAMES = [
  "ar25",
  "bp35",
  "cd82",
  "cn04",
  "dc22",
  "ft09",
  "g50t",
  "ka59",
  "lf52",
  "lp85",
  "ls20",
  "m0r0",
  "r11l",
  "re86",
  "s5i5",
  "sb26",
  "sc25",
  "sk48",
  "sp80",
  "su15",
  "tn36",
  "tr87",
  "tu93",
  "vc33",
  "wa30",
];
const EXPLORER = join(import.meta.dir, "../../../src/agent/explorer");

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  );
}

describe("the explorer knows no game", () => {
  test("no public game id appears in the explorer's source or data", () => {
    const files = filesUnder(EXPLORER);
    expect(files.length).toBeGreaterThan(5);
    const found: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, "utf8").toLowerCase();
      for (const id of PUBLIC_GAMES) if (text.includes(id)) found.push(`${file}: ${id}`);
    }
    expect(found).toEqual([]);
  });
});
