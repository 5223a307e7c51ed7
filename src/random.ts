// The one seeded generator (mulberry32): tiny, fast, well mixed, uniform in [0, 1). Same seed, same sequence —
// for bootstrap resampling and generated test logs, where reproducibility matters more than quality.
export function seededRandom(seed: number): () => number {
  const stream = new SeededStream(seed);
  return () => stream.next();
}

/**
 * The same generator as an object, for hot loops: `indices` draws n indices uniform in 0..n−1 (each
 * ⌊next()·n⌋, the same numbers in the same order as calling next() n times) with the state kept in a local,
 * about twice as fast as a call per number in the bootstrap's inner loop.
 */
export class SeededStream {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    return unit(this.state);
  }
  indices(into: Int32Array, n: number): void {
    let a = this.state;
    for (let j = 0; j < n; j++) {
      a = (a + 0x6d2b79f5) >>> 0;
      into[j] = Math.floor(unit(a) * n);
    }
    this.state = a;
  }
}

/** mulberry32's output function: the state mixed to a number in [0, 1). */
function unit(a: number): number {
  let t = a;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
