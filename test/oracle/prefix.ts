// The obviously-correct twin of native prefixCheck: compare byte by byte.
export function prefixCheckOracle(master: Uint8Array, copy: Uint8Array): number {
  for (let i = 0; i < copy.length; i++) {
    if (i >= master.length || master[i] !== copy[i]) return i;
  }
  return -1;
}
