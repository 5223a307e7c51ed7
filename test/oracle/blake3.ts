// The obviously-correct twin of native blake3: BLAKE3 written out from the specification, word by word,
// with the tree built recursively (left subtree = the largest power of two of chunks that leaves the
// right one non-empty). Slow on purpose; for tests only.
const IV = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
const PERMUTATION = [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8];
const CHUNK_START = 1;
const CHUNK_END = 2;
const PARENT = 4;
const ROOT = 8;
const CHUNK_LEN = 1024;
const BLOCK_LEN = 64;

const rotr = (x: number, n: number) => ((x >>> n) | (x << (32 - n))) >>> 0;

function g(s: number[], a: number, b: number, c: number, d: number, mx: number, my: number): void {
  s[a] = (s[a]! + s[b]! + mx) >>> 0;
  s[d] = rotr(s[d]! ^ s[a]!, 16);
  s[c] = (s[c]! + s[d]!) >>> 0;
  s[b] = rotr(s[b]! ^ s[c]!, 12);
  s[a] = (s[a]! + s[b]! + my) >>> 0;
  s[d] = rotr(s[d]! ^ s[a]!, 8);
  s[c] = (s[c]! + s[d]!) >>> 0;
  s[b] = rotr(s[b]! ^ s[c]!, 7);
}

/** The compression function; returns all 16 output words. */
function compress(cv: number[], block: number[], counter: number, blockLen: number, flags: number): number[] {
  const s = [...cv, IV[0]!, IV[1]!, IV[2]!, IV[3]!, counter >>> 0, Math.floor(counter / 2 ** 32) >>> 0, blockLen, flags];
  let m = block;
  for (let round = 0; round < 7; round++) {
    g(s, 0, 4, 8, 12, m[0]!, m[1]!);
    g(s, 1, 5, 9, 13, m[2]!, m[3]!);
    g(s, 2, 6, 10, 14, m[4]!, m[5]!);
    g(s, 3, 7, 11, 15, m[6]!, m[7]!);
    g(s, 0, 5, 10, 15, m[8]!, m[9]!);
    g(s, 1, 6, 11, 12, m[10]!, m[11]!);
    g(s, 2, 7, 8, 13, m[12]!, m[13]!);
    g(s, 3, 4, 9, 14, m[14]!, m[15]!);
    m = PERMUTATION.map((i) => m[i]!);
  }
  for (let i = 0; i < 8; i++) {
    s[i] = (s[i]! ^ s[i + 8]!) >>> 0;
    s[i + 8] = (s[i + 8]! ^ cv[i]!) >>> 0;
  }
  return s;
}

/** A 64-byte block (zero-padded) as 16 little-endian words. */
function words(bytes: Uint8Array): number[] {
  const padded = new Uint8Array(BLOCK_LEN);
  padded.set(bytes);
  const view = new DataView(padded.buffer);
  return Array.from({ length: 16 }, (_, i) => view.getUint32(i * 4, true));
}

/** Output words of one chunk (the last block's compression), with `extra` flags on that block. */
function chunk(bytes: Uint8Array, index: number, extra: number): number[] {
  let cv = IV;
  const blocks = Math.max(1, Math.ceil(bytes.length / BLOCK_LEN));
  for (let b = 0; b < blocks; b++) {
    const block = bytes.subarray(b * BLOCK_LEN, (b + 1) * BLOCK_LEN);
    const flags = (b === 0 ? CHUNK_START : 0) | (b === blocks - 1 ? CHUNK_END | extra : 0);
    const out = compress(cv, words(block), index, block.length, flags);
    if (b === blocks - 1) return out;
    cv = out.slice(0, 8);
  }
  throw new Error("unreachable: a chunk has at least one block");
}

/** Output words of the subtree over input[offset..] (whole chunks starting at chunk `first`). */
function node(input: Uint8Array, first: number, chunks: number, extra: number): number[] {
  if (chunks === 1) return chunk(input.subarray(first * CHUNK_LEN, (first + 1) * CHUNK_LEN), first, extra);
  let left = 1;
  while (left * 2 < chunks) left *= 2;
  const l = node(input, first, left, 0).slice(0, 8);
  const r = node(input, first + left, chunks - left, 0).slice(0, 8);
  return compress(IV, [...l, ...r], 0, BLOCK_LEN, PARENT | extra);
}

export function blake3Oracle(buf: Uint8Array, start = 0, end = buf.length): string {
  const input = buf.subarray(start, end);
  const out = node(input, 0, Math.max(1, Math.ceil(input.length / CHUNK_LEN)), ROOT).slice(0, 8);
  return out.map((w) => [0, 8, 16, 24].map((sh) => ((w >>> sh) & 0xff).toString(16).padStart(2, "0")).join("")).join("");
}
