/**
 * The shop's pages as functions of what the services return (storefrontOf, listDirectory):
 * no query and no catalog rule here. Every piece of store text goes through `html` (escaped).
 *
 * `inStock` and `images` are optional on purpose: the inventory/images work adds them to the
 * public read. Absent `inStock` means available; absent `images` falls back to `imageUrl`.
 */
import { html, jsonForScript, raw, type Html } from './html'
import { formatMoney, type Words } from './i18n'
import { ASSETS } from './assets'
import { NO_REVIEWS_PAGE, reviewForm, reviewScriptData, reviewsJsonLd, reviewsSection, type ReviewOutcome, type ReviewsPage } from './review-views'

export interface ViewImage {
  url: string
  width?: number | null
  height?: number | null
  /** The same picture at other widths (e.g. 320/640/1280 WebP), for `srcset`. */
  sizes?: { url: string; width: number }[]
}
export interface ViewVariant {
  id: string
  name: string
  price: number
  inStock?: boolean
}
export interface ViewProduct {
  id: string
  name: string
  slug: string
  description: string | null
  price: number
  comparePrice: number | null
  imageUrl: string | null
  categoryId: string | null
  variants: ViewVariant[]
  reviewCount: number
  averageRating: number | null
  inStock?: boolean
  images?: ViewImage[]
}
export interface ViewStore {
  id: string
  name: string
  slug: string
  description: string | null
  currency: string
  whatsappNumber: string | null
}
export interface ViewCatalog {
  store: ViewStore
  categories: { id: string; name: string; slug: string }[]
  products: ViewProduct[]
  shippingOptions: { id: string; name: string; price: number; description: string | null; estimatedDays: number | null }[]
}

/** What every page needs besides its data: words, the absolute origin for links and tags. */
export interface PageCtx {
  words: Words
  language: string
  origin: string
}

const storePath = (s: { slug: string }) => `/s/${encodeURIComponent(s.slug)}`
const productPath = (s: { slug: string }, p: { slug: string }) => `${storePath(s)}/p/${encodeURIComponent(p.slug)}`
const money = (c: PageCtx, amount: number, currency: string) => formatMoney(amount, currency, c.words.locale)

export const isAvailable = (p: ViewProduct): boolean =>
  p.inStock !== false && (p.variants.length === 0 || p.variants.some((v) => v.inStock !== false))

/** First line-ish of a text, for meta descriptions (≤ 160 characters). */
function summary(text: string | null | undefined, fallback: string): string {
  const t = (text ?? '').replace(/\s+/g, ' ').trim() || fallback
  return t.length > 160 ? `${t.slice(0, 157).trimEnd()}…` : t
}

/**
 * Only pictures served by this origin are shown (contract: no request leaves the service's
 * origin): a relative `/media/...` path, or an absolute URL on our own origin.
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
  return u.origin === origin ? u.pathname + u.search : undefined
}

export function pictureOf(p: ViewProduct, origin: string): ViewImage | undefined {
  for (const img of p.images ?? []) {
    const url = sameOrigin(img.url, origin)
    if (url) return { ...img, url, sizes: img.sizes?.flatMap((s) => (sameOrigin(s.url, origin) ? [{ url: sameOrigin(s.url, origin)!, width: s.width }] : [])) }
  }
  const url = sameOrigin(p.imageUrl, origin)
  return url ? { url } : undefined
}

/** `alt` is empty on cards: the product name follows inside the same link, so it would be read twice. */
function img(p: ViewProduct, c: PageCtx, sizesAttr: string, eager: boolean, alt = p.name): Html | undefined {
  const pic = pictureOf(p, c.origin)
  if (!pic) return undefined
  const srcset = pic.sizes?.length ? pic.sizes.map((s) => `${s.url} ${s.width}w`).join(', ') : undefined
  return html`<img src="${pic.url}"${srcset ? html` srcset="${srcset}" sizes="${sizesAttr}"` : ''}${pic.width && pic.height ? html` width="${pic.width}" height="${pic.height}"` : ''} alt="${alt}"${eager ? raw(' fetchpriority="high"') : raw(' loading="lazy"')} decoding="async">`
}

