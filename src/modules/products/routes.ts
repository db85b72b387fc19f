import { Elysia } from 'elysia'
import { access } from '../../plugins/access'
import { authErrors, data, Deleted, IdParams, list, withConflict, withNotFound, routeDoc } from '../shared'
import { sendJson } from '../shared'
import { Product, ProductCreate, ProductListQuery, ProductUpdate } from './model'
import { cachedProductJson, productJson, productListBody } from './fragments'
import { routeKey, type StoreCache } from '../../db/cache'
import type { PreRoutedRead, ValidQueries } from '../../http/pre-routed'
import { createProduct, deleteProduct, updateProduct } from './service'

const doc = routeDoc('Catalog')
/** The content type Elysia gives a returned object: a spliced body keeps it, so the answer is unchanged. */
const OBJECT_JSON = 'application/json;charset=utf-8'
const read = { scope: 'products:read' } as const
const write = { scope: 'products:write', owns: 'products' } as const

/** What the product routes reach besides `ctx`: the cache the list's body comes from, the queries seen valid. */
export type ProductRoutesPort = { cache: StoreCache; queries: ValidQueries }

const LIST = '/api/v1/products'

/**
 * Answered before routing (http/pre-routed.ts): the list for a query string the route has
 * validated; a product by id when its fragment is cached (a miss is left to the route, which
 * checks 403 / 404 and builds it).
 */
export const productReads: PreRoutedRead[] = [
  {
    route: LIST,
    contentType: 'application/json',
    query: true,
    answer: ({ ctx, query, cache, routeKey }) =>
      productListBody({ ctx: ctx!, input: { query: query as ProductListQuery, route: routeKey }, cache }),
  },
  {
    route: `${LIST}/:id`,
    contentType: OBJECT_JSON,
    query: false,
    answer: ({ ctx, id, cache }) => cachedProductJson(ctx!, id!, cache.fragments),
  },
]

export const productRoutes = (port: ProductRoutesPort) =>
  new Elysia({ prefix: '/api/v1/products' })
    .use(access)
    .get(
      '',
      ({ ctx, query, request, set }) => {
        const body = productListBody({ ctx, input: { query, route: routeKey(request.url) }, cache: port.cache })
        port.queries.remember(LIST, request.url, query)
        return sendJson(set, body)
      },
      {
        access: read,
        query: ProductListQuery,
        response: { 200: list(Product), ...authErrors },
        detail: doc('List products, newest first', ' Active products only, unless `isActive=false` or `isActive=all`.'),
      },
    )
    .get(
      '/:id',
      ({ ctx, params, set }) =>
        sendJson(set, productJson({ ctx, input: { id: params.id }, cache: port.cache.fragments }), OBJECT_JSON),
      {
        access: { ...read, owns: 'products' },
        params: IdParams,
        response: { 200: data(Product), ...withNotFound },
        detail: doc(
          'Get a product with its active variants',
          ' An inactive product is returned; a deleted one is 404.',
        ),
      },
    )
    .post(
      '',
      ({ ctx, body, set }) => {
        set.status = 201
        return { data: createProduct({ ctx, input: body }) }
      },
      {
        access: { scope: 'products:write' },
        body: ProductCreate,
        response: { 201: data(Product), ...withConflict },
        detail: doc(
          'Create a product',
          ' `slug` derives from the name when absent; duplicate slug → 409 DUPLICATE_SLUG. Free plan: ' +
            '10 products, no variants.',
        ),
      },
    )
    .put('/:id', ({ ctx, params, body }) => ({ data: updateProduct({ ctx, input: { ...body, id: params.id } }) }), {
      access: write,
      params: IdParams,
      body: ProductUpdate,
      response: { 200: data(Product), ...withConflict },
      detail: doc(
        'Update a product (partial)',
        ' A `variants` array updates variants with an `id`, creates those without and deactivates the rest.',
      ),
    })
    .delete('/:id', ({ ctx, params }) => ({ data: deleteProduct({ ctx, input: { id: params.id } }) }), {
      access: write,
      params: IdParams,
      response: { 200: Deleted, ...withNotFound },
      detail: doc('Soft-delete a product'),
    })
