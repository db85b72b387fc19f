import { Elysia } from 'elysia'
import { access } from '../../plugins/access'
import { data, IdParams, list, authErrors, withConflict, withNotFound, routeDoc } from '../shared'
import { sendJson } from '../shared'
import { Order, OrderListForm, OrderListQuery, StatusUpdate } from './model'
import { getOrder, orderListBody, updateOrderStatus } from './service'
import { routeKey, type StoreCache } from '../../db/cache'
import type { PreRoutedRead, ValidQueries } from '../../http/pre-routed'

const doc = routeDoc('Orders')
const write = { scope: 'orders:write', owns: 'orders' } as const

const STATUS_TEXT =
  ' Allowed moves: pending → confirmed → shipped → delivered; pending, confirmed or shipped → cancelled. ' +
  'Any other move, including to the current status, is 409 INVALID_STATUS_TRANSITION with `details: ' +
  '{ from, to }`; an unknown status is 400. ' +
  'Writes an `order.updated` webhook event.'

const TRACKING_TEXT =
  ' With `"shipped"`, optional `trackingNumber` (at most 100 characters) and `trackingUrl` (`https:`) ' +
  'are kept and returned as `tracking`; any other status given either is 400 naming the field (reason ' +
  '`not_allowed`).'

/** What the order routes reach besides `ctx`: the cache of the orders' list forms, the queries seen valid. */
export type OrderRoutesPort = { cache: StoreCache; queries: ValidQueries }

const LIST = '/api/v1/orders'

/** The list, answered before routing for a query string the route has validated (http/pre-routed.ts). */
export const orderReads: PreRoutedRead[] = [
  {
    route: LIST,
    contentType: 'application/json',
    query: true,
    answer: ({ ctx, query, cache, routeKey }) =>
      orderListBody({ ctx: ctx!, input: { query: query as OrderListQuery, route: routeKey }, cache }),
  },
]

export const orderRoutes = (port: OrderRoutesPort) =>
  new Elysia({ prefix: '/api/v1/orders' })
    .use(access)
    .get(
      '',
      ({ ctx, query, set, request }) => {
        const body = orderListBody({ ctx, input: { query, route: routeKey(request.url) }, cache: port.cache })
        port.queries.remember(LIST, request.url, query)
        return sendJson(set, body)
      },
      {
        access: { scope: 'orders:read' },
        query: OrderListQuery,
        response: { 200: list(OrderListForm), ...authErrors },
        detail: doc(
          'List orders, newest first',
          ' List form: no customerAddress, shippingOption, updatedAt or item ids. Filters: `status`, ' +
            '`createdSince`, `updatedSince`.',
        ),
      },
    )
    .get('/:id', ({ ctx, params }) => ({ data: getOrder({ ctx, input: { id: params.id } }) }), {
      access: { scope: 'orders:read', owns: 'orders' },
      params: IdParams,
      response: { 200: data(Order), ...withNotFound },
      detail: doc('Get an order (detail form)'),
    })
    .put(
      '/:id/status',
      ({ ctx, params, body }) => ({ data: updateOrderStatus({ ctx, input: { ...body, id: params.id } }) }),
      {
        access: write,
        params: IdParams,
        body: StatusUpdate,
        response: { 200: data(Order), ...withConflict },
        detail: doc('Change an order status', STATUS_TEXT + TRACKING_TEXT),
      },
    )
    .put('/:id', ({ ctx, params, body }) => ({ data: updateOrderStatus({ ctx, input: { ...body, id: params.id } }) }), {
      access: write,
      params: IdParams,
      body: StatusUpdate,
      response: { 200: data(Order), ...withConflict },
      detail: doc('Change an order status (alias of PUT /orders/:id/status)', STATUS_TEXT + TRACKING_TEXT),
    })
