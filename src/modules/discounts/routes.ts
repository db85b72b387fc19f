import { Elysia } from 'elysia'
import { access } from '../../plugins/access'
import { authErrors, data, Deleted, IdParams, list, withConflict, withNotFound, routeDoc } from '../shared'
import { Discount, DiscountCreate, DiscountListQuery, DiscountUpdate } from './model'
import { createDiscount, deleteDiscount, getDiscount, listDiscounts, updateDiscount } from './service'

const doc = routeDoc('Store')
const write = { scope: 'discounts:write', owns: 'discounts' } as const

export const discountRoutes = new Elysia({ prefix: '/api/v1/discounts' })
  .use(access)
  .get('', ({ ctx, query }) => listDiscounts({ ctx, input: query }), {
    access: { scope: 'discounts:read' },
    query: DiscountListQuery,
    response: { 200: list(Discount), ...authErrors },
    detail: doc('List discounts, newest first', ' `isActive` filters (default all).'),
  })
  .get('/:id', ({ ctx, params }) => ({ data: getDiscount({ ctx, input: { id: params.id } }) }), {
    access: { scope: 'discounts:read', owns: 'discounts' },
    params: IdParams,
    response: { 200: data(Discount), ...withNotFound },
    detail: doc('Get a discount'),
  })
  .post(
    '',
    ({ ctx, body, set }) => {
      set.status = 201
      return { data: createDiscount({ ctx, input: body }) }
    },
    {
      access: { scope: 'discounts:write' },
      body: DiscountCreate,
      response: { 201: data(Discount), ...withConflict },
      detail: doc(
        'Create a discount',
        ' Codes are unique per store ignoring case (409 DUPLICATE_CODE). `percentage` value in (0, ' +
          '100] with up to 2 decimals; `fixed` value > 0 in the store currency.',
      ),
    },
  )
  .put('/:id', ({ ctx, params, body }) => ({ data: updateDiscount({ ctx, input: { ...body, id: params.id } }) }), {
    access: write,
    params: IdParams,
    body: DiscountUpdate,
    response: { 200: data(Discount), ...withConflict },
    detail: doc(
      'Update a discount (partial)',
      ' The value is re-checked against the resulting type. `usedCount` is read-only.',
    ),
  })
  .delete('/:id', ({ ctx, params }) => ({ data: deleteDiscount({ ctx, input: { id: params.id } }) }), {
    access: write,
    params: IdParams,
    response: { 200: Deleted, ...withNotFound },
    detail: doc('Delete a discount', ' Orders that used it keep their code and amount.'),
  })
