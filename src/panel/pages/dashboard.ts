/**
 * The dashboard at /admin: today / 7 / 30
 * days from the daily rollups, a server-drawn chart with its table, top products, low stock,
 * latest orders and the getting-started steps until they are done. On the free plan the
 * analytics part says what a paid plan adds and links the upgrade; the counts stay.
 */
import { html, raw, type Html } from '../../shop/html'
import { inboxPage as readInbox, latestOrderEventId } from '../../modules/orders'
import { dashboardNumbers, readiness, type PeriodFigure } from '../../modules/stats'
import { DAY_MS } from '../../lib/time'
import { toMajor } from '../../lib/money'
import { dateTimeFormat, numberFormat } from '../../lib/intl'
import { can, layout, zoneOf, type Frame } from '../views'
import { ordersChart } from './chart'
import { storeQr } from '../views/qr'
import { panelPlugin, panelRoute } from '../route'
import { render } from './plugin-kit'
import { inboxRow, money } from './orders/views'
import type { Words } from '../words'

/** The latest orders the dashboard shows, kept as new ones arrive. */
const LATEST = 5

type Numbers = ReturnType<typeof dashboardNumbers>
interface Data {
  numbers: Numbers
  steps: ReturnType<typeof readiness>
  latest: ReturnType<typeof readInbox>['rows']
  /** The order log's head read before `latest` (the live list's resume point). */
  after: number
  currency: string
  paid: boolean
  upgradeUrl: string
  shopUrl: string
}

const pct = (x: number | null, locale: string) =>
  x === null ? '—' : numberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(x)

function period(w: Words, p: PeriodFigure, data: Data, locale: string): Html {
  const c = data.currency
  return html`<div class="stat"><h2>${w.dashboard.period(p.days)}</h2>
    <p>${w.nav.orders}: <strong>${p.orders}</strong></p>
    ${
      data.paid
        ? html`<p>${w.dashboard.revenue}: <strong>${money(p.revenue, c, locale)}</strong></p>
        <p>${w.dashboard.average}: ${money(p.average, c, locale)}</p>
        <p>${w.dashboard.visits}: ${p.visits} · ${w.dashboard.conversion}: ${pct(p.conversion, locale)}</p>`
        : ''
    }
  </div>`
}

function analytics(f: Frame, w: Words, data: Data): Html {
  const locale = f.w.shell.locale
  const day = dateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' })
  const series = data.numbers.series
  const days = series.map((s) => ({ label: day.format(s.day * DAY_MS), orders: s.orders, revenue: s.revenue }))
  const month = data.numbers.periods[2]!
  const tick = numberFormat(locale, { style: 'currency', currency: data.currency, notation: 'compact' })
  const revenueOf = (minor: number) => money(minor, data.currency, locale)
  const dayRow = (x: (typeof days)[number]) =>
    html`<tr><th scope="row">${x.label}</th><td>${x.orders}</td><td>${revenueOf(x.revenue)}</td></tr>`
  const top = (t: Data['numbers']['top'][number]) =>
    html`<li>${t.name ?? t.productId} · ${w.dashboard.sold(t.quantity)} · ${revenueOf(t.revenue)}</li>`
  return html`<section aria-labelledby="chart-h"><h2 id="chart-h">${w.dashboard.chartTitle}</h2>
      ${ordersChart(days, {
        title: w.dashboard.chartTitle,
        summary: w.dashboard.chartSummary(month.orders, money(month.revenue, data.currency, locale)),
        orders: w.dashboard.legendOrders,
        revenue: w.dashboard.legendRevenue,
        money: (minor) => tick.format(toMajor(minor, data.currency)),
      })}
      <details><summary>${w.dashboard.showTable}</summary><div class="table"><table>
        <thead><tr><th scope="col">${w.dashboard.day}</th><th scope="col">${w.nav.orders}</th>
        <th scope="col">${w.dashboard.revenue}</th></tr></thead>
        <tbody>${days.map(dayRow)}</tbody>
      </table></div></details>
    </section>
    <section aria-labelledby="top-h"><h2 id="top-h">${w.dashboard.topProducts}</h2>
      ${
        data.numbers.top.length === 0
          ? html`<p>${w.dashboard.noSales}</p>`
          : html`<ol>${data.numbers.top.map(top)}</ol>`
      }
    </section>`
}

