// Loaded before every test file (bunfig.toml): the `bun test` process, and every process it starts, makes its
// temporary files inside one folder of its own, removed after the last test (under `--parallel`, as `npm test`
// runs, each file runs in a fresh global and gets a folder of its own, removed after its last test). Without
// it each run of the suite left thousands of run directories in /tmp (a plan test alone leaves 55 MB), enough
// to fill the disk of a machine that runs the suite all day. PROLONG_KEEP_TEST_FILES=1 keeps the folder to
// look at.
import { afterAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const folder = mkdtempSync(join(tmpdir(), "prolong-tests-"));
process.env.TMPDIR = folder;
if (process.env.PROLONG_KEEP_TEST_FILES === "1") console.log(`test files kept in ${folder}`);
// afterAll in a preload runs once, after the last test file (Bun runs no "exit" handlers in `bun test`); under
// --parallel, after each file.
else afterAll(() => rmSync(folder, { recursive: true, force: true }));
