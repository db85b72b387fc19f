import { Elysia } from 'elysia'
import type { Deps } from '../../context'
import { ctxFor } from '../../context'
import { authed } from '../../plugins/auth'
import { data, IdParams, list, authErrors, withNotFound, keyRouteDoc } from '../shared/model'
import { Customer, CustomerDetail, CustomerGetQuery, CustomerListQuery } from './model'
import { getCustomer, listCustomers } from './service'

const doc = (summary: string, extra = '') => keyRouteDoc('Orders')(summary, 'customers:read', extra)

export const customerRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/api/v1/customers' })
    .use(authed(deps))
    .get('', ({ auth, query }) => listCustomers(ctxFor(deps, auth.store), query), {
      query: CustomerListQuery,
      response: { 200: list(Customer), ...authErrors },
      detail: doc('List customers, newest first', ' One customer per phone number, created by the checkout. Filters: `q` (name or phone substring), `createdSince`, `updatedSince`.'),
    })
    .get('/:id', ({ auth, params, query }) => ({ data: getCustomer(ctxFor(deps, auth.store), params.id, query) }), {
      params: IdParams,
      query: CustomerGetQuery,
      response: { 200: data(CustomerDetail), ...withNotFound },
      detail: doc('Get a customer with their order history', ' `orders` is one page (list form, newest first): `ordersLimit` (default 50, max 100) and `ordersOffset`; `ordersCount` is the total.'),
    })
