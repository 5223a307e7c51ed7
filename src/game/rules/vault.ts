// Vault: a row of coloured buttons opens the vault when pressed in the level's code order. The code is shown
// in the slots above the buttons on the level's first board of the first attempt only, and hidden after the
// first click: after a GAME_OVER or a RESET the player must remember it (or rediscover it by trial: a right
// press fills a slot with its colour, a wrong one flashes every slot red and empties them). Clicks only.
import * as v from "valibot";
import type { Rules } from "../engine.ts";

const colour = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(15));
export const vaultLevel = v.looseObject({
  /** Button colours, left to right; distinct. */
  buttons: v.pipe(v.array(colour), v.minLength(2), v.maxLength(15)),
  /** The code: button indices (0-based) in the order to press them. */
  code: v.pipe(v.array(v.pipe(v.number(), v.integer(), v.minValue(0))), v.minLength(1), v.maxLength(15)),
});
type VaultLevel = v.InferOutput<typeof vaultLevel>;
interface VaultState {
  readonly progress: number;
  readonly reveal: boolean;
  readonly flash: boolean;
}

const COLOR = { floor: 5, slot: 3, flash: 8, frame: 2 } as const;
const SLOT_ROW = 1;
const BUTTON_ROW = 3;

function width(l: VaultLevel): number {
  return 2 * Math.max(l.buttons.length, l.code.length) + 1;
}

export const vaultRules: Rules<VaultLevel, VaultState> = {
  kind: "vault",
  levelSchema: vaultLevel,
  check(l) {
    if (new Set(l.buttons).size !== l.buttons.length) return { field: "buttons", problem: "button colours must be distinct" };
    if (l.buttons.some((c) => c === COLOR.floor || c === COLOR.slot || c === COLOR.flash || c === COLOR.frame)) {
      return { field: "buttons", problem: "colours 2, 3, 5 and 8 are the vault's own" };
    }
    const i = l.code.findIndex((b) => b >= l.buttons.length);
    if (i >= 0) return { field: `code[${i}]`, problem: `button ${l.code[i]} does not exist (${l.buttons.length} buttons)` };
    return undefined;
  },
  size: (l) => ({ width: width(l), height: 5 }),
  start: (_l, how) => ({ progress: 0, reveal: how.attempt === 1, flash: false }),
  step(l, s, move) {
    if (move.kind !== "click") return { state: s, outcome: "play" };
    const hidden = { progress: s.progress, reveal: false, flash: false };
    const pressed = move.ty === BUTTON_ROW && move.tx % 2 === 1 ? (move.tx - 1) / 2 : -1;
    if (pressed < 0 || pressed >= l.buttons.length) return { state: hidden, outcome: "play" };
    if (l.code[s.progress] === pressed) {
      const next = { ...hidden, progress: s.progress + 1 };
      return next.progress === l.code.length
        ? { state: next, between: [next], outcome: "solved" }
        : { state: next, outcome: "play" };
    }
    const flash = { progress: 0, reveal: false, flash: true };
    return { state: { ...flash, flash: false }, between: [flash, { ...flash, flash: false }, flash], outcome: "play" };
  },
  draw(l, s, paint) {
    const w = width(l);
    for (let x = 0; x < w; x++) {
      paint.tile(x, 0, COLOR.frame);
      paint.tile(x, 4, COLOR.frame);
    }
    l.code.forEach((b, i) => {
      const shown = s.flash ? COLOR.flash : s.reveal || i < s.progress ? (l.buttons[b] ?? COLOR.slot) : COLOR.slot;
      paint.tile(1 + 2 * i, SLOT_ROW, shown);
    });
    l.buttons.forEach((c, i) => paint.tile(1 + 2 * i, BUTTON_ROW, c));
  },
  key: (s) => `${s.progress}${s.reveal ? "r" : ""}`,
};
