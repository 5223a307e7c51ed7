// LogSectionStream (a log parsed one section at a time from its bytes) against parseLog of the whole decoded
// text: the same sections and the same cut, on generated, cut, CRLF, hostile and published logs.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { generateLog } from "../../src/bench/gen-log.ts";
import { parseLog } from "../../src/log/format.ts";
import { LogSectionStream } from "../../src/log/stream.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const SEP = "=".repeat(80);

function expectSameAsParseLog(bytes: Uint8Array): LogSectionStream {
  const whole = parseLog(new TextDecoder("utf-8").decode(bytes));
  const stream = new LogSectionStream(bytes);
  expect([...stream]).toEqual(whole.sections);
  expect(stream.parsed).toBe(whole.sections.length);
  expect(stream.cut).toEqual(whole.cut);
  return stream;
}

describe("LogSectionStream = parseLog", () => {
  const shapes = {
    plain: generateLog({ sections: 40, seed: 11 }),
    adversarial: generateLog({ sections: 40, seed: 12, adversarial: true }),
    crlf: generateLog({ sections: 30, seed: 13, crlf: true }),
    hex: generateLog({ sections: 30, seed: 14, mode: "hex" }),
    noFinalNewline: generateLog({ sections: 30, seed: 15, finalNewline: false }),
  };
  for (const [name, text] of Object.entries(shapes)) {
    test(`${name}: whole and cut at 17 points`, () => {
      const bytes = enc(text);
      expect(expectSameAsParseLog(bytes).parsed).toBeGreaterThanOrEqual(30);
      for (let k = 1; k <= 17; k++) expectSameAsParseLog(bytes.subarray(0, Math.floor((bytes.length * k) / 18)));
    });
  }

  test("a cut log names the section it stopped in", () => {
    const bytes = enc(shapes.plain);
    const stream = expectSameAsParseLog(bytes.subarray(0, bytes.length - 64 * 10));
    expect(stream.cut?.index).toBe(stream.parsed);
    expect(stream.parsed).toBeLessThan(stream.count);
  });

  const edge: Record<string, Uint8Array> = {
    empty: enc(""),
    "whitespace only": enc("  \n\n"),
    "not a log": enc("hello\nworld\n"),
    "text before the first separator": enc(`preamble\n${shapes.plain}`),
    "blank lines and a byte-order mark before it": new Uint8Array([0xef, 0xbb, 0xbf, ...enc(`\n \n${shapes.plain}`)]),
    "a lone separator": enc(`${SEP}\n`),
    "ill-formed UTF-8 in a plan": (() => {
      const at = shapes.plain.indexOf("[PLAN]\n") + 7;
      const b = enc(shapes.plain);
      return new Uint8Array([...b.subarray(0, at), 0xff, 0xe2, 0x9c, ...b.subarray(at)]);
    })(),
  };
  for (const [name, bytes] of Object.entries(edge)) test(`${name}`, () => void expectSameAsParseLog(bytes));

  const fixtures = path.resolve(import.meta.dir, "../../..", "shared", "fixtures", "prolong-release");
  test.skipIf(!existsSync(fixtures))("the published logs (skipped when ../shared/fixtures is absent)", () => {
    for (const game of ["ft09", "lp85", "m0r0", "cn04"]) {
      expect(expectSameAsParseLog(readFileSync(path.join(fixtures, game, "logs.txt"))).cut).toBeUndefined();
    }
  });
});
