/**
 * QR codes drawn on the server as SVG by `uqr` (no script, no image request: the CSP is self-only
 * and inline SVG markup is not script): the dashboard's "share your store" link and the two-step
 * setup's `otpauth:` URI. Each gets an accessible name (role="img" + <title>) and a fixed size in
 * attributes (the CSP allows no inline style). uqr's markup holds only numbers and the two colours
 * it is given, never the encoded text itself; the title is escaped by `html`.
 */
import { renderSVG } from 'uqr'
import { html, raw, type Html } from '../../shop/html'

/** The code's own markup for `text` (what the page embeds, exported for its test). */
export const qrSvgOf = (text: string): string => renderSVG(text, { border: 2, pixelSize: 4 })

/** One cached drawing per store link: a link rarely changes and encoding costs ~1 ms. */
const drawn = new Map<string, string>()

function drawing(text: string, cache: boolean): string {
  if (!cache) return qrSvgOf(text)
  let svg = drawn.get(text)
  if (svg === undefined) {
    if (drawn.size > 1000) drawn.clear()
    drawn.set(text, (svg = qrSvgOf(text)))
  }
  return svg
}

/** The QR code of `text` named `label`; `id` names its title. A secret (an otpauth: URI) is never cached. */
export function qrCode(text: string, label: string, o: { id: string; cache: boolean }): Html {
  const svg = drawing(text, o.cache)
  const open = svg.indexOf('>') + 1
  const attrs = html` class="qr" width="160" height="160" role="img" aria-labelledby="${o.id}"`
  return html`${raw(svg.slice(0, open - 1))}${attrs}><title id="${o.id}">${label}</title>${raw(svg.slice(open))}`
}

export const storeQr = (url: string, label: string) => qrCode(url, label, { id: 'qr-title', cache: true })
