import { Elysia } from 'elysia'
import { access } from '../../plugins/access'
import { data, IdParams, list, authErrors, withNotFound, routeDoc } from '../shared'
import { sendJson } from '../shared'
import { Customer, CustomerDetail, CustomerGetQuery, CustomerListQuery } from './model'
import { customerBody, listCustomers } from './service'
import { routeKey, type StoreCache } from '../../db/cache'
import type { PreRoutedRead, ValidQueries } from '../../http/pre-routed'

const doc = routeDoc('Orders')

/** What the customer routes reach besides `ctx`: the cache of the orders' list forms, the queries seen valid. */
export type CustomerRoutesPort = { cache: StoreCache; queries: ValidQueries }

const DETAIL = '/api/v1/customers/:id'

/**
 * The detail, answered before routing for a query string the route has validated
 * (http/pre-routed.ts); a missing or another store's customer throws, and the route answers it.
 */
export const customerReads: PreRoutedRead[] = [
  {
    route: DETAIL,
    contentType: 'application/json',
    query: true,
    answer: ({ ctx, id, query, cache, routeKey }) =>
      customerBody({
        ctx: ctx!,
        input: { query: { ...(query as CustomerGetQuery), id: id! }, route: routeKey },
        cache,
      }),
  },
]

export const customerRoutes = (port: CustomerRoutesPort) =>
  new Elysia({ prefix: '/api/v1/customers' })
    .use(access)
    .get('', ({ ctx, query }) => listCustomers({ ctx, input: query }), {
      access: { scope: 'customers:read' },
      query: CustomerListQuery,
      response: { 200: list(Customer), ...authErrors },
      detail: doc(
        'List customers, newest first',
        ' One customer per phone number, created by the checkout. Filters: ' +
          '`q` (name or phone substring), `createdSince`, `updatedSince`.',
      ),
    })
    .get(
      '/:id',
      ({ ctx, params, query, set, request }) => {
        const body = customerBody({
          ctx,
          input: { query: { ...query, id: params.id }, route: routeKey(request.url) },
          cache: port.cache,
        })
        port.queries.remember(DETAIL, request.url, query)
        return sendJson(set, body)
      },
      {
        access: { scope: 'customers:read', owns: 'customers' },
        params: IdParams,
        query: CustomerGetQuery,
        response: { 200: data(CustomerDetail), ...withNotFound },
        detail: doc(
          'Get a customer with their order history',
          ' `orders` is one page (list form, newest first): `ordersLimit` (default 50, ' +
            'max 100) and `ordersOffset`; `ordersCount` is the total.',
        ),
      },
    )
