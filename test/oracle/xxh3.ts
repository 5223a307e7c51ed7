// The obviously-correct twin of native xxh3_128: XXH3-128 (seed 0, default 192-byte secret) written out
// from the xxHash specification (doc/xxhash_spec.md, "XXH3 Algorithm Description"), one spec step per
// function, with BigInt for every 64-bit value so no step needs a 32-bit split. Slow on purpose; for
// tests only. The seed is fixed at 0 because the native function has no seed: seed terms are left out.

const MASK64 = (1n << 64n) - 1n;
/** Reduce to 64 bits: every spec operation is modulo 2^64. */
const u64 = (x: bigint): bigint => x & MASK64;

const PRIME32_1 = 0x9e3779b1n;
const PRIME32_2 = 0x85ebca77n;
const PRIME32_3 = 0xc2b2ae3dn;
const PRIME64_1 = 0x9e3779b185ebca87n;
const PRIME64_2 = 0xc2b2ae3d27d4eb4fn;
const PRIME64_3 = 0x165667b19e3779f9n;
const PRIME64_4 = 0x85ebca77c2b2ae63n;
const PRIME64_5 = 0x27d4eb2f165667c5n;
const PRIME_MX1 = 0x165667919e3779f9n;
const PRIME_MX2 = 0x9fb21c651e98df25n;

const SECRET = Uint8Array.from([
  0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c, 0xde, 0xd4, 0x6d, 0xe9, 0x83,
  0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f, 0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a,
  0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21, 0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26,
  0x4c, 0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3, 0x71, 0x64, 0x48, 0x97,
  0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8, 0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9,
  0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d, 0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78,
  0x73, 0x64, 0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb, 0x17, 0x0d, 0xdd,
  0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e, 0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc,
  0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce, 0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb,
  0x4b, 0x40, 0x7e,
]);
const SECRET_LENGTH = SECRET.length; // 192
const STRIPE_LEN = 64;
const STRIPES_PER_BLOCK = (SECRET_LENGTH - 64) / 8; // 16
const BLOCK_LEN = STRIPE_LEN * STRIPES_PER_BLOCK; // 1024

/** Little-endian reads; the spec reads both input and secret little-endian. */
function read32(bytes: Uint8Array, offset: number): bigint {
  let v = 0n;
  for (let i = 3; i >= 0; i--) v = (v << 8n) | BigInt(bytes[offset + i]!);
  return v;
}
function read64(bytes: Uint8Array, offset: number): bigint {
  return read32(bytes, offset) | (read32(bytes, offset + 4) << 32n);
}
const secret32 = (offset: number): bigint => read32(SECRET, offset);
const secret64 = (offset: number): bigint => read64(SECRET, offset);

const lowerHalf = (x: bigint): bigint => x & MASK64;
const higherHalf = (x: bigint): bigint => x >> 64n;
const lower32 = (x: bigint): bigint => x & 0xffffffffn;
const higher32 = (x: bigint): bigint => (x >> 32n) & 0xffffffffn;

function bswap32(x: bigint): bigint {
  let v = 0n;
  for (let i = 0n; i < 4n; i++) v = (v << 8n) | ((x >> (8n * i)) & 0xffn);
  return v;
}
function bswap64(x: bigint): bigint {
  let v = 0n;
  for (let i = 0n; i < 8n; i++) v = (v << 8n) | ((x >> (8n * i)) & 0xffn);
  return v;
}
const rotl32 = (x: bigint, s: bigint): bigint => ((x << s) | (x >> (32n - s))) & 0xffffffffn;

function avalanche(x: bigint): bigint {
  x ^= x >> 37n;
  x = u64(x * PRIME_MX1);
  x ^= x >> 32n;
  return x;
}

function avalancheXXH64(x: bigint): bigint {
  x ^= x >> 33n;
  x = u64(x * PRIME64_2);
  x ^= x >> 29n;
  x = u64(x * PRIME64_3);
  x ^= x >> 32n;
  return x;
}

interface Hash128 {
  readonly low: bigint;
  readonly high: bigint;
}

