/**
 * Image bytes for the upload tests (the API's, tests/products/images.test.ts, and the panel's,
 * tests/panel/pictures.test.ts): real pictures made by sharp, and the decompression bomb.
 */
import sharp from 'sharp'

export const solid = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 20 } } })
export const jpeg = (w = 800, h = 600) => solid(w, h).jpeg().toBuffer()
export const png = (w = 300, h = 200) => solid(w, h).png().toBuffer()
/** Noise does not compress: a PNG of a predictable, large size. */
export const noisyPng = (w: number, h: number) =>
  sharp({
    create: {
      width: w,
      height: h,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .png()
    .toBuffer()

/**
 * A few hundred bytes of PNG whose header declares 30,000 × 30,000 (900 MP): IHDR's width, height and CRC rewritten.
 */
export async function bombPng(): Promise<Buffer> {
  const bomb = Buffer.from(await png(1, 1))
  bomb.writeUInt32BE(30_000, 16)
  bomb.writeUInt32BE(30_000, 20)
  bomb.writeUInt32BE(Bun.hash.crc32(bomb.subarray(12, 29)) >>> 0, 29)
  return bomb
}
