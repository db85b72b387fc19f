/** The dashboard. */
import { html } from '../../shop/html'
import { type Frame, layout } from './frame'

export interface DashboardData {
  currency: string
  periods: { label: string; orders: number; revenue: string }[]
  activeProducts: number
  shopUrl: string | null
}

export function dashboardPage(f: Frame, d: DashboardData): string {
  const w = f.w
  return layout(
    f,
    w.nav.dashboard,
    html`<div class="stats">${d.periods.map((p) => {
      const orders = html`<p>${w.nav.orders}: <strong>${p.orders}</strong></p>`
      const revenue = html`<p>${w.dashboard.revenue}: <strong>${p.revenue}</strong></p>`
      return html`<div class="stat"><h2>${p.label}</h2>${orders}${revenue}</div>`
    })}<div class="stat"><h2>${w.dashboard.activeProducts}</h2><strong>${d.activeProducts}</strong></div></div>
    ${d.shopUrl ? html`<p><a href="${d.shopUrl}">${w.dashboard.openShop}</a></p>` : ''}`,
  )
}