/** "$12.00", or "From $10.00" when variants differ in price; compare-at price struck through. */
function priceOf(p: ViewProduct, currency: string, c: PageCtx): Html {
  const prices = p.variants.length ? p.variants.map((v) => v.price) : [p.price]
  const min = Math.min(...prices)
  const from = prices.some((x) => x !== min)
  const was = p.comparePrice !== null && p.comparePrice > min
  return html`<p class="price">${from ? `${c.words.from} ` : ''}<span>${money(c, min, currency)}</span>${
    was ? html` <span class="was"><span class="vh">${c.words.regularPrice}: </span><s>${money(c, p.comparePrice!, currency)}</s></span>` : ''
  }</p>`
}

/** The price as one line of text ("$12.00", "From $10.00"), for a shared message. */
function priceText(p: ViewProduct, currency: string, c: PageCtx): string {
  const prices = p.variants.length ? p.variants.map((v) => v.price) : [p.price]
  const min = Math.min(...prices)
  return `${prices.some((x) => x !== min) ? `${c.words.from} ` : ''}${money(c, min, currency)}`
}

/**
 * "Share on WhatsApp": `wa.me` with no number lets the person pick a chat; the text is lines of
 * what is shared (name, price, absolute URL on PUBLIC_URL or the request's origin), not a sentence.
 */
function shareLink(lines: string[], c: PageCtx): Html {
  return html`<a class="share" href="https://wa.me/?text=${encodeURIComponent(lines.join('\n'))}" rel="noopener">${c.words.shareWhatsapp}</a>`
}

function whatsappLink(store: ViewStore, c: PageCtx): Html | undefined {
  if (!store.whatsappNumber) return undefined
  return html`<a class="wa" href="https://wa.me/${store.whatsappNumber.replace(/\D/g, '')}" rel="noopener">${c.words.contactWhatsapp}</a>`
}

