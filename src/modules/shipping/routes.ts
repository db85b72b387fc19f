import { Elysia } from 'elysia'
import { access } from '../../plugins/access'
import { authErrors, data, Deleted, IdParams, list, withNotFound, routeDoc } from '../shared'
import { ShippingCreate, ShippingListQuery, ShippingOption, ShippingUpdate } from './model'
import { createShipping, deleteShipping, getShipping, listShipping, updateShipping } from './service'

const doc = routeDoc('Store')
const write = { scope: 'shipping:write', owns: 'shippingOptions' } as const

export const shippingRoutes = new Elysia({ prefix: '/api/v1/shipping' })
  .use(access)
  .get('', ({ ctx, query }) => listShipping({ ctx, input: query }), {
    access: { scope: 'shipping:read' },
    query: ShippingListQuery,
    response: { 200: list(ShippingOption), ...authErrors },
    detail: doc('List shipping options, newest first', ' `isActive` filters (default all).'),
  })
  .get('/:id', ({ ctx, params }) => ({ data: getShipping({ ctx, input: { id: params.id } }) }), {
    access: { scope: 'shipping:read', owns: 'shippingOptions' },
    params: IdParams,
    response: { 200: data(ShippingOption), ...withNotFound },
    detail: doc('Get a shipping option'),
  })
  .post(
    '',
    ({ ctx, body, set }) => {
      set.status = 201
      return { data: createShipping({ ctx, input: body }) }
    },
    {
      access: { scope: 'shipping:write' },
      body: ShippingCreate,
      response: { 201: data(ShippingOption), ...withNotFound },
      detail: doc('Create a shipping option'),
    },
  )
  .put('/:id', ({ ctx, params, body }) => ({ data: updateShipping({ ctx, input: { ...body, id: params.id } }) }), {
    access: write,
    params: IdParams,
    body: ShippingUpdate,
    response: { 200: data(ShippingOption), ...withNotFound },
    detail: doc(
      'Update a shipping option (partial)',
      ' Orders already placed keep the name and price they were placed with.',
    ),
  })
  .delete('/:id', ({ ctx, params }) => ({ data: deleteShipping({ ctx, input: { id: params.id } }) }), {
    access: write,
    params: IdParams,
    response: { 200: Deleted, ...withNotFound },
    detail: doc('Delete a shipping option', ' Orders keep their `{ name, price }` snapshot.'),
  })
