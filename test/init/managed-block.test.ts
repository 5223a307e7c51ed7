import { describe, expect, test } from "bun:test";
import { readBlock, removeBlock, upsertBlock } from "../../src/init/managed-block.ts";

describe("managed blocks", () => {
  test("append after the user's text, then take out exactly what was added", () => {
    const user = "# Notes\n\nkeep me\n";
    const withBlock = upsertBlock(user, "line one\nline two", "markdown");
    expect(withBlock.startsWith(user + "\n<!-- prolong:begin")).toBe(true);
    expect(readBlock(withBlock, "markdown")).toBe("line one\nline two");
    expect(removeBlock(withBlock, "markdown")).toBe(user);
  });

  test("replace in place keeps text on both sides, and re-running changes nothing", () => {
    const once = upsertBlock("top\n", "old", "hash");
    const edited = once + "user line after\n";
    const twice = upsertBlock(edited, "new", "hash");
    expect(twice).toBe("top\n\n# prolong:begin (managed by prolong init)\nnew\n# prolong:end\nuser line after\n");
    expect(upsertBlock(twice, "new", "hash")).toBe(twice);
    expect(removeBlock(twice, "hash")).toBe("top\nuser line after\n");
  });

  test("a new file holds only the block; a file without markers has no block", () => {
    expect(upsertBlock(null, "x", "markdown")).toBe(
      "<!-- prolong:begin (managed by prolong init; edit outside this block) -->\nx\n<!-- prolong:end -->\n",
    );
    expect(readBlock("no markers here\n", "markdown")).toBeNull();
    expect(removeBlock("no markers here\n", "markdown")).toBe("no markers here\n");
  });
});