interface LayoutOpts {
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
${o.store ? html`<a class="brand" href="${storePath(o.store)}">${o.store.name}</a>
<a class="cart-link" href="${storePath(o.store)}/cart">${words.cart} <span class="count" data-cart-count></span></a>` : html`<span class="brand">${words.storesTitle}</span>`}
</header>
<main id="main" tabindex="-1">
${o.main}
</main>
${o.data ? html`<script type="application/json" id="shop-data">${jsonForScript(o.data)}</script>` : ''}
</body>
</html>
`
}

function productCard(p: ViewProduct, cat: ViewCatalog, c: PageCtx, eager: boolean): Html {
  const available = isAvailable(p)
  return html`<li class="card">
<a href="${productPath(cat.store, p)}">
${img(p, c, '(min-width: 40rem) 16rem, 45vw', eager, '') ?? ''}
<h3>${p.name}</h3>
</a>
${priceOf(p, cat.store.currency, c)}
${available ? '' : html`<p class="sold">${c.words.soldOut}</p>`}
</li>`
}

export function catalogPage(cat: ViewCatalog, c: PageCtx): Html {
  const { store } = cat
  const { words } = c
  // Products grouped by active category in the store's order; the rest (no category, or an
  // inactive one) last.
  const byCat = new Map<string, ViewProduct[]>(cat.categories.map((k) => [k.id, []]))
  const rest: ViewProduct[] = []
  for (const p of cat.products) (p.categoryId && byCat.get(p.categoryId) ? byCat.get(p.categoryId)! : rest).push(p)
  const sections = cat.categories
    .filter((k) => byCat.get(k.id)!.length)
    .map((k) => ({ id: `c-${k.slug}`, name: k.name, products: byCat.get(k.id)! }))
  if (rest.length) sections.push({ id: 'c-more', name: sections.length ? words.other : words.allProducts, products: rest })
  let shown = 0
  const main = html`<section class="intro">
<h1>${store.name}</h1>
${store.description ? html`<p class="desc">${store.description}</p>` : ''}
${whatsappLink(store, c)}
${shareLink([store.name, c.origin + storePath(store)], c)}
</section>
${sections.length > 1 ? html`<nav class="cats" aria-label="${words.categories}"><ul>${sections.map((s) => html`<li><a href="#${s.id}">${s.name}</a></li>`)}</ul></nav>` : ''}
${sections.length === 0 ? html`<p>${words.noProducts}</p>` : ''}
${sections.map(
  (s) => html`<section class="cat" aria-labelledby="${s.id}">
<h2 id="${s.id}">${s.name}</h2>
<ul class="grid">${s.products.map((p) => productCard(p, cat, c, shown++ < 2))}</ul>
</section>`,
)}`
  const jsonLd = {
    '@context': 'https://schema.org',
    '@type': 'ItemList',
    name: store.name,
    itemListElement: cat.products.map((p, i) => ({ '@type': 'ListItem', position: i + 1, url: c.origin + productPath(store, p), name: p.name })),
  }
  return layout(c, {
    title: store.name,
    description: summary(store.description, store.name),
    path: storePath(store),
    store,
    jsonLd,
    script: true,
    main,
  })
}

export function productJsonLd(p: ViewProduct, store: ViewStore, c: PageCtx, reviews: ReviewsPage = NO_REVIEWS_PAGE): Record<string, unknown> {
  const pic = pictureOf(p, c.origin)
  const prices = p.variants.length ? p.variants.map((v) => v.price) : [p.price]
  const availability = `https://schema.org/${isAvailable(p) ? 'InStock' : 'OutOfStock'}`
  const url = c.origin + productPath(store, p)
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: p.name,
    ...(p.description ? { description: p.description } : {}),
    ...(pic ? { image: c.origin + pic.url } : {}),
    sku: p.id,
    url,
    offers:
      prices.length > 1
        ? { '@type': 'AggregateOffer', priceCurrency: store.currency, lowPrice: Math.min(...prices), highPrice: Math.max(...prices), offerCount: prices.length, availability, url }
        : { '@type': 'Offer', priceCurrency: store.currency, price: prices[0], availability, url },
    ...(p.reviewCount > 0 && p.averageRating !== null
      ? { aggregateRating: { '@type': 'AggregateRating', ratingValue: p.averageRating, reviewCount: p.reviewCount, bestRating: 5, worstRating: 1 } }
      : {}),
    ...(reviews.data.length ? { review: reviewsJsonLd(reviews) } : {}),
  }
}

/** What a product page shows besides the product: a page of its approved reviews, and a form post's outcome. */
export interface ProductPageOpts {
  reviews?: ReviewsPage
  outcome?: ReviewOutcome
}

