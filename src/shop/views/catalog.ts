/** The catalog page and its product cards. */
import { type Html, html } from '../html'
import type { PageCtx, ViewCatalog, ViewProduct } from './types'
import { img, isAvailable, layout, priceOf, productPath, shareLink, storePath, summary, whatsappLink } from './parts'

export function productCard(p: ViewProduct, cat: ViewCatalog, c: PageCtx, eager: boolean): Html {
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
  if (rest.length)
    sections.push({ id: 'c-more', name: sections.length ? words.other : words.allProducts, products: rest })
  let shown = 0
  const categoryLinks = html`<ul>${sections.map((s) => html`<li><a href="#${s.id}">${s.name}</a></li>`)}</ul>`
  const main = html`<section class="intro">
<h1>${store.name}</h1>
${store.description ? html`<p class="desc">${store.description}</p>` : ''}
${whatsappLink(store, c)}
${shareLink([store.name, c.origin + storePath(store)], c)}
</section>
${sections.length > 1 ? html`<nav class="cats" aria-label="${words.categories}">${categoryLinks}</nav>` : ''}
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
    itemListElement: cat.products.map((p, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      url: c.origin + productPath(store, p),
      name: p.name,
    })),
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
