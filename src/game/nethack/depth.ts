// The hero's real dungeon depth, what BALROG's progression looks up (NLE's blstats depth). The status line
// shows it as Dlvl:N in the Dungeons, the Mines, Sokoban and Gehennom, but names the Quest's levels from its
// own first one ("Home 3") and Fort Ludios by name. The Quest is entered through a magic portal, which keeps
// the depth: its first level lies at the depth of the level its portal is on, read from the level the hero
// came from. Ludios's portal floats (the game places it in a vault), so its level says nothing of the Fort's
// depth: that is read from the game's own dungeon table (dungeon-table.ts). The Elemental Planes lie at
// depths -5 to 0, which BALROG's table has no entry for: no depth.

export interface DepthState {
  /** The last Dlvl:N the status showed. */
  readonly last?: number;
  /** The depth of the Quest's first level (its portal's), once entered from the Dungeons. */
  readonly quest?: number;
  /** Fort Ludios's depth (from the game's dungeon table), once read. */
  readonly ludios?: number;
}

/**
 * The depth a status place ("Dlvl:4", "Home 2", "Fort Ludios") stands for, and the state after it. `ludios`
 * reads the Fort's depth from the game when the hero is first there (undefined when it cannot).
 */
export function nextDepth(
  state: DepthState,
  place: string,
  ludios: () => number | undefined = () => undefined,
): { state: DepthState; depth: number | undefined } {
  const dlvl = /^Dlvl:(\d+)$/.exec(place);
  if (dlvl) {
    const n = Number(dlvl[1]);
    return { state: { ...state, last: n }, depth: n };
  }
  const home = /^Home (\d+)$/.exec(place);
  if (home) {
    const quest = state.quest ?? state.last;
    const next = quest === undefined ? state : { ...state, quest };
    return { state: next, depth: quest === undefined ? undefined : quest + Number(home[1]) - 1 };
  }
  if (place === "Fort Ludios") {
    const depth = state.ludios ?? ludios();
    return { state: depth === undefined ? state : { ...state, ludios: depth }, depth };
  }
  return { state, depth: undefined };
}
