import { describe, expect, it } from "vitest";
import { inlineTypeOf, sniffMimeType } from "./sniff";

const bytes = (s: string) => new TextEncoder().encode(s);

describe("sniffing a file's type from its bytes", () => {
  it("knows PNG, JPEG, GIF, WebP and PDF by their magic numbers", () => {
    expect(sniffMimeType(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 13, 10]))).toBe("image/png");
    expect(sniffMimeType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
    expect(sniffMimeType(bytes("GIF89a"))).toBe("image/gif");
    expect(sniffMimeType(bytes("RIFF\0\0\0\0WEBPVP8 "))).toBe("image/webp");
    expect(sniffMimeType(bytes("%PDF-1.7"))).toBe("application/pdf");
  });

  it("an object URL is a raster image or a download: HTML, SVG and PDF never render at Grove's origin", () => {
    expect(inlineTypeOf(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toBe("image/png");
    expect(inlineTypeOf(bytes("<html><script>alert(1)</script>"))).toBe("application/octet-stream");
    expect(inlineTypeOf(bytes('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'))).toBe(
      "application/octet-stream",
    );
    expect(inlineTypeOf(bytes("%PDF-1.7"))).toBe("application/octet-stream");
    expect(inlineTypeOf(new Uint8Array())).toBe("application/octet-stream");
  });
});
