// Builds dist/prolong: one executable holding Bun, the TypeScript, the committed games and the native
// addon (embedded because src/native.ts requires it by a string literal). Builds the addon first.
import { $ } from "bun";
import { mkdirSync, statSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
await $`bun ${join(root, "scripts/build-native.ts")}`;
mkdirSync(join(root, "dist"), { recursive: true });
const out = join(root, "dist/prolong");
// Start-up is paid by every command, so: --splitting keeps each command's code in its own chunk, loaded only
// when that command runs (the table in src/cli/commands.ts imports them lazily); --bytecode ships the code
// precompiled, so nothing is parsed at start-up (it needs --format esm for main.ts's top-level await).
// Together they bring `prolong --version` to a hello-world binary's time and memory.
const result =
  await $`bun build --compile --minify-syntax --minify-whitespace --bytecode --format esm --splitting ${join(root, "src/main.ts")} --outfile ${out}`.nothrow();
if (result.exitCode !== 0) {
  console.error("build-binary: bun build --compile failed (see above)");
  process.exit(result.exitCode);
}
const mb = (statSync(out).size / 1e6).toFixed(1);
console.log(`build-binary: wrote ${out} (${mb} MB); try: ${out} --version`);
