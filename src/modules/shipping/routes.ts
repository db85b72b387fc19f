import { Elysia } from 'elysia'
import type { Deps } from '../../context'
import { ctxFor } from '../../context'
import { authed } from '../../plugins/auth'
import { authErrors, data, Deleted, IdParams, list, withNotFound, keyRouteDoc } from '../shared/model'
import { ShippingCreate, ShippingListQuery, ShippingOption, ShippingUpdate } from './model'
import { createShipping, deleteShipping, getShipping, listShipping, updateShipping } from './service'

const doc = keyRouteDoc('Store')

export const shippingRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/api/v1/shipping' })
    .use(authed(deps))
    .get('', ({ auth, query }) => listShipping(ctxFor(deps, auth.store), query), {
      query: ShippingListQuery,
      response: { 200: list(ShippingOption), ...authErrors },
      detail: doc('List shipping options, newest first', 'shipping:read', ' `isActive` filters (default all).'),
    })
    .get('/:id', ({ auth, params }) => ({ data: getShipping(ctxFor(deps, auth.store), params.id) }), {
      params: IdParams,
      response: { 200: data(ShippingOption), ...withNotFound },
      detail: doc('Get a shipping option', 'shipping:read'),
    })
    .post(
      '',
      ({ auth, body, set }) => {
        set.status = 201
        return { data: createShipping(ctxFor(deps, auth.store), body) }
      },
      {
        body: ShippingCreate,
        response: { 201: data(ShippingOption), ...withNotFound },
        detail: doc('Create a shipping option', 'shipping:write'),
      },
    )
    .put('/:id', ({ auth, params, body }) => ({ data: updateShipping(ctxFor(deps, auth.store), params.id, body) }), {
      params: IdParams,
      body: ShippingUpdate,
      response: { 200: data(ShippingOption), ...withNotFound },
      detail: doc('Update a shipping option (partial)', 'shipping:write', ' Orders already placed keep the name and price they were placed with.'),
    })
    .delete('/:id', ({ auth, params }) => ({ data: deleteShipping(ctxFor(deps, auth.store), params.id) }), {
      params: IdParams,
      response: { 200: Deleted, ...withNotFound },
      detail: doc('Delete a shipping option', 'shipping:write', ' Orders keep their `{ name, price }` snapshot.'),
    })
