import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { utf8Length } from "./utf8-length";

const encoded = (text: string) => new TextEncoder().encode(text).length;

describe("utf8Length", () => {
  it("counts 1 to 4 bytes a character, a lone surrogate as U+FFFD", () => {
    expect(utf8Length("")).toBe(0);
    expect(utf8Length("abc")).toBe(3);
    expect(utf8Length("é")).toBe(2);
    expect(utf8Length("漢")).toBe(3);
    expect(utf8Length("😀")).toBe(4);
    expect(utf8Length("\ud800")).toBe(3);
    expect(utf8Length("\udc00a")).toBe(4);
    expect(utf8Length("\ud800\ud800\udc00")).toBe(7);
  });

  it("agrees with TextEncoder on any string, surrogates included", () => {
    const unit = fc.oneof(
      fc.integer({ min: 0, max: 0x7f }),
      fc.integer({ min: 0x80, max: 0x7ff }),
      fc.integer({ min: 0x800, max: 0xffff }),
      fc.integer({ min: 0xd800, max: 0xdfff }),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 40 }), (units) => {
        const text = String.fromCharCode(...units);
        expect(utf8Length(text)).toBe(encoded(text));
      }),
    );
  });
});
