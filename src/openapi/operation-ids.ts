/**
 * camelCase verb operationIds, derived from method and path so a new route gets one without
 * anyone naming it: `GET /api/v1/products` → `listProducts`, `GET …/{id}` → `getProduct`,
 * `POST` → `create…`, `PUT` → `update…`, `DELETE` → `delete…`; a nested path joins its nouns
 * (`GET /api/v1/webhooks/{id}/deliveries` → `listWebhookDeliveries`). Routes whose last word is
 * an action, or a singleton, are named in IRREGULAR.
 */

const IRREGULAR: Record<string, string> = {
  'GET /health': 'getHealth',
  'GET /api/v1/store': 'getStore',
  'PUT /api/v1/store': 'updateStore',
  'GET /api/v1/stats': 'getStats',
  'GET /api/v1/stores/{slug}': 'getStorefront',
  'GET /api/check-slug': 'checkSlug',
  'POST /api/billing/events': 'receiveBillingEvent',
  'POST /api/v1/webhooks/{id}/rotate-secret': 'rotateWebhookSecret',
  'POST /api/v1/webhooks/{id}/deliveries/{deliveryId}/retry': 'retryWebhookDelivery',
  'PUT /api/v1/reviews/{id}/moderate': 'moderateReview',
}

/** Path words whose singular or plural is not the plain `s`/`ies` rule. */
const NOUNS: Record<string, { one: string; many: string }> = {
  shipping: { one: 'ShippingOption', many: 'ShippingOptions' },
  status: { one: 'Status', many: 'Statuses' },
}

const pascal = (word: string) =>
  word
    .split(/[-_]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('')

function noun(segment: string): { one: string; many: string } {
  const known = NOUNS[segment]
  if (known) return known
  const one = segment.endsWith('ies')
    ? `${segment.slice(0, -3)}y`
    : segment.endsWith('s')
      ? segment.slice(0, -1)
      : segment
  return { one: pascal(one), many: pascal(segment) }
}

export function operationIdFor(method: string, path: string): string {
  const m = method.toUpperCase()
  const irregular = IRREGULAR[`${m} ${path}`]
  if (irregular) return irregular
  const segments = path
    .replace(/^\/api(\/v1)?(?=\/)/, '')
    .split('/')
    .filter(Boolean)
  const words = segments.filter((s) => !s.startsWith('{'))
  const endsWithParam = segments.at(-1)?.startsWith('{') ?? false
  const nouns = words.map(noun)
  const head = nouns
    .slice(0, -1)
    .map((n) => n.one)
    .join('')
  const last = nouns.at(-1) ?? { one: 'Root', many: 'Root' }
  const one = head + last.one
  switch (m) {
    case 'GET':
      return endsWithParam ? `get${one}` : `list${head}${last.many}`
    case 'POST':
      return `create${one}`
    case 'PUT':
    case 'PATCH':
      return `update${one}`
    case 'DELETE':
      return `delete${one}`
    default:
      return `${m.toLowerCase()}${one}`
  }
}
