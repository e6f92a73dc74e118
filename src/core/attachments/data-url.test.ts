import { describe, expect, it } from "vitest";
import { decodeDataUrl } from "./data-url";

describe("decodeDataUrl", () => {
  it("decodes a base64 image with its declared type", () => {
    const got = decodeDataUrl("data:image/png;base64,iVBORw0KGgo=");
    expect(got?.mimeType).toBe("image/png");
    expect([...(got?.bytes ?? [])]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  });

  it("decodes percent-encoded text, and base64 broken over lines", () => {
    const svg = decodeDataUrl("data:image/svg+xml;charset=utf-8,%3Csvg%3E%3C%2Fsvg%3E");
    expect(svg?.mimeType).toBe("image/svg+xml");
    expect(new TextDecoder().decode(svg?.bytes)).toBe("<svg></svg>");
    expect(new TextDecoder().decode(decodeDataUrl("data:;base64,aGVs\nbG8=")?.bytes)).toBe("hello");
    expect(decodeDataUrl("data:,hi")?.mimeType).toBe("text/plain");
  });

  it("is undefined for another scheme or data that does not decode", () => {
    expect(decodeDataUrl("https://example.com/a.png")).toBeUndefined();
    expect(decodeDataUrl("data:image/png;base64,@@@")).toBeUndefined();
    expect(decodeDataUrl("data:image/png;base64")).toBeUndefined();
  });
});
