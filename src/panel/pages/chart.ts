/**
 * The dashboard's chart, drawn on the server as SVG (no chart script): a bar per day for orders
 * and a line for revenue, each on its own scale. Presentation attributes only (the CSP allows no
 * inline style). The same numbers are in a table beside it for screen readers (dashboard.ts).
 */
import { html, raw, type Html } from '../../shop/html'

export interface ChartDay {
  label: string
  orders: number
  revenue: number
}

const W = 600
const H = 180
const PAD = 4

export function ordersChart(days: ChartDay[], title: string, summary: string): Html {
  const n = Math.max(1, days.length)
  const step = (W - 2 * PAD) / n
  const maxOrders = Math.max(1, ...days.map((d) => d.orders))
  const maxRevenue = Math.max(1, ...days.map((d) => d.revenue))
  const y = (v: number, max: number) => (H - PAD - (v / max) * (H - 2 * PAD)).toFixed(1)
  const bars = days
    .map((d, i) =>
      d.orders > 0
        ? `<rect x="${(PAD + i * step + step * 0.15).toFixed(1)}" y="${y(d.orders, maxOrders)}" width="${(step * 0.7).toFixed(1)}" height="${((d.orders / maxOrders) * (H - 2 * PAD) || 0).toFixed(1)}" fill="#9cb9e3"/>`
        : '',
    )
    .join('')
  const points = days.map((d, i) => `${(PAD + i * step + step / 2).toFixed(1)},${y(d.revenue, maxRevenue)}`).join(' ')
  return html`<svg class="chart" viewBox="0 0 ${String(W)} ${String(H)}" role="img" aria-labelledby="chart-title chart-desc" preserveAspectRatio="none">
    <title id="chart-title">${title}</title><desc id="chart-desc">${summary}</desc>
    <line x1="0" y1="${String(H - PAD)}" x2="${String(W)}" y2="${String(H - PAD)}" stroke="#767676" stroke-width="1"/>
    ${raw(bars)}
    <polyline points="${points}" fill="none" stroke="#17324d" stroke-width="2.5" stroke-linejoin="round"/>
  </svg>`
}
