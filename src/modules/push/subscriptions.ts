/**
 * A person's devices and what they want to be told about. A subscription is the browser's
 * (`PushManager.subscribe`): its endpoint must pass the webhooks' SSRF rules (a public https
 * address; PUSH_ALLOW_PRIVATE=1 also allows http and private addresses, for tests), and its keys
 * must be what RFC 8291 needs (a 65-byte P-256 point, a 16-byte secret). The same endpoint
 * again — the browser re-subscribing, or another person signing in on it — updates its row.
 */
import { and, eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { pushPreferences, pushSubscriptions } from '../../db/schema'
import { createId } from '../../lib/cuid'
import type { SecretBox } from '../../lib/secret-box'
import { checkWebhookUrl, type Lookup } from '../../lib/ssrf'
import type { Clock } from '../../lib/time'

export interface PushCtx {
  db: Db
  clock: Clock
  secretBox: SecretBox
  config: { pushAllowPrivate: boolean }
  lookup?: Lookup
}

export interface SubscriptionInput {
  endpoint?: unknown
  keys?: { p256dh?: unknown; auth?: unknown } | unknown
}

/** A subscription the service can't use; `field` names the part, `problem` what is wrong with it. */
export class PushInputError extends Error {
  constructor(
    readonly field: 'endpoint' | 'keys.p256dh' | 'keys.auth',
    readonly problem: 'invalid' | 'refused',
    message: string,
  ) {
    super(message)
  }
}

const b64urlBytes = (v: unknown): number => {
  if (typeof v !== 'string' || !/^[A-Za-z0-9_-]+={0,2}$/.test(v)) return -1
  return Buffer.from(v, 'base64url').length
}

/** Saves the browser's subscription for `userId`; returns its id (the same one for the same endpoint). */
export async function subscribe(
  ctx: PushCtx,
  userId: string,
  input: SubscriptionInput,
  userAgent: string | null,
): Promise<string> {
  const endpoint = typeof input.endpoint === 'string' ? input.endpoint : ''
  if (!endpoint || endpoint.length > 2048)
    throw new PushInputError('endpoint', 'invalid', 'endpoint must be the push service URL')
  const check = await checkWebhookUrl(endpoint, { allowPrivate: ctx.config.pushAllowPrivate })
  if (!check.ok || (!ctx.config.pushAllowPrivate && check.url.protocol !== 'https:'))
    throw new PushInputError('endpoint', 'refused', 'endpoint must be an https address on the public internet')
  const keys = (input.keys ?? {}) as { p256dh?: unknown; auth?: unknown }
  if (b64urlBytes(keys.p256dh) !== 65)
    throw new PushInputError('keys.p256dh', 'invalid', 'keys.p256dh must be a P-256 public key (65 bytes, base64url)')
  if (b64urlBytes(keys.auth) !== 16)
    throw new PushInputError('keys.auth', 'invalid', 'keys.auth must be 16 bytes, base64url')
  const now = ctx.clock.now()
  const auth = ctx.secretBox.seal(keys.auth as string, endpoint)
  const values = { userId, p256dh: keys.p256dh as string, auth, userAgent, updatedAt: now }
  const [row] = ctx.db
    .insert(pushSubscriptions)
    .values({ id: createId(), endpoint, createdAt: now, ...values })
    .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: values })
    .returning({ id: pushSubscriptions.id })
    .all()
  return row!.id
}

/** Forgets one of the person's devices; false when it is not theirs (or not there). */
export function unsubscribe(ctx: Pick<PushCtx, 'db'>, userId: string, id: string): boolean {
  return (
    ctx.db
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.userId, userId)))
      .returning({ id: pushSubscriptions.id })
      .all().length > 0
  )
}

export interface Device {
  id: string
  endpoint: string
  userAgent: string | null
  createdAt: number
}

export function devicesOf(ctx: Pick<PushCtx, 'db'>, userId: string): Device[] {
  return ctx.db
    .select({
      id: pushSubscriptions.id,
      endpoint: pushSubscriptions.endpoint,
      userAgent: pushSubscriptions.userAgent,
      createdAt: pushSubscriptions.createdAt,
    })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(pushSubscriptions.createdAt)
    .all()
}

export const PREFERENCES = ['newOrders', 'reviews', 'lowStock', 'webhookDisabled'] as const
export type Preference = (typeof PREFERENCES)[number]
export type Preferences = Record<Preference, boolean>
const DEFAULTS: Preferences = { newOrders: true, reviews: false, lowStock: false, webhookDisabled: false }

export function preferencesOf(ctx: Pick<PushCtx, 'db'>, userId: string): Preferences {
  const row = ctx.db.select().from(pushPreferences).where(eq(pushPreferences.userId, userId)).get()
  return row
    ? { newOrders: row.newOrders, reviews: row.reviews, lowStock: row.lowStock, webhookDisabled: row.webhookDisabled }
    : { ...DEFAULTS }
}

export function savePreferences(ctx: Pick<PushCtx, 'db' | 'clock'>, userId: string, p: Preferences): void {
  const values = { ...p, updatedAt: ctx.clock.now() }
  ctx.db
    .insert(pushPreferences)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: pushPreferences.userId, set: values })
    .run()
}
