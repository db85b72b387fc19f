/**
 * The gate every /api request passes before its body is parsed: body size, key (401), store
 * suspension (402), rate limit (429, the request counts), scope (403), paid plan (403
 * PLAN_REQUIRED) and another store's record (403, before the body is validated), in the
 * contract's order, as the route declared them (http/access.ts). A declared oversized body is a
 * 413 before the key is read (counted against the IP, so it too carries the rate-limit headers).
 * Public endpoints get their per-IP limit here (429 before 400). A key request that passes
 * leaves with its service `ctx`.
 */
import { and, eq, getTableColumns, isNull, sql, type Column } from 'drizzle-orm'
import type { StoreCache } from '../db/cache'
import type { RateLimiter } from '../db/rate-limiter'
import { ctxFor, type Actor, type Ctx, type CtxBase } from '../kernel/context'
import { apiKeys, type ApiKey, type Store } from '../db/schema'
import {
  Forbidden,
  OtherStore,
  PayloadTooLarge,
  PaymentRequired,
  PlanRequired,
  RateLimited,
  Unauthorized,
} from '../lib/errors'
import { hasScope } from '../lib/scopes'
import { hashKey, KEY_RE, recordKeyUse } from '../modules/keys'
import { PAID_FEATURES } from '../modules/plans'
import { getStore } from '../modules/platform-stores'
import {
  bucketLimit,
  recordName,
  type AccessTable,
  type Bucket,
  OWNED_TABLES,
  type OwnedTable,
  type PanelGated,
  type SessionGate,
} from './access'
import { limitUndeclaredBody } from './body-limit'
import { activityNote, decodeId } from './activity-note'
import { findTokenHolder, unauthorizedOnMcp } from './token-gate'

export { activityNote }
import { uploadBodyLimit } from '../modules/products'
import type { Window } from '../db/rate-limiter'

export const MAX_BODY_BYTES = 1024 * 1024
const MAX_CACHED_UNKNOWN_KEYS = 10_000

/** The store a row of an owned table belongs to, as a prepared statement. */
interface Owner {
  storeOf: { get(p: { id: string }): { storeId: unknown } | undefined }
  name: string
}

/** What the gate uses: the ctx base it builds key contexts from, the limiter and the store cache. */
export type GateDeps = CtxBase & { limiter: RateLimiter; cache: StoreCache }

export class Gate {
  private usage = new Map<string, number>()
  private usageTimer: ReturnType<typeof setInterval>
  private owners = new Map<OwnedTable, Owner>()

  constructor(
    private deps: GateDeps,
    readonly table: AccessTable,
    /** Resolves the session of /admin requests (panel/gate.ts): a key never opens the panel. */
    private sessions?: SessionGate,
  ) {
    for (const r of table.routes) {
      const owns = 'owns' in r.access ? r.access.owns : undefined
      if (owns && !this.owners.has(owns)) this.owners.set(owns, this.prepareOwner(owns))
    }
    this.usageTimer = setInterval(() => this.flushUsage(), 1000)
    this.usageTimer.unref?.()
  }

  /** `SELECT store_id FROM <table> WHERE id = ? [AND deleted_at IS NULL]`: a soft-deleted row names no record. */
  private prepareOwner(owned: OwnedTable): Owner {
    const table = OWNED_TABLES[owned]
    const deletedAt = (getTableColumns(table) as Record<string, Column | undefined>).deletedAt
    const where = and(eq(table.id, sql.placeholder('id')), deletedAt ? isNull(deletedAt) : undefined)
    // One generic statement over any owned table: Drizzle's column types can't follow a table
    // chosen at run time, so the select goes through `never`.
    const storeOf = this.deps.db
      .select({ storeId: table.storeId as never })
      .from(table as never)
      .where(where)
      .prepare()
    return { storeOf, name: recordName(owned) }
  }

