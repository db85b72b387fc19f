/** The directory, message pages and the sitemap. */
import { type Html, html } from '../html'
import type { PageCtx, ViewCatalog, ViewStore } from './types'
import { layout, productPath, storePath, summary } from './parts'

export function directoryPage(entries: { name: string; slug: string; description: string | null }[], c: PageCtx): Html {
  const { words } = c
  const entry = (e: (typeof entries)[number]) => {
    const about = e.description ? html`<p class="muted">${summary(e.description, '')}</p>` : ''
    return html`<li><a href="${storePath(e)}">${e.name}</a>${about}</li>`
  }
  const main = html`<h1>${words.storesTitle}</h1>
${
  entries.length
    ? html`<p>${words.storesIntro}</p><ul class="stores">${entries.map(entry)}</ul>`
    : html`<p>${words.noStores}</p>`
}`
  return layout(c, { title: words.storesTitle, description: words.storesIntro, path: '/', main })
}

export function messagePage(
  kind: 'notFound' | 'unavailable' | 'busy' | 'forbidden',
  c: PageCtx,
  store?: ViewStore,
): Html {
  const { words } = c
  const title = {
    notFound: words.notFoundTitle,
    unavailable: words.unavailableTitle,
    busy: words.busyTitle,
    forbidden: words.forbiddenTitle,
  }[kind]
  const text = {
    notFound: words.notFoundText,
    unavailable: words.unavailableText,
    busy: words.busyText,
    forbidden: words.forbiddenText,
  }[kind]
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
