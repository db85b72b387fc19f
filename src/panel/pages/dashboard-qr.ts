/**
 * The "share your store" step's QR code: the store's link drawn on the server as SVG by
 * `uqr` (no script, no image request: the CSP is self-only and inline SVG markup is not script).
 * It gets an accessible name (role="img" + <title>) and a fixed size in attributes (the CSP allows
 * no inline style). uqr's markup holds only numbers and the two colours it is given, never the URL
 * itself; the title is escaped by `html`.
 */
import { renderSVG } from 'uqr'
import { html, raw, type Html } from '../../shop/html'

/** The code's own markup for `url` (what the page embeds, exported for its test). */
export const qrSvgOf = (url: string): string => renderSVG(url, { border: 2, pixelSize: 4 })

/** One cached drawing per link: a store's link rarely changes and encoding costs ~1 ms. */
const drawn = new Map<string, string>()

export function storeQr(url: string, label: string): Html {
  let svg = drawn.get(url)
  if (svg === undefined) {
    if (drawn.size > 1000) drawn.clear()
    drawn.set(url, (svg = qrSvgOf(url)))
  }
  const open = svg.indexOf('>') + 1
  return html`${raw(svg.slice(0, open - 1))} class="qr" width="160" height="160" role="img" aria-labelledby="qr-title"><title id="qr-title">${label}</title>${raw(svg.slice(open))}`
}
