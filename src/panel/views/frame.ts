/**
 * Every page's frame: who is looking, the header, the navigation by
 * role, the layout, forms with the token, and the short message pages.
 */
import { html, raw, type Html } from '../../shop/html'
import { countText, header, sideNav, tabs } from './chrome'
import type { Frame } from './frame-base'

export * from './frame-base'
export { header, moreBody } from './chrome'

/**
 * `noindex` on the pages anyone can reach (sign-in, two-step, one-time links, messages). A page
 * of a signed-in person is only ever sent to a request with a live session (a crawler gets the
 * sign-in page's redirect instead), so it needs none, and Lighthouse's SEO audit (a target for
 * the product editor) counts one against it.
 */
const robots = (f: Frame) => (f.person ? '' : html`<meta name="robots" content="noindex">`)

/** The title's unseen count, as the script keeps it: "(2) Dashboard · Seller panel". */
const titleCount = (f: Frame) => (f.live?.unseen ? `(${countText(f.live.unseen)}) ` : '')

export function layout(f: Frame, title: string, body: Html, opts: { narrow?: boolean } = {}): string {
  const live = f.live
  const stream = live
    ? html` data-stream="/admin/orders/live" data-after="${String(live.after)}" data-unseen="${String(live.unseen)}"`
    : ''
  return `<!doctype html>${
    html`<html lang="${f.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${robots(f)}
<title>${titleCount(f)}${title} · ${f.w.shell.panel}</title>
<meta name="description" content="${title} · ${f.w.shell.panel}">
<link rel="stylesheet" href="${f.assets.css.url}">
<link rel="icon" href="${f.assets.icon.url}">
<link rel="manifest" href="/admin/manifest.webmanifest" crossorigin="use-credentials">
<meta name="theme-color" content="#17324d">
<script type="module" src="${f.assets.js.url}"></script>
</head>
<body${raw(f.person?.role ? ' class="signed-in"' : '')}${stream}>
<a class="skip" href="#main">${f.w.shell.skip}</a>
${header(f)}
${sideNav(f)}
<main id="main"${raw(opts.narrow ? ' class="narrow"' : '')}>
<h1>${title}</h1>
${body}
</main>
${tabs(f)}
${live ? html`<p id="alerts-status" class="sr-only" role="status"></p>` : ''}
</body>
</html>`.value
  }`
}

export const errorLine = (id: string, text: string | undefined) =>
  text ? html`<p id="${id}" class="error" role="alert">${text}</p>` : ''

// ---------------------------------------------------------------- sign-in

export function messagePage(f: Frame, title: string, text: string, extra: Html | '' = ''): string {
  return layout(f, title, html`<p>${text}</p>${extra}`, { narrow: true })
}

export const forbiddenPage = (f: Frame, text = f.w.errors.forbiddenText) =>
  messagePage(
    f,
    f.w.errors.forbiddenTitle,
    text,
    f.person?.role ? html`<p><a href="/admin">${f.w.errors.backToDashboard}</a></p>` : '',
  )

export function suspendedPage(
  f: Frame,
  store: { name: string; suspendedReason: string | null },
  upgradeUrl: string,
): string {
  const w = f.w
  return layout(
    f,
    w.errors.suspendedTitle,
    html`<section><p>${w.errors.suspendedText(store.name)}</p>${
      store.suspendedReason ? html`<p>${w.errors.suspendedReason(store.suspendedReason)}</p>` : ''
    }
    <p><a class="button" href="${upgradeUrl}">${w.errors.upgrade}</a></p></section>`,
  )
}

// ---------------------------------------------------------------- account
