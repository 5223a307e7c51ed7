import { describe, expect, test } from "bun:test";
import { crc32, inflateSync } from "node:zlib";
import { ARC_RGB } from "../../src/game/render.ts";
import { encodePng, gridPng } from "../../src/view/png.ts";

/** A minimal PNG reader for what encodePng writes: checks signature, chunk CRCs, IHDR; returns the RGB rows. */
function decodePng(png: Uint8Array) {
  const b = Buffer.from(png);
  expect([...b.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  let at = 8;
  const chunks: Array<{ type: string; data: Buffer }> = [];
  while (at < b.length) {
    const len = b.readUInt32BE(at);
    const type = b.toString("latin1", at + 4, at + 8);
    const data = b.subarray(at + 8, at + 8 + len);
    expect(b.readUInt32BE(at + 8 + len)).toBe(crc32(b.subarray(at + 4, at + 8 + len)));
    chunks.push({ type, data });
    at += 12 + len;
  }
  expect(chunks.map((c) => c.type)).toEqual(["IHDR", "IDAT", "IEND"]);
  const ihdr = chunks[0]!.data;
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  expect([ihdr[8], ihdr[9], ihdr[10], ihdr[11], ihdr[12]]).toEqual([8, 2, 0, 0, 0]);
  const raw = inflateSync(chunks[1]!.data);
  expect(raw.length).toBe((width * 3 + 1) * height);
  const pixel = (x: number, y: number) => {
    const row = y * (width * 3 + 1);
    expect(raw[row]).toBe(0);
    const o = row + 1 + x * 3;
    return [raw[o], raw[o + 1], raw[o + 2]];
  };
  return { width, height, pixel };
}

describe("PNG", () => {
  test("encodePng round-trips through an independent reader", () => {
    const rgb = new Uint8Array(3 * 2 * 3);
    rgb.set([255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
    const png = decodePng(encodePng(3, 2, rgb));
    expect([png.width, png.height]).toEqual([3, 2]);
    expect(png.pixel(0, 0)).toEqual([255, 0, 0]);
    expect(png.pixel(2, 0)).toEqual([0, 0, 255]);
    expect(png.pixel(2, 1)).toEqual([70, 80, 90]);
  });

  test("gridPng paints every cell in the ARC palette at the scale", () => {
    const cells = Uint8Array.from({ length: 16 * 3 }, (_, i) => i % 16);
    const png = decodePng(gridPng({ width: 16, height: 3, cells }, 4));
    expect([png.width, png.height]).toEqual([64, 12]);
    for (let y = 0; y < 3; y++) {
      for (let x = 0; x < 16; x++) {
        const want = [...ARC_RGB[cells[y * 16 + x]!]!];
        expect(png.pixel(x * 4, y * 4)).toEqual(want);
        expect(png.pixel(x * 4 + 3, y * 4 + 3)).toEqual(want);
      }
    }
  });

  test("a wrong buffer size is a bug, thrown", () => {
    expect(() => encodePng(2, 2, new Uint8Array(5))).toThrow(RangeError);
  });
});