export function productPage(cat: ViewCatalog, p: ViewProduct, c: PageCtx, opts: ProductPageOpts = {}): Html {
  const reviews = opts.reviews ?? NO_REVIEWS_PAGE
  const { store } = cat
  const { words } = c
  const category = cat.categories.find((k) => k.id === p.categoryId)
  const available = isAvailable(p)
  const picture = pictureOf(p, c.origin)
  const rating =
    p.reviewCount > 0 && p.averageRating !== null
      ? html`<p class="rating"><span aria-hidden="true">★ </span>${words.rating(p.averageRating.toLocaleString(words.locale, { maximumFractionDigits: 1 }))} · ${words.reviews(p.reviewCount)}</p>`
      : html`<p class="rating muted">${words.noReviews}</p>`
  const variantPicker = p.variants.length
    ? html`<fieldset class="variants">
<legend>${words.chooseOption}</legend>
${p.variants.map((v, i) => {
  const out = v.inStock === false
  return html`<label class="opt${out ? ' out' : ''}"><input type="radio" name="variant" value="${v.id}"${out ? raw(' disabled') : ''}${!out && i === p.variants.findIndex((x) => x.inStock !== false) ? raw(' checked') : ''} required> <span>${v.name}</span> <span class="p">${money(c, v.price, store.currency)}</span>${out ? html` <span class="sold">${words.soldOut}</span>` : ''}</label>`
})}
</fieldset>`
    : ''
  const main = html`<nav class="crumbs" aria-label="Breadcrumb"><a href="${storePath(store)}">${store.name}</a>${category ? html` <span aria-hidden="true">›</span> <a href="${storePath(store)}#c-${category.slug}">${category.name}</a>` : ''}</nav>
<article class="product">
${img(p, c, '(min-width: 40rem) 32rem, 100vw', true) ?? ''}
<div class="info">
<h1>${p.name}</h1>
${priceOf(p, store.currency, c)}
${rating}
${p.description ? html`<p class="desc">${p.description}</p>` : ''}
<form class="add" method="get" action="${storePath(store)}/cart" data-add data-product="${p.id}" data-added="${words.client.added}" data-choose="${words.client.chooseFirst}">
${variantPicker}
<p class="qty"><label for="qty">${words.quantity}</label> <input id="qty" name="qty" type="number" inputmode="numeric" min="1" max="999" value="1"${available ? '' : raw(' disabled')}></p>
${available ? html`<button type="submit">${words.addToCart}</button>` : html`<button type="submit" disabled>${words.soldOut}</button>`}
<p class="status" role="status" data-add-status></p>
</form>
<p class="note" data-needs-js>${words.needsJs}</p>
${whatsappLink(store, c)}
${shareLink([p.name, priceText(p, store.currency, c), c.origin + productPath(store, p)], c)}
</div>
</article>
${reviewsSection(reviews, productPath(store, p), words)}
${reviewForm({ action: `${productPath(store, p)}/reviews`, storeId: store.id, productId: p.id, outcome: opts.outcome }, words)}`
  return layout(c, {
    title: `${p.name} · ${store.name}`,
    description: summary(p.description, `${p.name} · ${store.name}`),
    path: productPath(store, p),
    store,
    ogType: 'product',
    image: picture?.url,
    jsonLd: productJsonLd(p, store, c, reviews),
    // Later pages of reviews and a form post's outcome are not pages of their own for search engines.
    noindex: reviews.page > 1 || opts.outcome !== undefined,
    script: true,
    data: reviewScriptData(words),
    main,
  })
}

