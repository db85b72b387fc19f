import { Elysia } from 'elysia'
import { access } from '../../plugins/access'
import { authErrors, data, routeDoc } from '../shared'
import { Stats, StatsQuery } from './model'
import { getStats } from './service'

export const statsRoutes = new Elysia({ prefix: '/api/v1/stats' })
  .use(access)
  .get('', ({ ctx, query }) => ({ data: getStats({ ctx, input: query }) }), {
    access: { scope: 'stats:read', feature: 'advancedAnalytics' },
    query: StatsQuery,
    response: { 200: data(Stats), ...authErrors },
    detail: routeDoc('Store')(
      'Aggregated analytics',
      ' Period [from, to) by order creation time; both optional (ISO 8601), default all time, ' +
        'echoed back as given (null when absent). from > to → 400. Money in major units.',
    ),
  })
