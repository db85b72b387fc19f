/**
 * Which checks a request gets, decided from its method and path alone, so the gate can run
 * before the body is parsed or validated (contract: 401 → 402 → 429 → 403 → 400 → 404).
 * A pure function: tests pin it against every registered route.
 */
import type { Config } from '../config'

export type Bucket = 'orders' | 'reviews' | 'checkSlug' | 'storeReads' | 'anonymous'

export type Policy =
  | { kind: 'none' }
  | { kind: 'public'; bucket: Bucket }
  | { kind: 'key'; scope: string | null; feature?: PaidFeature }

export type PaidFeature = 'advancedAnalytics' | 'reviewModeration'

/** First path segment under /api/v1 → the resource part of its scope. */
const SCOPE_RESOURCES: Record<string, string> = {
  store: 'store',
  products: 'products',
  categories: 'categories',
  orders: 'orders',
  discounts: 'discounts',
  reviews: 'reviews',
  customers: 'customers',
  stats: 'stats',
  shipping: 'shipping',
  webhooks: 'webhooks',
}

export function policyFor(method: string, path: string): Policy {
  if (!path.startsWith('/api/') && path !== '/api') {
    return path === '/mcp' || path.startsWith('/mcp/') ? { kind: 'key', scope: null } : { kind: 'none' }
  }
  if (path === '/api/orders' && method === 'POST') return { kind: 'public', bucket: 'orders' }
  if (path === '/api/reviews' && method === 'POST') return { kind: 'public', bucket: 'reviews' }
  if (path === '/api/check-slug' && method === 'GET') return { kind: 'public', bucket: 'checkSlug' }
  if (path.startsWith('/api/v1/')) {
    const segments = path.slice(8).split('/')
    const resource = segments[0]!
    if (resource === 'stores') return method === 'GET' ? { kind: 'public', bucket: 'storeReads' } : { kind: 'public', bucket: 'anonymous' }
    const scopeResource = SCOPE_RESOURCES[resource]
    const scope = scopeResource ? `${scopeResource}:${method === 'GET' || method === 'HEAD' ? 'read' : 'write'}` : null
    // Spec 7.4: exactly these operations need a paid plan.
    let feature: PaidFeature | undefined
    if (resource === 'stats' && method === 'GET') feature = 'advancedAnalytics'
    if (resource === 'reviews' && segments.length >= 2 && segments[1] && (method === 'PUT' || method === 'DELETE')) feature = 'reviewModeration'
    return { kind: 'key', scope, feature }
  }
  return { kind: 'public', bucket: 'anonymous' }
}

/**
 * Records addressed as `/api/v1/<resource>/<id>…`: their table and name. The gate checks that
 * the record is not another store's before the body or query is validated (contract order:
 * 403 for another store's record → 400 → 404). The handlers' own ownX() checks stay.
 */
const OWNED: Record<string, { table: string; name: string; live?: string }> = {
  products: { table: 'products', name: 'product', live: 'deleted_at IS NULL' },
  categories: { table: 'categories', name: 'category' },
  orders: { table: 'orders', name: 'order' },
  discounts: { table: 'discounts', name: 'discount' },
  reviews: { table: 'reviews', name: 'review' },
  customers: { table: 'customers', name: 'customer' },
  shipping: { table: 'shipping_options', name: 'shipping option' },
  webhooks: { table: 'webhooks', name: 'webhook' },
}

/** For `/api/v1/<resource>/<id>…`: the SQL giving the record's store_id, its name and the id. */
export function ownedRecord(path: string): { sql: string; name: string; id: string } | undefined {
  if (!path.startsWith('/api/v1/')) return undefined
  const [resource, id] = path.slice(8).split('/')
  const owned = resource ? OWNED[resource] : undefined
  if (!owned || !id) return undefined
  const where = owned.live ? `id = ?1 AND ${owned.live}` : 'id = ?1'
  let decoded = id
  try {
    decoded = decodeURIComponent(id)
  } catch {
    /* a malformed escape names no record */
  }
  return { sql: `SELECT store_id FROM ${owned.table} WHERE ${where}`, name: owned.name, id: decoded }
}

export function bucketLimit(config: Config, bucket: Bucket): { limit: number; windowSec: number } {
  switch (bucket) {
    case 'orders':
      return { limit: config.rateLimitOrders, windowSec: 60 }
    case 'reviews':
      return { limit: config.rateLimitReviews, windowSec: 86_400 }
    case 'checkSlug':
      return { limit: config.rateLimitCheckSlug, windowSec: 3_600 }
    case 'storeReads':
      return { limit: config.rateLimitStoreReads, windowSec: 60 }
    case 'anonymous':
      return { limit: config.rateLimitAnonymous, windowSec: 60 }
  }
}
