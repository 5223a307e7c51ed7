// "Did you mean": the closest known word to a mistyped one (commands, subcommands, flags, game ids, choices).

/** Edit distance with adjacent transpositions counted as one edit ("ply" → "play" is 1, "paly" → "play" is 1). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[(i - 1) * cols + j]! + 1, d[i * cols + j - 1]! + 1, d[(i - 1) * cols + j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[(i - 2) * cols + j - 2]! + 1);
      d[i * cols + j] = best;
    }
  }
  return d[rows * cols - 1]!;
}

/**
 * The known word closest to `word`, when it is close enough to be a typo (a third of its length, at least 2
 * edits) or the only word that starts with it; undefined otherwise.
 */
export function closest(word: string, known: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = editDistance(w, k.toLowerCase());
    if (d < bestDistance) {
      best = k;
      bestDistance = d;
    }
  }
  if (best !== undefined && bestDistance <= Math.max(2, Math.floor(w.length / 3))) return best;
  const prefixed = known.filter((k) => w.length >= 2 && k.toLowerCase().startsWith(w));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/** "; did you mean 'x'?" or "" — to append to an error message. */
export function didYouMean(word: string, known: readonly string[], show: (k: string) => string = (k) => k): string {
  const c = closest(word, known);
  return c === undefined ? "" : `; did you mean '${show(c)}'?`;
}
