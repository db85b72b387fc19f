/**
 * The panel's navigation: one table gives each link its path and the
 * grant it needs. The layout shows a person only the links their role grants, and the routes
 * declare the same grant (routes.ts), so a link that isn't shown answers 403 when typed.
 */
import type { PanelNeed } from '../modules/people'
import type { Words } from './words'

export interface NavItem {
  key: keyof Words['nav'] &
    (
      | 'dashboard'
      | 'orders'
      | 'products'
      | 'categories'
      | 'discounts'
      | 'shipping'
      | 'reviews'
      | 'customers'
      | 'settings'
      | 'team'
      | 'keys'
      | 'webhooks'
      | 'activity'
    )
  path: string
  need: PanelNeed
}

export const NAV: readonly NavItem[] = [
  { key: 'dashboard', path: '/admin', need: 'member' },
  { key: 'orders', path: '/admin/orders', need: 'orders:read' },
  { key: 'products', path: '/admin/products', need: 'products:read' },
  { key: 'categories', path: '/admin/categories', need: 'categories:read' },
  { key: 'discounts', path: '/admin/discounts', need: 'discounts:read' },
  { key: 'shipping', path: '/admin/shipping', need: 'shipping:read' },
  { key: 'reviews', path: '/admin/reviews', need: 'reviews:read' },
  { key: 'customers', path: '/admin/customers', need: 'customers:read' },
  // Settings: owners change them, viewers read them; staff has no store:read.
  { key: 'settings', path: '/admin/settings', need: 'store:read' },
  { key: 'team', path: '/admin/team', need: 'team' },
  { key: 'keys', path: '/admin/keys', need: 'keys' },
  { key: 'webhooks', path: '/admin/webhooks', need: 'webhooks:read' },
  { key: 'activity', path: '/admin/activity', need: 'activity' },
]

/**
 * The phone's bottom tabs, in this order, then "More" (`/admin/more`: every link of NAV, the account and signing out).
 */
export const TABS: readonly NavItem['key'][] = ['orders', 'products', 'dashboard']
export const MORE_PATH = '/admin/more'