function hashEmpty(): Hash128 {
  return {
    low: avalancheXXH64(secret64(64) ^ secret64(72)),
    high: avalancheXXH64(secret64(80) ^ secret64(88)),
  };
}

function hash1to3(input: Uint8Array): Hash128 {
  const len = input.length;
  const combined = BigInt(input[len - 1]!) | (BigInt(len) << 8n) | (BigInt(input[0]!) << 16n) | (BigInt(input[len >> 1]!) << 24n);
  const low = secret32(0) ^ secret32(4) ^ combined;
  const high = secret32(8) ^ secret32(12) ^ rotl32(bswap32(combined), 13n);
  return { low: avalancheXXH64(low), high: avalancheXXH64(high) };
}

function hash4to8(input: Uint8Array): Hash128 {
  const len = input.length;
  const inputFirst = read32(input, 0);
  const inputLast = read32(input, len - 4);
  const combined = inputFirst | (inputLast << 32n);
  const value = secret64(16) ^ secret64(24) ^ combined;
  const mulResult = value * u64(PRIME64_1 + (BigInt(len) << 2n));
  let high = higherHalf(mulResult);
  let low = lowerHalf(mulResult);
  high = u64(high + (low << 1n));
  low ^= high >> 3n;
  low ^= low >> 35n;
  low = u64(low * PRIME_MX2);
  low ^= low >> 28n;
  return { low, high: avalanche(high) };
}

function hash9to16(input: Uint8Array): Hash128 {
  const len = input.length;
  const inputFirst = read64(input, 0);
  const inputLast = read64(input, len - 8);
  const val1 = secret64(32) ^ secret64(40) ^ inputFirst ^ inputLast;
  const val2 = secret64(48) ^ secret64(56) ^ inputLast;
  const mulResult = val1 * PRIME64_1;
  let low = u64(lowerHalf(mulResult) + (BigInt(len - 1) << 54n));
  let high = u64(higherHalf(mulResult) + (higher32(val2) << 32n) + lower32(val2) * PRIME32_2);
  low ^= bswap64(high);
  // {low, high} = (u128){low, high} * PRIME64_2, truncated to 128 bits.
  const mulResult2 = low * PRIME64_2;
  low = lowerHalf(mulResult2);
  high = u64(higherHalf(mulResult2) + high * PRIME64_2);
  return { low: avalanche(low), high: avalanche(high) };
}

/** Mixes 16 input bytes with 16 secret bytes into 64 bits (seed 0). */
function mixStep(input: Uint8Array, offset: number, secretOffset: number): bigint {
  const mulResult = (read64(input, offset) ^ secret64(secretOffset)) * (read64(input, offset + 8) ^ secret64(secretOffset + 8));
  return lowerHalf(mulResult) ^ higherHalf(mulResult);
}

/** The medium-input accumulator pair, updated by two 16-byte chunks and 32 secret bytes. */
function mixTwoChunks(acc: bigint[], input: Uint8Array, offset1: number, offset2: number, secretOffset: number): void {
  acc[0] = u64(acc[0]! + mixStep(input, offset1, secretOffset));
  acc[1] = u64(acc[1]! + mixStep(input, offset2, secretOffset + 16));
  acc[0] = acc[0] ^ u64(read64(input, offset2) + read64(input, offset2 + 8));
  acc[1] = acc[1] ^ u64(read64(input, offset1) + read64(input, offset1 + 8));
}

function finalizeMedium(acc: bigint[], len: number): Hash128 {
  const low = u64(acc[0]! + acc[1]!);
  const high = u64(acc[0]! * PRIME64_1 + acc[1]! * PRIME64_4 + BigInt(len) * PRIME64_2);
  return { low: avalanche(low), high: u64(0n - avalanche(high)) };
}

function hash17to128(input: Uint8Array): Hash128 {
  const len = input.length;
  const acc = [u64(BigInt(len) * PRIME64_1), 0n];
  const numRounds = ((len - 1) >> 5) + 1;
  for (let i = numRounds - 1; i >= 0; i--) {
    mixTwoChunks(acc, input, i * 16, len - i * 16 - 16, i * 32);
  }
  return finalizeMedium(acc, len);
}

