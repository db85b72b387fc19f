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
import { dashboardWords, type DashboardWords } from '../i18n/dashboard'
import { ordersWords } from '../i18n/orders'
import { can, layout, zoneOf, type Frame } from '../views'
import { ordersChart } from './chart'
import { storeQr } from '../views/qr'
import { panelPlugin, panelRoute } from '../route'
import { render } from './plugin-kit'
import { inboxRow, money } from './orders/views'

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

function period(d: DashboardWords, p: PeriodFigure, data: Data, locale: string): Html {
  const c = data.currency
  return html`<div class="stat"><h2>${d.period(p.days)}</h2>
    <p>${d.orders}: <strong>${p.orders}</strong></p>
    ${
      data.paid
        ? html`<p>${d.revenue}: <strong>${money(p.revenue, c, locale)}</strong></p>
        <p>${d.average}: ${money(p.average, c, locale)}</p>
        <p>${d.visits}: ${p.visits} · ${d.conversion}: ${pct(p.conversion, locale)}</p>`
        : ''
    }
  </div>`
}

function analytics(f: Frame, d: DashboardWords, data: Data): Html {
  const locale = f.w.locale
  const day = dateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' })
  const series = data.numbers.series
  const days = series.map((s) => ({ label: day.format(s.day * DAY_MS), orders: s.orders, revenue: s.revenue }))
  const month = data.numbers.periods[2]!
  const tick = numberFormat(locale, { style: 'currency', currency: data.currency, notation: 'compact' })
  return html`<section aria-labelledby="chart-h"><h2 id="chart-h">${d.chartTitle}</h2>
      ${ordersChart(days, {
        title: d.chartTitle,
        summary: d.chartSummary(month.orders, money(month.revenue, data.currency, locale)),
        orders: d.legendOrders,
        revenue: d.legendRevenue,
        money: (minor) => tick.format(toMajor(minor, data.currency)),
      })}
      <details><summary>${d.showTable}</summary><div class="table"><table>
        <thead><tr><th scope="col">${d.day}</th><th scope="col">${d.orders}</th><th scope="col">${d.revenue}</th></tr></thead>
        <tbody>${days.map((x) => html`<tr><th scope="row">${x.label}</th><td>${x.orders}</td><td>${money(x.revenue, data.currency, locale)}</td></tr>`)}</tbody>
      </table></div></details>
    </section>
    <section aria-labelledby="top-h"><h2 id="top-h">${d.topProducts}</h2>
      ${
        data.numbers.top.length === 0
          ? html`<p>${d.noSales}</p>`
          : html`<ol>${data.numbers.top.map((t) => html`<li>${t.name ?? t.productId} · ${d.sold(t.quantity)} · ${money(t.revenue, data.currency, locale)}</li>`)}</ol>`
      }
    </section>`
}

function checklist(d: DashboardWords, data: Data): Html | '' {
  const s = data.steps
  const steps: [string, boolean, string][] = [
    [d.stepWhatsapp, s.whatsapp, '/admin/settings'],
    [d.stepProduct, s.product, '/admin/products'],
    [d.stepPicture, s.picture, '/admin/products'],
    [d.stepShipping, s.shipping, '/admin/shipping'],
    [d.stepPublish, s.published, '/admin/settings'],
  ]
  if (steps.every(([, done]) => done)) return ''
  return html`<section aria-labelledby="start-h"><h2 id="start-h">${d.gettingStarted}</h2><ol class="steps">
    ${steps.map(([label, done, href]) => html`<li>${done ? html`<span>${label}</span> <span class="badge status-delivered">${d.done}</span>` : html`<a href="${href}">${label}</a> <span class="badge status-pending">${d.todo}</span>`}</li>`)}
  </ol></section>`
}

/** The store's link and its QR code: always there, since sharing goes on after setup. */
const share = (d: DashboardWords, data: Data): Html =>
  html`<section aria-labelledby="share-h"><h2 id="share-h">${d.stepShare}</h2>
    <p><a href="${data.shopUrl}">${data.shopUrl}</a></p>
    <figure>${storeQr(data.shopUrl, d.qrLabel)}<figcaption>${d.qrHint}</figcaption></figure></section>`

function page(f: Frame, d: DashboardWords, data: Data): string {
  const o = ordersWords(f.lang)
  const locale = f.w.locale
  return layout(
    f,
    f.w.dashboardTitle,
    html`${checklist(d, data)}
    <div class="stats">${data.numbers.periods.map((p) => period(d, p, data, locale))}</div>
    ${share(d, data)}
    ${
      data.paid
        ? analytics(f, d, data)
        : html`<section aria-labelledby="upgrade-h"><h2 id="upgrade-h">${d.upgradeTitle}</h2><p>${d.upgradeText}</p><p><a class="button" href="${data.upgradeUrl}">${d.upgrade}</a></p></section>`
    }
    <section aria-labelledby="low-h"><h2 id="low-h">${d.lowStock}</h2>
      ${
        data.numbers.lowStock.length === 0
          ? html`<p>${d.noLowStock}</p>`
          : html`<ul>${data.numbers.lowStock.map((l) => html`<li>${l.name}${l.variant ? html` (${l.variant})` : ''}: <strong>${d.left(l.stock)}</strong></li>`)}</ul>`
      }
    </section>
    ${
      can(f, 'orders:read')
        ? html`<section aria-labelledby="latest-h"><h2 id="latest-h">${d.latestOrders}</h2>
        ${data.latest.length === 0 ? html`<p id="latest-empty">${d.noOrders}</p>` : ''}
        <ol class="orders" aria-labelledby="latest-h" data-live-list="${String(LATEST)}" data-after="${String(data.after)}" data-empty="latest-empty">${data.latest.map((r) => inboxRow(o, { locale, zone: zoneOf(f), token: can(f, 'orders:write') ? f.person?.formToken : undefined }, r))}</ol>
        <p><a href="/admin/orders">${d.allOrders}</a></p></section>`
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
      return render(c, 200, (f) => page(f, dashboardWords(p.lang), data))
    }),
  ])
}
