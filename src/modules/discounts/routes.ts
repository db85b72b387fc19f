import { Elysia } from 'elysia'
import type { Deps } from '../../context'
import { ctxFor } from '../../context'
import { authed } from '../../plugins/auth'
import { authErrors, data, Deleted, IdParams, list, withConflict, withNotFound, keyRouteDoc } from '../shared/model'
import { Discount, DiscountCreate, DiscountListQuery, DiscountUpdate } from './model'
import { createDiscount, deleteDiscount, getDiscount, listDiscounts, updateDiscount } from './service'

const doc = keyRouteDoc('Store')

export const discountRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/api/v1/discounts' })
    .use(authed(deps))
    .get('', ({ auth, query }) => listDiscounts(ctxFor(deps, auth.store), query), {
      query: DiscountListQuery,
      response: { 200: list(Discount), ...authErrors },
      detail: doc('List discounts, newest first', 'discounts:read', ' `isActive` filters (default all).'),
    })
    .get('/:id', ({ auth, params }) => ({ data: getDiscount(ctxFor(deps, auth.store), params.id) }), {
      params: IdParams,
      response: { 200: data(Discount), ...withNotFound },
      detail: doc('Get a discount', 'discounts:read'),
    })
    .post(
      '',
      ({ auth, body, set }) => {
        set.status = 201
        return { data: createDiscount(ctxFor(deps, auth.store), body) }
      },
      {
        body: DiscountCreate,
        response: { 201: data(Discount), ...withConflict },
        detail: doc('Create a discount', 'discounts:write', ' Codes are unique per store ignoring case (409 DUPLICATE_CODE). `percentage` value in (0, 100] with up to 2 decimals; `fixed` value > 0 in the store currency.'),
      },
    )
    .put('/:id', ({ auth, params, body }) => ({ data: updateDiscount(ctxFor(deps, auth.store), params.id, body) }), {
      params: IdParams,
      body: DiscountUpdate,
      response: { 200: data(Discount), ...withConflict },
      detail: doc('Update a discount (partial)', 'discounts:write', ' The value is re-checked against the resulting type. `usedCount` is read-only.'),
    })
    .delete('/:id', ({ auth, params }) => ({ data: deleteDiscount(ctxFor(deps, auth.store), params.id) }), {
      params: IdParams,
      response: { 200: Deleted, ...withNotFound },
      detail: doc('Delete a discount', 'discounts:write', ' Orders that used it keep their code and amount.'),
    })
