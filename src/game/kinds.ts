// The registry of environment kinds: one line per kind. Everything that differs between environments is its
// kind's (game/kind.ts says what a kind is); the run, resume, replay, score, view, log readers and plans ask
// here and never name one (test/import-direction.test.ts keeps it so). A kind's description loads with this
// file; what plays it loads when a run or a reader of its sections needs it.
import type { SettingTable } from "../setting/declaration.ts";
import { arcLocalKind, arcOnlineKind } from "./arc/kind.ts";
import { err, ok, type Result } from "neverthrow";
import type { EnvKind, KindPlay, SectionCodec, SectionView } from "./kind.ts";
import { localKind } from "./local/kind.ts";
import { nethackKind } from "./nethack/kind.ts";
import { toyKind } from "./toy/kind.ts";

export type {
  ColourRun,
  EnvKind,
  GameListing,
  GameRef,
  KindPlay,
  SectionCodec,
  SectionPicture,
  SectionRead,
  SectionView,
  StepReport,
  StepRule,
  TerminalKeys,
  TerminalPicture,
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

/** What plays a kind, with its section codec. */
export async function loadKind(name: EnvKindName): Promise<KindPlay> {
  const kind = envKind(name);
  return { ...(await kind.load()), codec: kind.codec() };
}

let codecs: { readonly kind: EnvKind; readonly codec: SectionCodec }[] | undefined;

/** Every kind's section codec once (kinds may share one: the grid games do), the first kind to have it beside it. */
function sectionCodecs(): readonly { readonly kind: EnvKind; readonly codec: SectionCodec }[] {
  if (!codecs) {
    const seen = new Map<SectionCodec, EnvKind>();
    for (const k of Object.values(KINDS) as EnvKind[]) {
      const codec = k.codec();
      if (!seen.has(codec)) seen.set(codec, k);
    }
    codecs = [...seen].map(([codec, kind]) => ({ kind, codec }));
  }
  return codecs;
}

/**
 * A section of a log as its readers show it (`log show`, `view`), read by the codec of the kind its run names
 * (`named`), else — a bare logs.txt such as the published ones, or a section that kind does not read — by the
 * first kind's codec that reads it (registry order: the grid games' first), with that kind; when none does, why
 * the first refused it.
 */
export function viewSection(
  text: string,
  named?: EnvKind,
): Result<{ readonly view: SectionView; readonly kind: EnvKind }, string> {
  const own = named?.codec().view(text);
  if (named && own?.isOk()) return ok({ view: own.value, kind: named });
  let first: string | undefined;
  for (const { kind, codec } of sectionCodecs()) {
    const view = codec.view(text);
    if (view.isOk()) return ok({ view: view.value, kind });
    first ??= view.error;
  }
  return err(first ?? "no environment kind reads this section");
}
