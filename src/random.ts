// The one seeded generator (mulberry32): tiny, fast, well mixed, uniform in [0, 1). Same seed, same sequence —
// for bootstrap resampling and generated test logs, where reproducibility matters more than quality.
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
