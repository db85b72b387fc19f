/** Web Push for the person's devices (routes.ts) and the installable panel (install-routes.ts), mounted together. */
import { Elysia } from 'elysia'
import type { PanelEnv } from '../env'
import { installRoutes } from './install-routes'
import { pushRoutes } from './routes'

export const pushPanel = (env: PanelEnv) =>
  new Elysia({ name: 'pushPanel' }).use(pushRoutes(env)).use(installRoutes(env))