function checklist(w: Words, data: Data): Html | '' {
  const s = data.steps
  const steps: [string, boolean, string][] = [
    [w.dashboard.stepWhatsapp, s.whatsapp, '/admin/settings'],
    [w.dashboard.stepProduct, s.product, '/admin/products'],
    [w.dashboard.stepPicture, s.picture, '/admin/products'],
    [w.dashboard.stepShipping, s.shipping, '/admin/shipping'],
    [w.dashboard.stepPublish, s.published, '/admin/settings'],
  ]
  if (steps.every(([, done]) => done)) return ''
  return html`<section aria-labelledby="start-h"><h2 id="start-h">${w.dashboard.gettingStarted}</h2><ol class="steps">
    ${steps.map(
      ([label, done, href]) =>
        html`<li>${
          done
            ? html`<span>${label}</span> <span class="badge status-delivered">${w.dashboard.done}</span>`
            : html`<a href="${href}">${label}</a> <span class="badge status-pending">${w.dashboard.todo}</span>`
        }</li>`,
    )}
  </ol></section>`
}

/** The store's link and its QR code: always there, since sharing goes on after setup. */
const share = (w: Words, data: Data): Html =>
  html`<section aria-labelledby="share-h"><h2 id="share-h">${w.dashboard.stepShare}</h2>
    <p><a href="${data.shopUrl}">${data.shopUrl}</a></p>
    <figure>${storeQr(
      data.shopUrl,
      w.dashboard.qrLabel,
    )}<figcaption>${w.dashboard.qrHint}</figcaption></figure></section>`

function page(f: Frame, w: Words, data: Data): string {
  const locale = f.w.shell.locale
  const upgradeLink = html`<a class="button" href="${data.upgradeUrl}">${w.dashboard.upgrade}</a>`
  const rowOpts = { locale, zone: zoneOf(f), token: can(f, 'orders:write') ? f.person?.formToken : undefined }
  return layout(
    f,
    f.w.nav.dashboard,
    html`${checklist(w, data)}
    <div class="stats">${data.numbers.periods.map((p) => period(w, p, data, locale))}</div>
    ${share(w, data)}
    ${
      data.paid
        ? analytics(f, w, data)
        : html`<section aria-labelledby="upgrade-h"><h2 id="upgrade-h">${w.dashboard.upgradeTitle}</h2><p>${
            w.dashboard.upgradeText
          }</p><p>${upgradeLink}</p></section>`
    }
    <section aria-labelledby="low-h"><h2 id="low-h">${w.common.lowStock}</h2>
      ${
        data.numbers.lowStock.length === 0
          ? html`<p>${w.dashboard.noLowStock}</p>`
          : html`<ul>${data.numbers.lowStock.map(
              (l) =>
                html`<li>${l.name}${
                  l.variant ? html` (${l.variant})` : ''
                }: <strong>${w.dashboard.left(l.stock)}</strong></li>`,
            )}</ul>`
      }
    </section>
    ${
      can(f, 'orders:read')
        ? html`<section aria-labelledby="latest-h"><h2 id="latest-h">${w.dashboard.latestOrders}</h2>
        ${data.latest.length === 0 ? html`<p id="latest-empty">${w.dashboard.noOrders}</p>` : ''}
        <ol class="orders" aria-labelledby="latest-h" data-live-list="${String(LATEST)}"
          data-after="${String(data.after)}"
          data-empty="latest-empty">${data.latest.map((r) => inboxRow(w, rowOpts, r))}</ol>
        <p><a href="/admin/orders">${w.dashboard.allOrders}</a></p></section>`
        : raw('')
    }`,
  )
}

export function dashboardPages() {
  return panelPlugin('dashboardPages', [
    panelRoute({ method: 'get', path: '/admin', need: 'member' }, (c) => {
      const { p, ctx } = c
      const store = ctx.store
      const data: Data = {
        numbers: dashboardNumbers({ ctx, input: {} }),
        steps: readiness({ ctx }),
        // The log's head before the rows: the page's stream resumes there, so no order in between is missed.
        after: latestOrderEventId({ ctx }),
        latest: readInbox({ ctx, input: { limit: LATEST, offset: 0 } }).rows,
        currency: store.currency,
        paid: store.plan !== 'free',
        upgradeUrl: ctx.config.upgradeUrl,
        shopUrl: `${p.origin}/s/${encodeURIComponent(store.slug)}`,
      }
      return render(c, 200, (f) => page(f, p.w, data))
    }),
  ])
}
