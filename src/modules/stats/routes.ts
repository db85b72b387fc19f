import { Elysia } from 'elysia'
import type { Deps } from '../../context'
import { ctxFor } from '../../context'
import { authed } from '../../plugins/auth'
import { authErrors, data, keyRouteDoc } from '../shared/model'
import { Stats, StatsQuery } from './model'
import { getStats } from './service'

export const statsRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/api/v1/stats' }).use(authed(deps)).get('', ({ auth, query }) => ({ data: getStats(ctxFor(deps, auth.store), query) }), {
    query: StatsQuery,
    response: { 200: data(Stats), ...authErrors },
    detail: keyRouteDoc('Store')(
      'Aggregated analytics',
      'stats:read',
      ' Needs a Pro or Lifetime plan (feature `advancedAnalytics`). Period [from, to) by order creation time; both optional (ISO 8601), default all time, echoed back as given (null when absent). from > to → 400. Money in major units.',
    ),
  })
