/**
 * Access as each route declares it (`{ access: … }`, plugins/access.ts), compiled at startup
 * into a method + path table. The gate matches a request against it before the body is parsed,
 * so the order of checks (docs/api.md) holds (401 → 402 → 429 → 403 → 400 → 404). The OpenAPI
 * text, the MCP tool metadata and the protected-route tests read the same declarations.
 */
import { getTableName, type Column, type Table } from 'drizzle-orm'
import type { Config } from '../config'
import {
  apiKeys,
  categories,
  customers,
  discounts,
  invitations,
  memberships,
  oauthGrants,
  orders,
  products,
  reviews,
  shippingOptions,
  webhooks,
} from '../db/schema'
import type { Scope } from '../lib/scopes'
import type { PaidFeature } from '../modules/plans'
import type { PanelNeed } from '../modules/people'

export type Bucket = 'orders' | 'reviews' | 'checkSlug' | 'storeReads' | 'anonymous'

/**
 * The tables whose rows belong to a store, by the name a route's `owns` gives: the gate can tell
 * another store's record by its id. Routes name them (`owns: 'products'`) rather than import
 * the schema: adapters call verbs and never hold a table.
 */
export const OWNED_TABLES = {
  apiKeys,
  categories,
  customers,
  discounts,
  invitations,
  memberships,
  oauthGrants,
  orders,
  products,
  reviews,
  shippingOptions,
  webhooks,
} satisfies Record<string, Table & { id: Column; storeId: Column }>

export type OwnedTable = keyof typeof OWNED_TABLES

export type Access =
  /**
   * An API key with `scope`; `owns`: the `:id` names a row of this table; `feature`: paid plans
   * only; `upload`: the body is a media upload, held to MEDIA_MAX_BYTES instead of 1 MiB.
   */
  | { scope: Scope; owns?: OwnedTable; feature?: PaidFeature; upload?: true }
  /** Any valid API key (/mcp: each tool call is an API request checked on its own). */
  | { key: 'any' }
  /** No key; limited per client IP in `bucket`. */
  | { public: Bucket }
  /**
   * A panel page or action (/admin): a session cookie, never a key; `panel` is what the person's
   * role must grant (modules/people/roles.ts); `owns` as for keys; `upload`: the body is the
   * picture form's files, held to the panel's upload limit instead of 1 MiB.
   */
  | { panel: PanelNeed; owns?: OwnedTable; upload?: true }

export type Policy =
  | { kind: 'none' }
  | { kind: 'public'; bucket: Bucket }
  | { kind: 'key'; scope: Scope | null; feature?: PaidFeature; owns?: OwnedTable; upload?: true }
  | SessionPolicy

export type SessionPolicy = { kind: 'session'; need: PanelNeed; owns?: OwnedTable; upload?: true }

/**
 * How the gate checks a panel request (panel/gate.ts): the request's panel context, or a page
 * that ends the request (sign in first, 403, 402). `storeOf` names the store of an owned record.
 */
export interface SessionGate {
  check(
    request: Request,
    policy: SessionPolicy,
    id: string | undefined,
    ip: () => string,
    storeOf: (table: OwnedTable, id: string) => string | undefined,
  ): PanelGated
}
/** What a panel request leaves the gate with. */
export type PanelGated = { readonly panel: true } | Response

export interface DeclaredRoute {
  method: string
  path: string
  access: Access
}

/** The hook property the access macro leaves on a route (plugins/access.ts). */
export const DECLARED = 'accessDeclared'

export const policyOf = (a: Access): Policy => {
  if ('public' in a) return { kind: 'public', bucket: a.public }
  if ('key' in a) return { kind: 'key', scope: null }
  if ('panel' in a) {
    const s: SessionPolicy = { kind: 'session', need: a.panel }
    if (a.owns) s.owns = a.owns
    if (a.upload) s.upload = true
    return s
  }
  const p: Policy = { kind: 'key', scope: a.scope }
  if (a.feature) p.feature = a.feature
  if (a.owns) p.owns = a.owns
  if (a.upload) p.upload = true
  return p
}

/** Paths whose every route must declare its access: a route there without one stops the start. */
const mustDeclare = (path: string) =>
  path === '/api' ||
  path.startsWith('/api/') ||
  path === '/mcp' ||
  path.startsWith('/mcp/') ||
  path === '/admin' ||
  path.startsWith('/admin/')

