/** What several pages share: paths, money, pictures, prices, share links and the layout. */
import { type Html, html, jsonForScript, raw } from '../html'
import { formatMoney } from '../i18n'
import { ASSETS } from '../assets'
import type { PageCtx, ViewImage, ViewProduct, ViewStore } from './types'

export const storePath = (s: { slug: string }) => `/s/${encodeURIComponent(s.slug)}`
export const productPath = (s: { slug: string }, p: { slug: string }) =>
  `${storePath(s)}/p/${encodeURIComponent(p.slug)}`
export const money = (c: PageCtx, amount: number, currency: string) => formatMoney(amount, currency, c.words.locale)

export const isAvailable = (p: ViewProduct): boolean =>
  p.inStock !== false && (p.variants.length === 0 || p.variants.some((v) => v.inStock !== false))

/** First line-ish of a text, for meta descriptions (≤ 160 characters). */
export function summary(text: string | null | undefined, fallback: string): string {
  const t = (text ?? '').replace(/\s+/g, ' ').trim() || fallback
  return t.length > 160 ? `${t.slice(0, 157).trimEnd()}…` : t
}

/**
 * Only pictures served by this origin are shown (contract: no request leaves the service's
 * origin): a relative `/media/...` path, or an absolute URL on our own origin. Only a path of one
 * leading slash is kept: `https://us//evil.example/x.png` resolves on our origin, yet its path
 * alone, `//evil.example/x.png`, is a scheme-relative URL to another host.
 */
export function sameOrigin(url: string | null | undefined, origin: string): string | undefined {
  if (!url || !(url.startsWith('/') || url.startsWith(`${origin}/`))) return undefined
  // Resolved as a browser would (the WHATWG URL parser): `/\host`, `/\t/host` and the like
  // start with one slash yet leave the origin. What is kept is the resolved path, never the raw text.
  let u: URL
  try {
    u = new URL(url, `${origin}/`)
  } catch {
    return undefined
  }
  return u.origin === origin && !u.pathname.startsWith('//') ? u.pathname + u.search : undefined
}

export function pictureOf(p: ViewProduct, origin: string): ViewImage | undefined {
  const [first] = picturesOf(p, origin)
  if (first) return first
  const url = sameOrigin(p.imageUrl, origin)
  return url ? { url } : undefined
}

/** Every uploaded picture served from this origin, in the seller's order. */
export function picturesOf(p: ViewProduct, origin: string): ViewImage[] {
  return (p.images ?? []).flatMap((img) => {
    const url = sameOrigin(img.url, origin)
    return url
      ? [
          {
            ...img,
            url,
            sizes: img.sizes?.flatMap((s) =>
              sameOrigin(s.url, origin) ? [{ url: sameOrigin(s.url, origin)!, width: s.width }] : [],
            ),
          },
        ]
      : []
  })
}

/** ` width="…" height="…"` when the picture's size is known (the page keeps its place while it loads). */
const sizeOf = (pic: ViewImage) => (pic.width && pic.height ? html` width="${pic.width}" height="${pic.height}"` : '')

/** A picture after the first (lazy, small): the product page's gallery. */
export function galleryImg(pic: ViewImage, alt: string): Html {
  const srcset = pic.sizes?.length ? pic.sizes.map((s) => `${s.url} ${s.width}w`).join(', ') : undefined
  const sources = srcset ? html` srcset="${srcset}" sizes="(min-width: 48rem) 8rem, 30vw"` : ''
  const src = pic.sizes?.[0]?.url ?? pic.url
  return html`<img src="${src}"${sources}${sizeOf(pic)} alt="${alt}" loading="lazy" decoding="async">`
}

/** `alt` is empty on cards: the product name follows inside the same link, so it would be read twice. */
export function img(p: ViewProduct, c: PageCtx, sizesAttr: string, eager: boolean, alt = p.name): Html | undefined {
  const pic = pictureOf(p, c.origin)
  if (!pic) return undefined
  const srcset = pic.sizes?.length ? pic.sizes.map((s) => `${s.url} ${s.width}w`).join(', ') : undefined
  const sources = srcset ? html` srcset="${srcset}" sizes="${sizesAttr}"` : ''
  const loading = eager ? raw(' fetchpriority="high"') : raw(' loading="lazy"')
  return html`<img src="${pic.url}"${sources}${sizeOf(pic)} alt="${alt}"${loading} decoding="async">`
}