  /**
   * Throws the first failing check; sets rate-limit headers on the way. Returns the service
   * ctx of a key request. `ip` may be a function: a request with a valid key never needs the
   * client address, and looking it up costs. `who` receives the key's store and prefix for
   * the request's log line, the refused requests included.
   */
  check(
    request: Request,
    path: string,
    ip: string | (() => string),
    headers: Record<string, string | number>,
    who?: { storeId?: string | null; keyPrefix?: string | null },
  ): Ctx | PanelGated | undefined {
    const { policy, id } = this.table.match(request.method, path)
    if (policy.kind === 'none') return undefined
    if (policy.kind === 'session') {
      if (!this.sessions) return undefined
      return this.sessions.check(request, policy, id, typeof ip === 'function' ? ip : () => ip, (table, rowId) =>
        this.storeOf(table, rowId),
      )
    }
    // No shared cache or browser keeps a shop's orders or customers (errors included).
    if (policy.kind === 'key') headers['cache-control'] = 'no-store'
    const length = Number(request.headers.get('content-length') ?? 0)
    const maxBody = policy.kind === 'key' && policy.upload ? uploadBodyLimit(this.deps.config) : MAX_BODY_BYTES
    const tooLarge = length > maxBody
    if (length === 0 && request.method !== 'GET' && request.method !== 'HEAD') limitUndeclaredBody(request, maxBody)

    const { cache, config, clock } = this.deps
    cache.syncExternal()

    // Every /api answer carries the rate-limit headers, 413s included, so a
    // request refused before its key is known counts against its IP like any public one.
    const hitIp = (bucket: Bucket) => {
      const w = hitPublic(this.deps, bucket, typeof ip === 'function' ? ip() : ip)
      setRateHeaders(headers, w, bucket)
      if (!w.allowed) throw new RateLimited(w.resetSec)
    }

    if (policy.kind === 'public') {
      hitIp(policy.bucket)
      if (tooLarge) throw new PayloadTooLarge(maxBody)
      return undefined
    }
    // A declared oversized body is refused before the key is even looked up.
    if (tooLarge) {
      hitIp('anonymous')
      throw new PayloadTooLarge(maxBody)
    }

    const authorization = request.headers.get('authorization')
    const key = this.findKey(authorization)
    // An assistant's OAuth token opens /mcp and the API requests its tools make, nothing else (token-gate.ts).
    const app = key ? undefined : findTokenHolder(this.deps, request, path, authorization)
    if (!app && (!key || key.revokedAt !== null || (key.expiresAt !== null && key.expiresAt <= clock.now()))) {
      // Failed attempts count against the caller's IP, so key guessing is throttled too.
      hitIp('anonymous')
      unauthorizedOnMcp(config, request, path, headers)
      throw new Unauthorized(key ? 'API key is revoked or expired' : undefined)
    }
    const store = this.findStore(app ? app.storeId : key!.storeId)
    if (!store) throw new Unauthorized()
    if (who && key) (who.storeId = store.id), (who.keyPrefix = key.prefix) // the request's log line
    const w = this.deps.limiter.hit(app ? `app:${app.grantId}` : `key:${key!.id}`, config.rateLimitKey, 60)
    setRateHeaders(headers, w, 'key')
    // 402 outranks 429, but its response still carries the key's counter.
    if (store.status === 'suspended') {
      delete headers['retry-after']
      throw new PaymentRequired(config.upgradeUrl)
    }
    if (!w.allowed) throw new RateLimited(w.resetSec)
    if (key) this.usage.set(key.id, clock.now())

    // A token's scopes are the granted ones its person's role allows now (modules/oauth/access.ts).
    const scopes = app ? app.scopes : key!.scopes.split(' ')
    if (policy.scope && !hasScope(scopes, policy.scope)) {
      const holder = app ? 'This connected app' : 'This API key'
      throw new Forbidden(`${holder} lacks the '${policy.scope}' scope`, { scope: policy.scope })
    }
    // Another store's record is a 403 before its body or query is validated,
    // and before the plan (scope/ownership → plan), so a paid route checks it whatever the method.
    // Otherwise only where validation can fail first: a body, or a query string.
    if (
      policy.owns &&
      id !== undefined &&
      (policy.feature || (request.method !== 'GET' && request.method !== 'DELETE') || request.url.includes('?'))
    ) {
      const owner = this.owners.get(policy.owns)!
      const row = owner.storeOf.get({ id: decodeId(id) })
      if (row && row.storeId !== store.id) throw new OtherStore(owner.name)
    }
    if (policy.feature && store.plan === 'free') {
      throw new PlanRequired(policy.feature, config.upgradeUrl, PAID_FEATURES[policy.feature])
    }
    const actor: Actor = app
      ? { kind: 'app', grantId: app.grantId, userId: app.userId, role: app.role }
      : { kind: 'key', keyId: key!.id }
    // A write is logged in its transaction (kernel/write.ts): who, verb and record, from the route.
    const note =
      request.method === 'GET' || request.method === 'HEAD'
        ? undefined
        : activityNote(
            request.method,
            path,
            policy.scope,
            policy.owns,
            id,
            app ? `app:${app.grantId}` : `key:${key!.prefix}`,
          )
    return ctxFor(this.deps, store, actor, note)
  }