function hash129to240(input: Uint8Array): Hash128 {
  const len = input.length;
  const acc = [u64(BigInt(len) * PRIME64_1), 0n];
  const numChunks = len >> 5;
  for (let i = 0; i < 4; i++) mixTwoChunks(acc, input, i * 32, i * 32 + 16, i * 32);
  acc[0] = avalanche(acc[0]!);
  acc[1] = avalanche(acc[1]!);
  for (let i = 4; i < numChunks; i++) mixTwoChunks(acc, input, i * 32, i * 32 + 16, (i - 4) * 32 + 3);
  // The last 32 bytes, halves swapped (and the seed negated, which is 0 here).
  mixTwoChunks(acc, input, len - 16, len - 32, 103);
  return finalizeMedium(acc, len);
}

/** One 64-byte stripe at input[offset] into the 8 large-input accumulators. */
function accumulate(acc: bigint[], input: Uint8Array, offset: number, secretOffset: number): void {
  for (let i = 0; i < 8; i++) {
    const lane = read64(input, offset + i * 8);
    const value = lane ^ secret64(secretOffset + i * 8);
    acc[i ^ 1] = u64(acc[i ^ 1]! + lane);
    acc[i] = u64(acc[i]! + lower32(value) * higher32(value));
  }
}

function scramble(acc: bigint[]): void {
  for (let i = 0; i < 8; i++) {
    let a = acc[i]!;
    a ^= a >> 47n;
    a ^= secret64(SECRET_LENGTH - 64 + i * 8);
    acc[i] = u64(a * PRIME32_1);
  }
}

function finalMerge(acc: bigint[], initValue: bigint, secretOffset: number): bigint {
  let result = initValue;
  for (let i = 0; i < 4; i++) {
    const mulResult = (acc[i * 2]! ^ secret64(secretOffset + i * 16)) * (acc[i * 2 + 1]! ^ secret64(secretOffset + i * 16 + 8));
    result = u64(result + (lowerHalf(mulResult) ^ higherHalf(mulResult)));
  }
  return avalanche(result);
}

function hashLarge(input: Uint8Array): Hash128 {
  const len = input.length;
  const acc = [PRIME32_3, PRIME64_1, PRIME64_2, PRIME64_3, PRIME64_4, PRIME32_2, PRIME64_5, PRIME32_1];
  // Full blocks, leaving the last block (1..BLOCK_LEN bytes, possibly full) for the last round.
  const fullBlocks = Math.floor((len - 1) / BLOCK_LEN);
  for (let b = 0; b < fullBlocks; b++) {
    for (let n = 0; n < STRIPES_PER_BLOCK; n++) accumulate(acc, input, b * BLOCK_LEN + n * STRIPE_LEN, n * 8);
    scramble(acc);
  }
  const lastBlock = fullBlocks * BLOCK_LEN;
  const lastStripes = Math.floor((len - lastBlock - 1) / STRIPE_LEN);
  for (let n = 0; n < lastStripes; n++) accumulate(acc, input, lastBlock + n * STRIPE_LEN, n * 8);
  // The input's last 64 bytes (they may overlap stripes already taken).
  accumulate(acc, input, len - STRIPE_LEN, SECRET_LENGTH - 71);
  return {
    low: finalMerge(acc, u64(BigInt(len) * PRIME64_1), 11),
    high: finalMerge(acc, u64(~(BigInt(len) * PRIME64_2)), SECRET_LENGTH - 75),
  };
}

function xxh3_128(input: Uint8Array): Hash128 {
  const len = input.length;
  if (len === 0) return hashEmpty();
  if (len <= 3) return hash1to3(input);
  if (len <= 8) return hash4to8(input);
  if (len <= 16) return hash9to16(input);
  if (len <= 128) return hash17to128(input);
  if (len <= 240) return hash129to240(input);
  return hashLarge(input);
}

/** xxh3-128 of buf[start, end) as 32 lowercase hex digits, high 64 bits first (as native xxh3_128). */
export function xxh3_128Oracle(buf: Uint8Array, start = 0, end = buf.length): string {
  const { low, high } = xxh3_128(buf.subarray(start, end));
  return high.toString(16).padStart(16, "0") + low.toString(16).padStart(16, "0");
}