/** "$12.00", or "From $10.00" when variants differ in price; compare-at price struck through. */
export function priceOf(p: ViewProduct, currency: string, c: PageCtx): Html {
  const prices = p.variants.length ? p.variants.map((v) => v.price) : [p.price]
  const min = Math.min(...prices)
  const from = prices.some((x) => x !== min)
  const was = p.comparePrice !== null && p.comparePrice > min
  const regular = html`<span class="vh">${c.words.regularPrice}: </span>`
  const wasPart = was ? html` <span class="was">${regular}<s>${money(c, p.comparePrice!, currency)}</s></span>` : ''
  return html`<p class="price">${from ? `${c.words.from} ` : ''}<span>${money(c, min, currency)}</span>${wasPart}</p>`
}

/** The price as one line of text ("$12.00", "From $10.00"), for a shared message. */
export function priceText(p: ViewProduct, currency: string, c: PageCtx): string {
  const prices = p.variants.length ? p.variants.map((v) => v.price) : [p.price]
  const min = Math.min(...prices)
  return `${prices.some((x) => x !== min) ? `${c.words.from} ` : ''}${money(c, min, currency)}`
}

/**
 * "Share on WhatsApp": `wa.me` with no number lets the person pick a chat; the text is lines of
 * what is shared (name, price, absolute URL on PUBLIC_URL or the request's origin), not a sentence.
 */
export function shareLink(lines: string[], c: PageCtx): Html {
  const href = `https://wa.me/?text=${encodeURIComponent(lines.join('\n'))}`
  return html`<a class="share" href="${href}" rel="noopener">${c.words.shareWhatsapp}</a>`
}

export function whatsappLink(store: ViewStore, c: PageCtx): Html | undefined {
  if (!store.whatsappNumber) return undefined
  const href = `https://wa.me/${store.whatsappNumber.replace(/\D/g, '')}`
  return html`<a class="wa" href="${href}" rel="noopener">${c.words.contactWhatsapp}</a>`
}

export interface LayoutOpts {
  title: string
  description: string
  path: string
  store?: ViewStore
  /** Product pages are og:type product. */
  ogType?: 'website' | 'product'
  image?: string
  jsonLd?: unknown
  /** The cart page: a JSON block for the script; not for search engines. */
  data?: unknown
  noindex?: boolean
  script?: boolean
  main: Html
}

export function layout(c: PageCtx, o: LayoutOpts): Html {
  const url = c.origin + o.path
  const { words } = c
  return html`<!doctype html>
<html lang="${c.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${o.title}</title>
<meta name="description" content="${o.description}">
${o.noindex ? raw('<meta name="robots" content="noindex">') : html`<link rel="canonical" href="${url}">`}
<meta property="og:type" content="${o.ogType ?? 'website'}">
<meta property="og:title" content="${o.title}">
<meta property="og:description" content="${o.description}">
<meta property="og:url" content="${url}">
${o.store ? html`<meta property="og:site_name" content="${o.store.name}">` : ''}
${o.image ? html`<meta property="og:image" content="${c.origin + o.image}">` : ''}
<meta name="theme-color" content="#0b5d4b">
<link rel="icon" href="${ASSETS['icon.svg'].url}" type="image/svg+xml">
<link rel="stylesheet" href="${ASSETS['shop.css'].url}">
${o.script ? html`<script src="${ASSETS['shop.js'].url}" defer></script>` : ''}
${o.jsonLd ? html`<script type="application/ld+json">${jsonForScript(o.jsonLd)}</script>` : ''}
</head>
<body>
<a class="skip" href="#main">${words.skip}</a>
<header class="top">
${
  o.store
    ? html`<a class="brand" href="${storePath(o.store)}">${o.store.name}</a>
<a class="cart-link" href="${storePath(o.store)}/cart">${words.cart} <span class="count" data-cart-count></span></a>`
    : html`<span class="brand">${words.storesTitle}</span>`
}
</header>
<main id="main" tabindex="-1">
${o.main}
</main>
${o.data ? html`<script type="application/json" id="shop-data">${jsonForScript(o.data)}</script>` : ''}
</body>
</html>
`
}