  /** The store of an owned table's row (undefined: no such row), for the panel's id routes. */
  private storeOf(table: OwnedTable, id: string): string | undefined {
    let owner = this.owners.get(table)
    if (!owner) this.owners.set(table, (owner = this.prepareOwner(table)))
    const row = owner.storeOf.get({ id: decodeId(id) })
    return row ? String(row.storeId) : undefined
  }

  private findKey(header: string | null): ApiKey | undefined {
    if (!header?.startsWith('Bearer ')) return undefined
    const raw = header.slice(7)
    if (!KEY_RE.test(raw)) return undefined
    const hash = hashKey(raw)
    const { cache, db } = this.deps
    let key = cache.keys.get(hash)
    if (key === undefined) {
      key = db.select().from(apiKeys).where(eq(apiKeys.hash, hash)).get() ?? null
      if (key || cache.keys.size < MAX_CACHED_UNKNOWN_KEYS) cache.keys.set(hash, key)
    }
    return key ?? undefined
  }

  private findStore(id: string): Store | undefined {
    const { cache } = this.deps
    let store = cache.stores.get(id)
    if (!store) {
      store = getStore({ ctx: { db: this.deps.db }, input: { id } })
      if (store) cache.stores.set(id, store)
    }
    return store
  }

  /** lastUsedAt is written behind once a second: a write per request would halve throughput. */
  flushUsage(): void {
    if (this.usage.size === 0) return
    const entries = [...this.usage]
    this.usage.clear()
    try {
      recordKeyUse({ ctx: this.deps, input: { uses: entries } })
    } catch {
      for (const [id, at] of entries) if (!this.usage.has(id)) this.usage.set(id, at)
    }
  }

  close(): void {
    clearInterval(this.usageTimer)
    this.flushUsage()
  }
}

/**
 * Counts one request of the client (its `ipBucket`) against a public bucket. The gate calls it
 * for the public /api routes; a shop form that does what a public endpoint does (the no-script
 * review form, shop/routes.ts) calls it with the same bucket, so both paths share one budget.
 */
export function hitPublic(
  deps: { config: GateDeps['config']; limiter: Pick<RateLimiter, 'hit'> },
  bucket: Bucket,
  ip: string,
): Window {
  const { limit, windowSec } = bucketLimit(deps.config, bucket)
  return deps.limiter.hit(`ip:${bucket}:${ip}`, limit, windowSec)
}

export function setRateHeaders(headers: Record<string, string | number>, w: Window, name: string): void {
  headers['x-ratelimit-limit'] = String(w.limit)
  headers['x-ratelimit-remaining'] = String(w.remaining)
  // IETF draft-ietf-httpapi-ratelimit-headers structured fields.
  headers['ratelimit-policy'] = `"${name}";q=${w.limit};w=${w.windowSec}`
  headers.ratelimit = `"${name}";r=${w.remaining};t=${w.resetSec}`
  if (!w.allowed) headers['retry-after'] = String(w.resetSec)
}