/** The cart and checkout: a shell the script fills from the browser's cart and the data block. */
export function cartPage(cat: ViewCatalog, c: PageCtx): Html {
  const { store } = cat
  const { words } = c
  const field = (id: string, label: string, input: Html, hint?: string) =>
    html`<p class="field"><label for="${id}">${label}</label>${hint ? html`<span class="hint" id="${id}-hint">${hint}</span>` : ''}${input}<span class="err" id="${id}-err" data-err="${id}"></span></p>`
  const ships = cat.shippingOptions
  const main = html`<h1>${words.cartTitle}</h1>
<p class="note" data-needs-js>${words.needsJs}</p>
<div class="cart" data-cart hidden>
<p data-empty hidden>${words.client.empty} <a href="${storePath(store)}">${words.client.continueShopping}</a></p>
<ul class="lines" data-lines></ul>
<form class="checkout" data-checkout novalidate>
<h2>${words.checkout}</h2>
${ships.length
    ? html`<fieldset class="ships"><legend>${words.shipping}</legend>
${ships.map((s, i) => html`<label class="opt"><input type="radio" name="shippingOptionId" value="${s.id}"${i === 0 ? raw(' checked') : ''}> <span>${s.name}</span> <span class="p">${money(c, s.price, store.currency)}</span>${s.estimatedDays !== null ? html` <span class="muted">(${words.days(s.estimatedDays)})</span>` : ''}</label>`)}
<span class="err" id="shippingOptionId-err" data-err="shippingOptionId"></span>
</fieldset>`
    : ''}
${field('name', words.name, raw('<input id="name" name="name" autocomplete="name" required maxlength="200" aria-describedby="name-err">'))}
${field('phone', words.phone, raw('<input id="phone" name="phone" type="tel" autocomplete="tel" required maxlength="40" aria-describedby="phone-hint phone-err">'), words.phoneHint)}
${field('address', words.address, raw('<textarea id="address" name="address" autocomplete="street-address" rows="2" maxlength="1000" aria-describedby="address-err"></textarea>'))}
${field('notes', words.notes, raw('<textarea id="notes" name="notes" rows="2" maxlength="2000" aria-describedby="notes-err"></textarea>'))}
${field('discountCode', words.discountCode, raw('<input id="discountCode" name="discountCode" autocomplete="off" maxlength="64" aria-describedby="discountCode-err">'))}
<dl class="totals"><dt>${words.subtotal}</dt><dd data-subtotal></dd>${ships.length ? html`<dt>${words.shipping}</dt><dd data-shipping></dd>` : ''}<dt>${words.total}</dt><dd data-total></dd></dl>
<p class="muted small">${words.totalNote}</p>
<p class="form-err" role="alert" data-form-err></p>
<button type="submit" data-submit>${words.placeOrder}</button>
</form>
</div>
<section class="done" data-done hidden tabindex="-1" aria-labelledby="done-h">
<h2 id="done-h">${words.client.placed}</h2>
<p>${words.client.orderNumber}: <strong data-order-number></strong></p>
<p>${words.total}: <strong data-order-total></strong></p>
<p><a class="wa big" data-wa hidden rel="noopener">${words.client.whatsapp}</a></p>
<p><a href="${storePath(store)}">${words.client.continueShopping}</a></p>
</section>`
  const data = {
    storeId: store.id,
    currency: store.currency,
    locale: words.locale,
    words: words.client,
    shipping: Object.fromEntries(ships.map((s) => [s.id, s.price])),
    products: Object.fromEntries(
      cat.products.map((p) => [
        p.id,
        { name: p.name, price: p.price, inStock: p.inStock !== false, variants: Object.fromEntries(p.variants.map((v) => [v.id, { name: v.name, price: v.price, inStock: v.inStock !== false }])) },
      ]),
    ),
  }
  return layout(c, { title: `${words.cartTitle} · ${store.name}`, description: summary(store.description, store.name), path: `${storePath(store)}/cart`, store, noindex: true, script: true, data, main })
}

export function directoryPage(entries: { name: string; slug: string; description: string | null }[], c: PageCtx): Html {
  const { words } = c
  const main = html`<h1>${words.storesTitle}</h1>
${entries.length
    ? html`<p>${words.storesIntro}</p><ul class="stores">${entries.map((e) => html`<li><a href="${storePath(e)}">${e.name}</a>${e.description ? html`<p class="muted">${summary(e.description, '')}</p>` : ''}</li>`)}</ul>`
    : html`<p>${words.noStores}</p>`}`
  return layout(c, { title: words.storesTitle, description: words.storesIntro, path: '/', main })
}

export function messagePage(kind: 'notFound' | 'unavailable' | 'busy' | 'forbidden', c: PageCtx, store?: ViewStore): Html {
  const { words } = c
  const title = { notFound: words.notFoundTitle, unavailable: words.unavailableTitle, busy: words.busyTitle, forbidden: words.forbiddenTitle }[kind]
  const text = { notFound: words.notFoundText, unavailable: words.unavailableText, busy: words.busyText, forbidden: words.forbiddenText }[kind]
  return layout(c, {
    title: store ? `${title} · ${store.name}` : title,
    description: text,
    path: '/',
    noindex: true,
    main: html`<h1>${title}</h1><p>${text}</p><p><a href="/">${words.storesTitle}</a></p>`,
  })
}

export function sitemap(cat: ViewCatalog, origin: string): string {
  const loc = (p: string) => html`<url><loc>${origin + p}</loc></url>`
  return html`<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${loc(storePath(cat.store))}
${cat.products.map((p) => loc(productPath(cat.store, p)))}
</urlset>
`.value
}
