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
import type { PageCtx, ViewCatalog, ViewImage, ViewProduct, ViewStore } from './types'
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

const STAR = html`<span aria-hidden="true">★ </span>`

export function productPage(cat: ViewCatalog, p: ViewProduct, c: PageCtx, opts: ProductPageOpts = {}): Html {
  const reviews = opts.reviews ?? NO_REVIEWS_PAGE
  const { store } = cat
  const { words } = c
  const category = cat.categories.find((k) => k.id === p.categoryId)
  const available = isAvailable(p)
  const picture = pictureOf(p, c.origin)
  const average = (n: number) => numberFormat(words.locale, { maximumFractionDigits: 1 }).format(n)
  const reviewCount = words.reviews(p.reviewCount)
  const rating =
    p.reviewCount > 0 && p.averageRating !== null
      ? html`<p class="rating">${STAR}${words.rating(average(p.averageRating))} · ${reviewCount}</p>`
      : html`<p class="rating muted">${words.noReviews}</p>`
  // The first variant in stock is chosen; a sold-out one can't be.
  const firstInStock = p.variants.findIndex((x) => x.inStock !== false)
  const variantOption = (v: ViewProduct['variants'][number], i: number) => {
    const out = v.inStock === false
    const state = out ? raw(' disabled') : i === firstInStock ? raw(' checked') : ''
    const radio = html`<input type="radio" name="variant" value="${v.id}"${state} required>`
    const price = html`<span class="p">${money(c, v.price, store.currency)}</span>`
    const sold = out ? html` <span class="sold">${words.soldOut}</span>` : ''
    return html`<label class="opt${out ? ' out' : ''}">${radio} <span>${v.name}</span> ${price}${sold}</label>`
  }
  const variantPicker = p.variants.length
    ? html`<fieldset class="variants">
<legend>${words.chooseOption}</legend>
${p.variants.map(variantOption)}
</fieldset>`
    : ''
  const categoryCrumb = category
    ? html` <span aria-hidden="true">›</span> <a href="${storePath(store)}#c-${category.slug}">${category.name}</a>`
    : ''
  const { added, chooseFirst } = words.client
  const formData = html`data-add data-product="${p.id}" data-added="${added}" data-choose="${chooseFirst}"`
  const disabled = available ? '' : raw(' disabled')
  const units = html`type="number" inputmode="numeric" min="1" max="999" value="1"`
  const quantity = html`<input id="qty" name="qty" ${units}${disabled}>`
  const addButton = available
    ? html`<button type="submit">${words.addToCart}</button>`
    : html`<button type="submit" disabled>${words.soldOut}</button>`
  const form = { action: `${productPath(store, p)}/reviews`, storeId: store.id, productId: p.id, outcome: opts.outcome }
  const storeCrumb = html`<a href="${storePath(store)}">${store.name}</a>`
  const main = html`<nav class="crumbs" aria-label="Breadcrumb">${storeCrumb}${categoryCrumb}</nav>
<article class="product">
${img(p, c, '(min-width: 40rem) 32rem, 100vw', true) ?? ''}
<div class="info">
<h1>${p.name}</h1>
${priceOf(p, store.currency, c)}
${rating}
${p.description ? html`<p class="desc">${p.description}</p>` : ''}
<form class="add" method="get" action="${storePath(store)}/cart" ${formData}>
${variantPicker}
<p class="qty"><label for="qty">${words.quantity}</label> ${quantity}</p>
${addButton}
<p class="status" role="status" data-add-status></p>
</form>
<p class="note" data-needs-js>${words.needsJs}</p>
${whatsappLink(store, c)}
${shareLink([p.name, priceText(p, store.currency, c), c.origin + productPath(store, p)], c)}
</div>
</article>
${gallery(p, c)}
${reviewsSection(reviews, productPath(store, p), words)}
${reviewForm(form, words)}`
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
  const item = (pic: ViewImage, i: number) => html`<li>${galleryImg(pic, `${p.name}, ${i + 2}/${pics.length}`)}</li>`
  return html`<ul class="gallery">${pics.slice(1).map(item)}</ul>`
}
