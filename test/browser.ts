// The browser tests' one way to reach Chromium: Debian's chromium driven by playwright-core with the flags
// `prolong report --png` launches it with; a reason to skip when either is missing.
import { existsSync } from "node:fs";
import { HEADLESS_FLAGS } from "../src/report/chromium.ts";

const CHROMIUM = "/usr/bin/chromium";

type Playwright = typeof import("playwright-core");
let playwright: Playwright | null = null;
try {
  playwright = await import("playwright-core");
} catch {
  playwright = null;
}

export type BrowserContext = Awaited<ReturnType<Playwright["chromium"]["launchPersistentContext"]>>;
export type BrowserPage = Awaited<ReturnType<BrowserContext["newPage"]>>;

/** Why the browser tests cannot run here, or null when they can. */
export const browserSkipReason: string | null = !existsSync(CHROMIUM)
  ? `${CHROMIUM} not found (apt-get install -y chromium)`
  : playwright === null
    ? "playwright-core is not installed (npm install -D playwright-core)"
    : null;

/** A headless Chromium with its own profile in `profileDir`; only when browserSkipReason is null. */
export function launchBrowser(profileDir: string, viewport?: { width: number; height: number }): Promise<BrowserContext> {
  if (playwright === null) throw new Error(`launchBrowser: ${browserSkipReason}`);
  return playwright.chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...HEADLESS_FLAGS],
    ...(viewport ? { viewport } : {}),
  });
}
