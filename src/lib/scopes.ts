/** The API key scopes (docs/api.md). GET needs `:read`; POST/PUT/DELETE need `:write`. `all` grants every scope. */
export const SCOPES = [
  'store:read',
  'store:write',
  'products:read',
  'products:write',
  'categories:read',
  'categories:write',
  'orders:read',
  'orders:write',
  'discounts:read',
  'discounts:write',
  'reviews:read',
  'reviews:write',
  'customers:read',
  'stats:read',
  'shipping:read',
  'shipping:write',
  'webhooks:read',
  'webhooks:write',
] as const
export type Scope = (typeof SCOPES)[number]

const KNOWN = new Set<string>(SCOPES)
export const isScope = (s: string): s is Scope => KNOWN.has(s)

/** Pure and fail-closed: an unknown or empty grant matches nothing. */
export function hasScope(granted: readonly string[], needed: string): boolean {
  if (!isScope(needed)) return false
  return granted.includes('all') || granted.includes(needed)
}

/** "a:read,b:write" or "all" → list; throws with the bad names. */
export function parseScopes(input: string): string[] {
  const list = input.split(/[\s,]+/).filter(Boolean)
  if (list.length === 1 && list[0] === 'all') return ['all']
  const bad = list.filter((s) => !isScope(s))
  if (bad.length || list.length === 0)
    throw new Error(`Unknown scopes: ${bad.join(', ') || '(none given)'}. Known: all, ${SCOPES.join(', ')}`)
  return [...new Set(list)]
}
