// Which tiles to click when each click flips a known set of tiles (itself, and for a tile drawn with a
// pattern, the neighbours its pattern points at): a system of parities over GF(2). Each wanted tile must be
// flipped an odd number of times if it disagrees, an even number if it agrees; each click is a variable.
// Gaussian elimination gives one answer (free clicks left out), or none when the wants contradict each other.

/**
 * The clicks (indices into `effects`) whose flips together flip exactly the tiles `wanted` marks true and
 * none it marks false, or undefined when no set of clicks does. Tiles in no entry of `wanted` are free.
 */
export function solveFlips(effects: readonly (readonly string[])[], wanted: ReadonlyMap<string, boolean>): number[] | undefined {
  const keys = [...wanted.keys()];
  const n = effects.length;
  // One row per wanted tile: which clicks flip it, and the parity it needs (the last column).
  const rows = keys.map((k) => {
    const row = new Uint8Array(n + 1);
    effects.forEach((e, j) => {
      if (e.includes(k)) row[j] = 1;
    });
    row[n] = wanted.get(k) ? 1 : 0;
    return row;
  });
  const pivotOf: number[] = [];
  let r = 0;
  for (let col = 0; col < n && r < rows.length; col++) {
    const p = rows.findIndex((row, i) => i >= r && row[col] === 1);
    if (p < 0) continue;
    [rows[r], rows[p]] = [rows[p]!, rows[r]!];
    for (let i = 0; i < rows.length; i++) {
      if (i === r || rows[i]![col] !== 1) continue;
      for (let j = col; j <= n; j++) rows[i]![j]! ^= rows[r]![j]!;
    }
    pivotOf[r] = col;
    r++;
  }
  // A row with no click left but an odd parity: the wants contradict each other.
  for (let i = r; i < rows.length; i++) if (rows[i]![n] === 1) return undefined;
  const out: number[] = [];
  for (let i = 0; i < r; i++) if (rows[i]![n] === 1) out.push(pivotOf[i]!);
  return out.sort((a, b) => a - b);
}
