/**
 * The gate every /api request passes before its body is parsed: body size, key (401), store
 * suspension (402), rate limit (429, the request counts), scope (403) and paid plan (403
 * PLAN_REQUIRED), in the contract's order. Public endpoints get their per-IP limit here (429
 * before 400). The authenticated key and store are kept for the handler in a WeakMap.
 */
import { eq } from 'drizzle-orm'
import type { Deps } from '../context'
import { apiKeys, stores, type ApiKey, type Store } from '../db/schema'
import { Forbidden, PayloadTooLarge, PaymentRequired, PlanRequired, RateLimited, Unauthorized } from '../lib/errors'
import { hasScope } from '../lib/scopes'
import { hashKey, KEY_RE } from '../modules/keys/service'
import { bucketLimit, policyFor, type PaidFeature } from './policy'
import { limitUndeclaredBody } from './body-limit'
import type { Window } from './rate-limiter'

export const MAX_BODY_BYTES = 1024 * 1024
const MAX_CACHED_UNKNOWN_KEYS = 10_000

const FEATURE_TEXT: Record<PaidFeature, string> = {
  advancedAnalytics: 'Statistics need a Pro or Lifetime plan',
  reviewModeration: 'Review moderation needs a Pro or Lifetime plan',
}

export class Gate {
  private usage = new Map<string, number>()
  private usageTimer: ReturnType<typeof setInterval>
  private storeById

  constructor(private deps: Deps) {
    this.usageTimer = setInterval(() => this.flushUsage(), 1000)
    this.usageTimer.unref?.()
    this.storeById = (id: string) => deps.db.select().from(stores).where(eq(stores.id, id)).get()
  }

  /**
   * Throws the first failing check; sets rate-limit headers on the way. `ip` may be a function:
   * a request with a valid key never needs the client address, and looking it up costs.
   */
  check(request: Request, path: string, ip: string | (() => string), headers: Record<string, string | number>): void {
    const policy = policyFor(request.method, path)
    if (policy.kind === 'none') return
    const length = Number(request.headers.get('content-length') ?? 0)
    if (length > MAX_BODY_BYTES) throw new PayloadTooLarge(MAX_BODY_BYTES)
    if (length === 0 && request.method !== 'GET' && request.method !== 'HEAD') limitUndeclaredBody(request, MAX_BODY_BYTES)

    const { cache, config, clock } = this.deps
    cache.syncExternal()

    if (policy.kind === 'public') {
      const { limit, windowSec } = bucketLimit(config, policy.bucket)
      const w = this.deps.limiter.hit(`ip:${policy.bucket}:${typeof ip === 'function' ? ip() : ip}`, limit, windowSec)
      setRateHeaders(headers, w, policy.bucket)
      if (!w.allowed) throw new RateLimited(w.resetSec)
      return
    }

    const key = this.findKey(request.headers.get('authorization'))
    if (!key || key.revokedAt !== null || (key.expiresAt !== null && key.expiresAt <= clock.now())) {
      // Failed attempts count against the caller's IP, so key guessing is throttled too.
      const { limit, windowSec } = bucketLimit(config, 'anonymous')
      const w = this.deps.limiter.hit(`ip:anonymous:${typeof ip === 'function' ? ip() : ip}`, limit, windowSec)
      setRateHeaders(headers, w, 'anonymous')
      if (!w.allowed) throw new RateLimited(w.resetSec)
      throw new Unauthorized(key ? 'API key is revoked or expired' : undefined)
    }
    const store = this.findStore(key.storeId)
    if (!store) throw new Unauthorized()
    const w = this.deps.limiter.hit(`key:${key.id}`, config.rateLimitKey, 60)
    setRateHeaders(headers, w, 'key')
    // 402 outranks 429 (contract order), but its response still carries the key's counter.
    if (store.status === 'suspended') {
      delete headers['retry-after']
      throw new PaymentRequired(config.upgradeUrl)
    }
    if (!w.allowed) throw new RateLimited(w.resetSec)
    this.usage.set(key.id, clock.now())

    const scopes = key.scopes.split(' ')
    if (policy.scope && !hasScope(scopes, policy.scope)) {
      throw new Forbidden(`This API key lacks the '${policy.scope}' scope`, { scope: policy.scope })
    }
    if (policy.feature && store.plan === 'free') {
      throw new PlanRequired(policy.feature, config.upgradeUrl, FEATURE_TEXT[policy.feature])
    }
    this.deps.auths.set(request, { key, store, scopes })
  }

  private findKey(header: string | null): ApiKey | undefined {
    if (!header || !header.startsWith('Bearer ')) return undefined
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
      store = this.storeById(id)
      if (store) cache.stores.set(id, store)
    }
    return store
  }

  /** lastUsedAt is written behind once a second: a write per request would halve throughput. */
  flushUsage(): void {
    if (this.usage.size === 0) return
    const entries = [...this.usage]
    this.usage.clear()
    const stmt = this.deps.db.$client.prepare('UPDATE api_keys SET last_used_at = ?1 WHERE id = ?2')
    try {
      this.deps.db.$client.transaction(() => {
        for (const [id, at] of entries) stmt.run(at, id)
      })()
    } catch {
      for (const [id, at] of entries) if (!this.usage.has(id)) this.usage.set(id, at)
    }
  }

  close(): void {
    clearInterval(this.usageTimer)
    this.flushUsage()
  }
}

function setRateHeaders(headers: Record<string, string | number>, w: Window, name: string): void {
  headers['x-ratelimit-limit'] = String(w.limit)
  headers['x-ratelimit-remaining'] = String(w.remaining)
  // IETF draft-ietf-httpapi-ratelimit-headers structured fields.
  headers['ratelimit-policy'] = `"${name}";q=${w.limit};w=${w.windowSec}`
  headers['ratelimit'] = `"${name}";r=${w.remaining};t=${w.resetSec}`
  if (!w.allowed) headers['retry-after'] = String(w.resetSec)
}
