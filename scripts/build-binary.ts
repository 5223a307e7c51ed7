// Builds dist/prolong: one executable holding Bun, the TypeScript, the committed games and the native
// addon (embedded because src/native.ts requires it by a string literal). Builds the addon first.
import { $ } from "bun";
import { mkdirSync, statSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
await $`bun ${join(root, "scripts/build-native.ts")}`;
mkdirSync(join(root, "dist"), { recursive: true });
const out = join(root, "dist/prolong");
const result = await $`bun build --compile --minify-syntax ${join(root, "src/main.ts")} --outfile ${out}`.nothrow();
if (result.exitCode !== 0) {
  console.error("build-binary: bun build --compile failed (see above)");
  process.exit(result.exitCode);
}
const mb = (statSync(out).size / 1e6).toFixed(1);
console.log(`build-binary: wrote ${out} (${mb} MB); try: ${out} --version`);
