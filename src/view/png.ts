// PNG encoding without an image library: 8-bit RGB, no interlace, every row with filter 0, compressed with
// node:zlib (a PNG's IDAT is a zlib stream) and checksummed with zlib's crc32 — the whole format we need.
import { crc32, deflateSync } from "node:zlib";
import { ARC_RGB } from "../game/render.ts";
import type { Grid } from "../game-model.ts";

const SIGNATURE = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "latin1");
  out.set(data, 8);
  // The CRC covers the type and the data, not the length.
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A PNG of `rgb` (width * height * 3 bytes, row-major). */
export function encodePng(width: number, height: number, rgb: Uint8Array): Uint8Array {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || rgb.length !== width * height * 3) {
    throw new RangeError(`encodePng: ${width}x${height} needs ${width * height * 3} RGB bytes, got ${rgb.length}`);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour
  const stride = width * 3;
  const raw = new Uint8Array((stride + 1) * height);
  for (let y = 0; y < height; y++) raw.set(rgb.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  return Buffer.concat([
    SIGNATURE,
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", new Uint8Array(0)),
  ]);
}

/**
 * The most pixels a board's PNG may have (4096 x 4096: ARC's largest board, 64 x 64, at --scale 64). A log is
 * input: a forged 3000 x 3000 board at scale 8 would otherwise need gigabytes.
 */
export const MAX_PNG_PIXELS = 4096 * 4096;

/** Why a board cannot be drawn at `scale` (too many pixels), or null. */
export function pngTooLarge(grid: Grid, scale: number): string | null {
  const pixels = grid.width * scale * grid.height * scale;
  if (pixels <= MAX_PNG_PIXELS) return null;
  return `the board is ${grid.width}x${grid.height} cells: at --scale ${scale} its PNG would have ${pixels} pixels, more than the ${MAX_PNG_PIXELS} prolong draws`;
}

/** A board as a PNG, each cell `scale` x `scale` pixels in the ARC palette (pngTooLarge first: callers check). */
export function gridPng(grid: Grid, scale: number): Uint8Array {
  const big = pngTooLarge(grid, scale);
  if (big !== null) throw new RangeError(`gridPng: ${big}`);
  const w = grid.width * scale;
  const h = grid.height * scale;
  const rgb = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) {
    const row = Math.floor(y / scale) * grid.width;
    for (let x = 0; x < w; x++) {
      const c = ARC_RGB[grid.cells[row + Math.floor(x / scale)] ?? 5] ?? ARC_RGB[5]!;
      const o = (y * w + x) * 3;
      rgb[o] = c[0];
      rgb[o + 1] = c[1];
      rgb[o + 2] = c[2];
    }
  }
  return encodePng(w, h, rgb);
}
