/**
 * Pictures for the demo store's products, drawn here rather than fetched: the storefront only
 * shows pictures from its own origin (CSP `img-src 'self'`), and the demo must work offline. Each
 * product gets a flat illustration (a bag, a tin, a cup, a pot) on a soft gradient, with the
 * product's initial on the label, rendered by sharp from SVG to PNG and then uploaded through
 * the images service like any upload (so `/media/...` URLs, renditions, `srcset`, sizes).
 *
 * 640 × 640 keeps the demo quick (two renditions, 320 and 640, a few tens of ms each) and is
 * enough for a phone's card and product page.
 */
import { vips } from '../lib/vips'

export type Motif = 'bag' | 'tin' | 'dripper' | 'teapot'

export const PICTURE_SIZE = 640

/** Background (light → dark) and the motif's colour, per product: pleasant, never garish. */
const PALETTES: [string, string, string][] = [
  ['#f6e7d4', '#e3bf93', '#7a4a26'],
  ['#f3e3e8', '#dcaab8', '#8a3b55'],
  ['#e4f0e2', '#a9cfa3', '#2f6b3a'],
  ['#e2eef3', '#9fc5d6', '#245a73'],
  ['#f1ecdc', '#d6c58f', '#6b5a1f'],
  ['#ece6f3', '#bba9d6', '#4d3a78'],
  ['#f4e4dc', '#e0a98f', '#8c3f22'],
]

/** Only what an SVG text node needs escaped; the initial is one letter of our own product names. */
const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)

function motifSvg(motif: Motif, ink: string, initial: string): string {
  const label = (x: number, y: number, size: number) =>
    `<text x="${x}" y="${y}" font-family="DejaVu Sans, Arial, sans-serif" font-weight="700" ` +
    `font-size="${size}" text-anchor="middle" fill="${ink}">${esc(initial)}</text>`
  switch (motif) {
    case 'bag':
      // A coffee bag: folded top, a label, a bean.
      return `<path d="M200 170 L440 170 L470 520 Q470 540 450 540 L190 540 Q170 540 170 520 Z" fill="${ink}"/>
<rect x="200" y="150" width="240" height="40" rx="8" fill="${ink}" opacity=".85"/>
<rect x="230" y="270" width="180" height="180" rx="20" fill="#fff" opacity=".92"/>
${label(320, 400, 120)}
<ellipse cx="320" cy="492" rx="30" ry="20" fill="#fff" opacity=".85"/>
<path d="M292 492 q28 -10 56 0" fill="none" stroke="${ink}" stroke-width="5"/>`
    case 'tin':
      // A tea tin with a lid and a leaf.
      return `<rect x="200" y="200" width="240" height="330" rx="24" fill="${ink}"/>
<rect x="185" y="170" width="270" height="56" rx="16" fill="${ink}" opacity=".8"/>
<rect x="230" y="290" width="180" height="170" rx="20" fill="#fff" opacity=".92"/>
${label(320, 415, 110)}
<path d="M330 140 C 380 90, 440 110, 450 120 C 430 170, 370 175, 330 140 Z" fill="${ink}" opacity=".7"/>`
    case 'dripper':
      // A pour-over dripper on a cup.
      return `<path d="M180 200 L460 200 L380 350 L260 350 Z" fill="${ink}"/>
<rect x="240" y="350" width="160" height="24" rx="8" fill="${ink}" opacity=".8"/>
<rect x="220" y="380" width="200" height="160" rx="28" fill="#fff" opacity=".92"/>
<path d="M420 420 q50 0 50 40 q0 40 -50 40" fill="none" stroke="#fff" stroke-width="18" opacity=".92"/>
${label(320, 495, 90)}`
    case 'teapot':
      // A round teapot with a spout and a handle.
      return `<ellipse cx="320" cy="390" rx="150" ry="130" fill="${ink}"/>
<rect x="280" y="232" width="80" height="30" rx="10" fill="${ink}" opacity=".8"/>
<circle cx="320" cy="222" r="16" fill="${ink}"/>
<path d="M175 360 L110 300 L125 290 L195 330 Z" fill="${ink}"/>
<path d="M465 340 q70 10 60 70 q-10 50 -70 50" fill="none" stroke="${ink}" stroke-width="22"/>
<circle cx="320" cy="395" r="72" fill="#fff" opacity=".92"/>
${label(320, 432, 100)}`
  }
}

/** The picture's SVG (exported for the test that checks it stays within the origin's rules). */
export function pictureSvg(name: string, motif: Motif, index: number): string {
  const [light, dark, ink] = PALETTES[index % PALETTES.length]!
  const initial = (name.trim()[0] ?? '?').toUpperCase()
  const s = PICTURE_SIZE
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${s}" height="${s}" viewBox="0 0 640 640">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
<stop offset="0" stop-color="${light}"/><stop offset="1" stop-color="${dark}"/>
</linearGradient></defs>
<rect width="640" height="640" fill="url(#g)"/>
<ellipse cx="320" cy="560" rx="210" ry="26" fill="#000" opacity=".08"/>
${motifSvg(motif, ink, initial)}
</svg>`
}

/** A PNG of the product's picture: what a seller would upload. */
export async function picturePng(name: string, motif: Motif, index: number): Promise<Uint8Array> {
  // sharp only when a picture is missing: a demo run over pictures it made before never loads libvips.
  const sharp = await vips()
  return new Uint8Array(
    await sharp(Buffer.from(pictureSvg(name, motif, index)))
      .png({ compressionLevel: 1 })
      .toBuffer(),
  )
}
