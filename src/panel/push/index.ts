/** Web Push for the person's devices (routes.ts) and the installable panel (install-routes.ts), mounted together. */
import type { PanelEnv } from '../env'
import { installRoutes } from './install-routes'
import { pushRoutes } from './routes'

export const pushPanel = (env: PanelEnv) => pushRoutes(env).use(installRoutes())
