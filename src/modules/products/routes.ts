import { Elysia } from 'elysia'
import type { Deps } from '../../context'
import { ctxFor } from '../../context'
import { authed } from '../../plugins/auth'
import { authErrors, data, Deleted, IdParams, list, withConflict, withNotFound, keyRouteDoc } from '../shared/model'
import { sendJson } from '../shared/query'
import { Product, ProductCreate, ProductListQuery, ProductUpdate } from './model'
import { createProduct, deleteProduct, getProduct, listProducts, updateProduct } from './service'

const doc = keyRouteDoc('Catalog')

// Bodies declare `parse: 'json'`: a global parser hook given as a function (the body-size
// limit) hides the content type from the OpenAPI generator, which then documents no request body.
export const productRoutes = (deps: Deps) =>
  new Elysia({ prefix: '/api/v1/products' })
    .use(authed(deps))
    .get(
      '',
      ({ auth, query, request, set }) => {
        // Lists are served from the store's cache until a write to the store drops it.
        const key = `products${request.url.slice(request.url.indexOf('?') >>> 0)}`
        let body = deps.cache.getResponse(auth.store.id, key)
        if (!body) {
          body = new Blob([JSON.stringify(listProducts(ctxFor(deps, auth.store), query))])
          deps.cache.setResponse(auth.store.id, key, body)
        }
        return sendJson(set, body)
      },
      {
        query: ProductListQuery,
        response: { 200: list(Product), ...authErrors },
        detail: doc('List products, newest first', 'products:read', ' Active products only, unless `isActive=false` or `isActive=all`.'),
      },
    )
    .get('/:id', ({ auth, params }) => ({ data: getProduct(ctxFor(deps, auth.store), params.id) }), {
      params: IdParams,
      response: { 200: data(Product), ...withNotFound },
      detail: doc('Get a product with its active variants', 'products:read', ' An inactive product is returned; a deleted one is 404.'),
    })
    .post(
      '',
      ({ auth, body, set }) => {
        set.status = 201
        return { data: createProduct(ctxFor(deps, auth.store), body) }
      },
      {
        parse: 'json',
        body: ProductCreate,
        response: { 201: data(Product), ...withConflict },
        detail: doc('Create a product', 'products:write', ' `slug` derives from the name when absent; duplicate slug → 409 DUPLICATE_SLUG. Free plan: 10 products, no variants.'),
      },
    )
    .put('/:id', ({ auth, params, body }) => ({ data: updateProduct(ctxFor(deps, auth.store), params.id, body) }), {
      params: IdParams,
      parse: 'json',
      body: ProductUpdate,
      response: { 200: data(Product), ...withConflict },
      detail: doc('Update a product (partial)', 'products:write', ' A `variants` array updates variants with an `id`, creates those without and deactivates the rest.'),
    })
    .delete('/:id', ({ auth, params }) => ({ data: deleteProduct(ctxFor(deps, auth.store), params.id) }), {
      params: IdParams,
      response: { 200: Deleted, ...withNotFound },
      detail: doc('Soft-delete a product', 'products:write'),
    })
