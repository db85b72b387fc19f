/** The product page and its JSON-LD. */
import { type Html, html, raw } from '../html'
import { numberFormat } from '../../lib/intl'
import {
  NO_REVIEWS_PAGE,
  type ReviewOutcome,
  type ReviewsPage,
  reviewForm,
  reviewScriptData,
  reviewsJsonLd,
  reviewsSection,
} from '../review-views'
import type { PageCtx, ViewCatalog, ViewProduct, ViewStore } from './types'
import {
  galleryImg,
  img,
  isAvailable,
  layout,
  money,
  pictureOf,
  picturesOf,
  priceOf,
  priceText,
  productPath,
  shareLink,
  storePath,
  summary,
  whatsappLink,
} from './parts'

export function productJsonLd(
  p: ViewProduct,
  store: ViewStore,
  c: PageCtx,
  reviews: ReviewsPage = NO_REVIEWS_PAGE,
): Record<string, unknown> {
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
        ? {
            '@type': 'AggregateOffer',
            priceCurrency: store.currency,
            lowPrice: Math.min(...prices),
            highPrice: Math.max(...prices),
            offerCount: prices.length,
            availability,
            url,
          }
        : { '@type': 'Offer', priceCurrency: store.currency, price: prices[0], availability, url },
    ...(p.reviewCount > 0 && p.averageRating !== null
      ? {
          aggregateRating: {
            '@type': 'AggregateRating',
            ratingValue: p.averageRating,
            reviewCount: p.reviewCount,
            bestRating: 5,
            worstRating: 1,
          },
        }
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
      ? html`<p class="rating"><span aria-hidden="true">★ </span>${words.rating(numberFormat(words.locale, { maximumFractionDigits: 1 }).format(p.averageRating))} · ${words.reviews(p.reviewCount)}</p>`
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
${gallery(p, c)}
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

/** The pictures after the first, in the seller's order ("Name, 2 of 3" each). */
function gallery(p: ViewProduct, c: PageCtx): Html | '' {
  const pics = picturesOf(p, c.origin)
  if (pics.length < 2) return ''
  return html`<ul class="gallery">${pics.slice(1).map((pic, i) => html`<li>${galleryImg(pic, `${p.name}, ${i + 2}/${pics.length}`)}</li>`)}</ul>`
}
