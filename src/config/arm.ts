// What arm a run belongs to: a name (`play --arm NAME`, or one derived from the settings) and a fingerprint of
// every setting that changes what the agent sees or does. `score` and `report` group runs by the name and
// refuse to pool runs whose fingerprints differ under one name, so a table row never mixes two experiments.
import { createHash } from "node:crypto";
import { ok } from "neverthrow";
import { FULL_WINDOW, parseLogWindow, windowLabel, windowText, type LogWindow } from "../setting/log-window.ts";
import { agentName, defaultsFor, RUN_SETTINGS, type RunConfig } from "./run-config.ts";
import { labelOf, notArmKeys } from "../setting/declaration.ts";

/**
 * Settings that never change what the agent sees or does (the game and seed, the arm's own name, where the
 * game files lie, timeouts, how the agent is confined): each setting's declaration says (run-config.ts), so
 * a setting added later is in the fingerprint unless it is declared otherwise.
 */
const NOT_ARM_SETTINGS = notArmKeys(RUN_SETTINGS);

/** How a setting is named in messages and derived names: the flag that gives it. */
export function flagOf(setting: string): string {
  return labelOf(RUN_SETTINGS, setting);
}

/** The arm settings of a run, by RunConfig field name, values as stored (undefined fields left out). */
export type ArmSettings = Readonly<Record<string, string | number | boolean | null>>;

export function armSettingsOf(c: RunConfig): ArmSettings {
  const out: Record<string, string | number | boolean | null> = {};
  for (const key of Object.keys(c).sort()) {
    if (NOT_ARM_SETTINGS.has(key)) continue;
    const value = (c as Record<string, unknown>)[key];
    if (value === undefined) continue;
    out[key] = settingValue(key, value);
  }
  return out;
}

/** A setting as the arm records it: the window in its text form, other objects as JSON. */
function settingValue(key: string, value: unknown): string | number | boolean | null {
  if (key === "logWindow") return windowText(value as LogWindow);
  return typeof value === "object" && value !== null ? JSON.stringify(value) : (value as string | number | boolean | null);
}

/** 12 hex digits of sha256 over the settings in key order: equal settings, equal fingerprint, on any machine. */
export function armFingerprint(settings: ArmSettings): string {
  const canonical = JSON.stringify(
    Object.keys(settings)
      .sort()
      .map((k) => [k, settings[k]]),
  );
  return createHash("sha256").update(canonical, "utf8").digest("hex").slice(0, 12);
}

function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}

/** A setting as the flag that gives it: `--log-window 25`, `--cmd 'python agent.py'`, `--log-window full`. */
export function settingText(key: string, value: string | number | boolean | null | undefined): string {
  if (key === "version") return `prolong ${value}`;
  if (typeof value === "boolean") return value ? flagOf(key) : `(no ${flagOf(key)})`;
  return `${flagOf(key)} ${value === undefined || value === null ? "(unset)" : shellWord(String(value))}`;
}

/**
 * The name a run gets without --arm: the agent (by agentName), then every arm setting that differs from its
 * environment's default (NetHack's 20,000 actions and batches of 30 are no deviation), as the
 * flags that set it. Two runs with the same derived name therefore differ at most in prolong's version.
 */
export function derivedArmName(c: RunConfig): string {
  const settings = armSettingsOf(c);
  const defaults = defaultsFor(c.env) as Readonly<Record<string, unknown>>;
  const parts = [agentName(c)];
  for (const [key, value] of Object.entries(settings)) {
    if (key === "agent" || key === "version") continue;
    if (key in defaults ? settingValue(key, defaults[key]) === value : value === null) continue;
    parts.push(settingText(key, value));
  }
  return parts.join(" ");
}

export interface ArmId {
  readonly name: string;
  readonly fingerprint: string;
}

export function armOf(c: RunConfig): ArmId {
  return { name: c.arm ?? derivedArmName(c), fingerprint: armFingerprint(armSettingsOf(c)) };
}

/** The settings in which two arms differ, each as `--flag A vs B`. */
export function differingSettings(a: ArmSettings, b: ArmSettings): string[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return keys.filter((k) => a[k] !== b[k]).map((k) => `${flagOf(k)}: ${describe(k, a[k])} vs ${describe(k, b[k])}`);
}

function describe(key: string, value: string | number | boolean | null | undefined): string {
  if (value === undefined) return "(unset)";
  if (key === "logWindow") {
    const w = value === null ? ok(FULL_WINDOW) : parseLogWindow(String(value));
    return w.isOk() ? windowLabel(w.value) : String(value);
  }
  return typeof value === "string" ? shellWord(value) : String(value);
}
