/**
 * A client written against the types openapi-typescript generates from /docs/json (as
 * docs/openapi.md shows): list the products, place an order for the first one, confirm it.
 * scripts/check-openapi-client.ts typechecks it with TypeScript 5 against freshly generated
 * types; tests/openapi/client.test.ts runs it against the service.
 *
 * `./api` is generated (`openapi-typescript …/docs/json -o api.d.ts`), never committed.
 */
import createClient from 'openapi-fetch'
import type { components, paths } from './api'

type Product = components['schemas']['Product']
type Order = components['schemas']['Order']

export interface Shop {
  baseUrl: string
  apiKey: string
  storeId: string
  fetch?: (request: Request) => Promise<Response>
}

export async function listOrderAndConfirm(shop: Shop): Promise<{ products: number; order: Order; units: number }> {
  const owner = createClient<paths>({ baseUrl: shop.baseUrl, headers: { authorization: `Bearer ${shop.apiKey}` }, fetch: shop.fetch })
  const customer = createClient<paths>({ baseUrl: shop.baseUrl, fetch: shop.fetch })

  const listed = await owner.GET('/api/v1/products', { params: { query: { limit: 10, isActive: 'true' } } })
  if (!listed.data) throw new Error(`listProducts: ${listed.error?.error}`)
  const product: Product | undefined = listed.data.data[0]
  if (!product) throw new Error('the store has no products')
  const variant = product.variants[0]
  const quantity: number = 2

  const placed = await customer.POST('/api/orders', {
    params: { header: { 'idempotency-key': crypto.randomUUID() } },
    body: {
      storeId: shop.storeId,
      name: 'Ana Pérez',
      phone: '+51 987 654 321',
      items: [variant ? { variantId: variant.id, quantity } : { productId: product.id, quantity }],
    },
  })
  if (!placed.data) throw new Error(`createOrder: ${placed.response.status} ${placed.error?.error}`)
  const replayed: string | null = placed.response.headers.get('Idempotent-Replayed')
  if (replayed) throw new Error('a new key never replays')

  const moved = await owner.PUT('/api/v1/orders/{id}/status', { params: { path: { id: placed.data.id } }, body: { status: 'confirmed' } })
  if (!moved.data) throw new Error(`updateOrderStatus: ${moved.error?.error}`)
  const order: Order = moved.data.data

  // Integers are numbers: arithmetic on them typechecks.
  const units = order.items.reduce((sum, item) => sum + item.quantity, 0)
  return { products: listed.data.total + 0, order, units }
}