/** The declared routes of an app's (or plugins') route list; throws naming an undeclared one. */
export function declaredRoutes(routes: readonly { method: string; path: string; hooks: unknown }[]): DeclaredRoute[] {
  const out: DeclaredRoute[] = []
  for (const r of routes) {
    const access = (r.hooks as Record<string, Access | undefined> | undefined)?.[DECLARED]
    if (!access) {
      if (mustDeclare(r.path))
        throw new Error(`${r.method} ${r.path} declares no access: add { access: … } to the route`)
      continue
    }
    out.push({ method: r.method, path: normalize(r.path), access })
  }
  return out
}

const normalize = (path: string) => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path)

interface Node {
  fixed: Map<string, Node>
  param?: Node
  /** Method → policy of the route ending here. */
  policies?: Map<string, Policy>
}
const node = (): Node => ({ fixed: new Map() })

export interface Match {
  policy: Policy
  /** The raw first path parameter (`:id`), when the route has one. */
  id?: string
}

const NONE: Match = { policy: { kind: 'none' } }
const KEY_ONLY: Match = { policy: { kind: 'key', scope: null } }
const ANONYMOUS: Match = { policy: { kind: 'public', bucket: 'anonymous' } }
/** An /admin path no route declares: the panel answers it as a page (its 404), never with a key's rules. */
const PANEL_PAGE: Match = { policy: { kind: 'session', need: 'anonymous' } }

export class AccessTable {
  /** Routes without parameters, by `METHOD path`: most requests end here. */
  private fixed = new Map<string, Match>()
  private root = node()

  constructor(readonly routes: readonly DeclaredRoute[]) {
    for (const r of routes) {
      const policy = policyOf(r.access)
      if (!r.path.includes(':')) this.fixed.set(`${r.method} ${r.path}`, { policy })
      let n = this.root
      for (const seg of r.path.split('/').slice(1)) {
        if (seg.startsWith(':')) n = n.param ??= node()
        else {
          let next = n.fixed.get(seg)
          if (!next) n.fixed.set(seg, (next = node()))
          n = next
        }
      }
      ;(n.policies ??= new Map()).set(r.method, policy)
    }
  }

  /** The declared route a parameterless path is (its pattern is the path), for the request log. */
  fixedRoute(method: string, rawPath: string): string | undefined {
    const path = normalize(rawPath)
    return this.fixed.has(`${method} ${path}`) ? path : undefined
  }

  /** The checks a request gets, from its method and path alone. */
  match(method: string, rawPath: string): Match {
    const m = method === 'HEAD' ? 'GET' : method
    const path = normalize(rawPath)
    const hit = this.fixed.get(`${m} ${path}`)
    if (hit) return hit
    const segs = path.split('/')
    let n: Node | undefined = this.root
    let id: string | undefined
    for (let i = 1; i < segs.length && n; i++) {
      const seg = segs[i]!
      const next: Node | undefined = n.fixed.get(seg)
      if (next) n = next
      else {
        if (n.param && id === undefined) id = seg
        n = n.param
      }
    }
    const policy = n?.policies?.get(m)
    if (policy) return { policy, id }
    return fallback(path, n?.policies)
  }
}

/**
 * A request no route declares (an unknown path or method): it fails closed under /api/v1 and
 * /mcp (a key is needed even to learn it is a 404), unless its path is a public route's; other
 * /api paths are limited like anonymous callers.
 */
function fallback(path: string, samePath: Map<string, Policy> | undefined): Match {
  if (samePath && [...samePath.values()].every((p) => p.kind === 'public')) return ANONYMOUS
  if (path === '/admin' || path.startsWith('/admin/')) return PANEL_PAGE
  if (path.startsWith('/api/v1/') || path === '/mcp' || path.startsWith('/mcp/')) return KEY_ONLY
  if (path === '/api' || path.startsWith('/api/')) return ANONYMOUS
  return NONE
}

/** `products` → product, `shippingOptions` → shipping option: how a 403 names a record. */
export function recordName(owned: OwnedTable): string {
  const name = getTableName(OWNED_TABLES[owned]).replace(/_/g, ' ')
  return name.endsWith('ies') ? `${name.slice(0, -3)}y` : name.replace(/s$/, '')
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
