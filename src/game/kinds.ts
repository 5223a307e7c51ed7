// The registry of environment kinds: one line per kind. Everything that differs between environments is its
// kind's (game/kind.ts says what a kind is); the run, resume, replay, score, view, log readers and plans ask
// here and never name one (test/import-direction.test.ts keeps it so). A kind's description loads with this
// file; what plays it loads when a run or a reader of its sections needs it.
import type { SettingTable } from "../setting/declaration.ts";
import { arcLocalKind, arcOnlineKind } from "./arc/kind.ts";
import type { EnvKind, KindPlay, ScreenSectionCodec, ScreenView } from "./kind.ts";
import { localKind } from "./local/kind.ts";
import { nethackKind } from "./nethack/kind.ts";
import { toyKind } from "./toy/kind.ts";

export type {
  EnvKind,
  GameListing,
  GameRef,
  KindPlay,
  ScreenSectionCodec,
  ScreenView,
  StepReport,
  StepRule,
  TerminalKeys,
} from "./kind.ts";
export { stepReport } from "./kind.ts";

/** The kinds, by what `--env` calls them; the first is the default. */
const KINDS = {
  local: localKind,
  "arc-local": arcLocalKind,
  "arc-online": arcOnlineKind,
  nethack: nethackKind,
  toy: toyKind,
};

export type EnvKindName = keyof typeof KINDS;
export const ENV_KINDS = Object.keys(KINDS) as [EnvKindName, ...EnvKindName[]];
export const DEFAULT_ENV_KIND: EnvKindName = ENV_KINDS[0];

/** The environment kind `--env` names. */
export function envKind(name: EnvKindName): EnvKind {
  return KINDS[name] as EnvKind;
}

type Union<T> = T[keyof T];
type Intersect<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
/** Every kind's settings, as one table. */
export type KindSettings = Intersect<Union<{ [K in EnvKindName]: (typeof KINDS)[K]["settings"] }>>;

/**
 * Every kind's own settings, each applying to its kind only, in registry order (run.json's order: they
 * stand after `env`).
 */
export const KIND_SETTINGS = Object.fromEntries(
  Object.values(KINDS).flatMap((k) =>
    Object.entries(k.settings as SettingTable).map(([key, s]) => [key, { ...s, appliesTo: { env: [k.name] } }]),
  ),
) as unknown as KindSettings;

/** What plays a kind, loaded once. */
export function loadKind(name: EnvKindName): Promise<KindPlay> {
  return envKind(name).load();
}

let codecs: { readonly kind: EnvKind; readonly codec: ScreenSectionCodec }[] | undefined;

/**
 * Every kind's section codec, for a reader of a log that does not say which kind wrote it (`log show`,
 * `view`): a section the grid format refuses is tried against each. Loaded on the first call.
 */
function screenCodecs(): readonly { readonly kind: EnvKind; readonly codec: ScreenSectionCodec }[] {
  codecs ??= Object.values(KINDS).flatMap((k) => {
    const kind = k as EnvKind;
    return kind.codec ? [{ kind, codec: kind.codec() }] : [];
  });
  return codecs;
}

/** A section some kind's codec reads, as its readers show it, with that kind; null when no kind's codec reads it. */
export function screenView(
  text: string,
): { readonly view: ScreenView; readonly codec: ScreenSectionCodec; readonly kind: EnvKind } | null {
  for (const { kind, codec } of screenCodecs()) {
    const view = codec.view(text);
    if (view.isOk()) return { view: view.value, codec, kind };
  }
  return null;
}
