// Headless Chromium as prolong drives it: where it is found, and the flags every launch shares (report PNGs
// here; the browser tests launch it through playwright-core with the same flags, so what they check is the
// browser as the command runs it).
import { existsSync } from "node:fs";

/** Flags for a headless, offline, profile-less launch: no GPU, no sandbox (it may run as root in CI and in
 * containers), nothing fetched in the background. */
export const HEADLESS_FLAGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Chromium to render PNGs: $PROLONG_CHROMIUM, else chromium (or chromium-browser) on PATH, else Debian's. */
export function findChromium(): string | null {
  const env = process.env.PROLONG_CHROMIUM;
  if (env) return existsSync(env) ? env : null;
  return Bun.which("chromium") ?? Bun.which("chromium-browser") ?? (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : null);
}
