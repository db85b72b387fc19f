/**
 * The dashboard's chart, drawn on the server as SVG (no chart script): a bar per day for orders
 * and a line for revenue, each on its own scale — orders on the left axis, revenue on the right —
 * with dates along the bottom and a legend naming the two marks. Presentation attributes only
 * (the CSP allows no inline style). The same numbers are in a table beside it for screen readers
 * (dashboard.ts), so the drawing's text is hidden from them (the figure has one name).
 */
import { html, raw, type Html } from '../../shop/html'

export interface ChartDay {
  label: string
  orders: number
  revenue: number
}

export interface ChartWords {
  title: string
  summary: string
  orders: string
  revenue: string
  /** A revenue tick as money ("$1.2K"). */
  money: (minor: number) => string
}

/** The drawing's box: axis labels sit in the margins, so text keeps its size as the box scales. */
const W = 400
const H = 220
const LEFT = 34
const RIGHT = 56
const TOP = 10
const BOTTOM = 30
const PLOT_W = W - LEFT - RIGHT
const PLOT_H = H - TOP - BOTTOM
const BAR = '#9cb9e3'
const LINE = '#17324d'
const INK = '#4a4a4a'

/** A round top for an axis: 1, 2 or 5 times a power of ten, at least `max`. */
export function niceMax(max: number): number {
  if (max <= 0) return 1
  const p = 10 ** Math.floor(Math.log10(max))
  return ([1, 2, 5, 10].map((m) => m * p).find((m) => m >= max) ?? 10 * p) as number
}

const text = (x: number, y: number, anchor: 'start' | 'middle' | 'end', s: string) =>
  html`<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" text-anchor="${anchor}" font-size="11" fill="${INK}">${s}</text>`

export function ordersChart(days: ChartDay[], w: ChartWords): Html {
  const n = Math.max(1, days.length)
  const step = PLOT_W / n
  const topOrders = niceMax(Math.max(0, ...days.map((d) => d.orders)))
  const topRevenue = niceMax(Math.max(0, ...days.map((d) => d.revenue)))
  const y = (v: number, max: number) => TOP + PLOT_H - (v / max) * PLOT_H
  const bars = days
    .map((d, i) =>
      d.orders > 0
        ? `<rect x="${(LEFT + i * step + step * 0.15).toFixed(1)}" ` +
          `y="${y(d.orders, topOrders).toFixed(1)}" width="${(step * 0.7).toFixed(1)}" ` +
          `height="${((d.orders / topOrders) * PLOT_H).toFixed(1)}" fill="${BAR}"/>`
        : '',
    )
    .join('')
  const points = days
    .map((d, i) => `${(LEFT + i * step + step / 2).toFixed(1)},${y(d.revenue, topRevenue).toFixed(1)}`)
    .join(' ')
  // Three ticks per axis (0, half, top) and a date under the first, middle and last day.
  const ticks = [0, 0.5, 1]
  const grid = ticks.map((f) => {
    const at = y(f, 1)
    const [x1, x2, level] = [String(LEFT), String(LEFT + PLOT_W), at.toFixed(1)]
    return html`<line x1="${x1}" y1="${level}" x2="${x2}" y2="${level}" stroke="#d6d6d2" stroke-width="1"/>
      ${text(LEFT - 4, at + 4, 'end', String(Math.round(topOrders * f)))}
      ${text(LEFT + PLOT_W + 4, at + 4, 'start', w.money(Math.round(topRevenue * f)))}`
  })
  const dated = days.length === 0 ? [] : [...new Set([0, Math.floor((days.length - 1) / 2), days.length - 1])]
  const dates = dated.map((i) => {
    const x = LEFT + i * step + step / 2
    const anchor = i === 0 ? 'start' : i === days.length - 1 ? 'end' : 'middle'
    return text(
      anchor === 'start' ? LEFT : anchor === 'end' ? LEFT + PLOT_W : x,
      H - BOTTOM + 16,
      anchor,
      days[i]!.label,
    )
  })
  return html`<figure class="chart-figure">
    <svg class="chart" viewBox="0 0 ${String(W)} ${String(H)}" role="img" aria-labelledby="chart-title chart-desc">
    <title id="chart-title">${w.title}</title><desc id="chart-desc">${w.summary}</desc>
    ${grid}
    <line x1="${String(LEFT)}" y1="${String(TOP + PLOT_H)}" x2="${String(LEFT + PLOT_W)}" y2="${String(TOP + PLOT_H)}"
      stroke="#767676" stroke-width="1"/>
    ${raw(bars)}
    <polyline points="${points}" fill="none" stroke="${LINE}" stroke-width="2" stroke-linejoin="round"/>
    ${dates}
    </svg>
    <figcaption><ul class="legend">
      <li><svg width="14" height="14" aria-hidden="true">
      <rect width="14" height="14" fill="${BAR}"/></svg> ${w.orders}</li>
      <li><svg width="18" height="14" aria-hidden="true">
      <line x1="0" y1="7" x2="18" y2="7" stroke="${LINE}" stroke-width="3"/></svg> ${w.revenue}</li>
    </ul></figcaption>
  </figure>`
}
