import { Elysia } from 'elysia'
import type { Deps } from '../../context'
import { ctxFor } from '../../context'
import { authed } from '../../plugins/auth'
import { data, IdParams, list, authErrors, withConflict, withNotFound, keyRouteDoc } from '../shared/model'
import { Order, OrderListForm, OrderListQuery, StatusUpdate } from './model'
import { getOrder, listOrders, updateOrderStatus } from './service'

const doc = keyRouteDoc('Orders')

const STATUS_TEXT =
  ' Allowed moves: pending → confirmed → shipped → delivered; pending, confirmed or shipped → cancelled. ' +
  'Any other move, including to the current status, is 409 INVALID_STATUS_TRANSITION with `details: { from, to }`; an unknown status is 400. ' +
  'Writes an `order.updated` webhook event.'

export const orderRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/api/v1/orders' })
    .use(authed(deps))
    .get('', ({ auth, query }) => listOrders(ctxFor(deps, auth.store), query), {
      query: OrderListQuery,
      response: { 200: list(OrderListForm), ...authErrors },
      detail: doc('List orders, newest first', 'orders:read', ' List form (spec 2.2): no customerAddress, shippingOption, updatedAt or item ids. Filters: `status`, `createdSince`, `updatedSince`.'),
    })
    .get('/:id', ({ auth, params }) => ({ data: getOrder(ctxFor(deps, auth.store), params.id) }), {
      params: IdParams,
      response: { 200: data(Order), ...withNotFound },
      detail: doc('Get an order (detail form)', 'orders:read'),
    })
    .put('/:id/status', ({ auth, params, body }) => ({ data: updateOrderStatus(ctxFor(deps, auth.store), params.id, body.status) }), {
      params: IdParams,
      body: StatusUpdate,
      response: { 200: data(Order), ...withConflict },
      detail: doc('Change an order status', 'orders:write', STATUS_TEXT),
    })
    .put('/:id', ({ auth, params, body }) => ({ data: updateOrderStatus(ctxFor(deps, auth.store), params.id, body.status) }), {
      params: IdParams,
      body: StatusUpdate,
      response: { 200: data(Order), ...withConflict },
      detail: doc('Change an order status (alias of PUT /orders/:id/status)', 'orders:write', STATUS_TEXT),
    })
