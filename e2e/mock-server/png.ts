/**
 * A small real PNG the mock's code execution "draws": a bar chart (white ground, axes, four bars),
 * encoded here with Node's zlib (no image library). Its bytes are the same on every run, so the specs
 * can compare what Grove stored with what the mock served. No I/O.
 */
import { deflateSync } from "node:zlib";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([head, body, crc]);
}

/** An RGB PNG of `width` × `height` whose pixel colours `paint(x, y)` gives. */
export function encodePng(
  width: number,
  height: number,
  paint: (x: number, y: number) => [number, number, number],
): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) raw.set(paint(x, y), row + 1 + x * 3);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, no filter method, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

export const CHART_WIDTH = 240;
export const CHART_HEIGHT = 150;

const BARS = [0.35, 0.6, 0.85, 0.5];
const BAR_COLOUR: [number, number, number] = [46, 112, 196];
const AXIS: [number, number, number] = [40, 40, 40];
const WHITE: [number, number, number] = [255, 255, 255];

/** The bar chart's PNG bytes. */
export const CHART_PNG: Buffer = encodePng(CHART_WIDTH, CHART_HEIGHT, (x, y) => {
  const left = 20;
  const bottom = CHART_HEIGHT - 16;
  if ((x === left && y <= bottom && y >= 8) || (y === bottom && x >= left && x < CHART_WIDTH - 8)) return AXIS;
  const slot = Math.floor((x - left - 10) / 50);
  const inBar = x > left + 10 && (x - left - 10) % 50 < 34 && slot >= 0 && slot < BARS.length;
  const top = bottom - Math.round((BARS[slot] ?? 0) * (bottom - 12));
  return inBar && y < bottom && y >= top ? BAR_COLOUR : WHITE;
});

/** An SVG with a script: what a hostile image output could be (Grove must offer it as a download only). */
export const HOSTILE_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>';
