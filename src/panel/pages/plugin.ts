/**
 * The panel's pages beyond the shell, one Elysia plugin the shell
 * mounts under its hook (panel/routes.ts), so the gate's decision and the form-token check run
 * before every handler here.
 */
import { customersPages } from './customers'
import { dashboardPages } from './dashboard'
import { morePage } from './more'
import { ordersPages } from './orders/routes'
import type { PanelEnv } from '../env'

export function panelPages(env: PanelEnv) {
  return ordersPages(env).use(customersPages()).use(dashboardPages()).use(morePage())
}
