import { count, desc, eq } from 'drizzle-orm'
import { createId } from '../../lib/cuid'
import type { Ctx } from '../../kernel/context'
import { webhookDeliveries, webhooks, type WebhookEvent } from '../../db/schema'
import { Conflict, NotFound, ValidationError } from '../../lib/errors'
import { secretBoxOf } from '../../lib/secret-box'
import { checkWebhookUrl } from '../../lib/ssrf'
import { iso, isoOrNull } from '../../lib/time'
import { page } from '../shared'
import { owned } from '../shared'
import { write } from '../../kernel/write'
import type { DeliveryListQuery, WebhookCreate, WebhookListQuery, WebhookUpdate } from './model'
import { newSecret } from './signing'
import { listDeliveryLog, type ListedDelivery } from './store'

type WebhookRow = typeof webhooks.$inferSelect

/** Never the secret: it appears only in the create and rotate-secret answers. */
export const webhookView = (w: WebhookRow) => ({
  id: w.id,
  url: w.url,
  events: JSON.parse(w.events) as string[],
  isActive: w.isActive,
  disabledReason: w.disabledReason,
  createdAt: iso(w.createdAt),
  updatedAt: iso(w.updatedAt),
})

export const deliveryView = (d: ListedDelivery) => ({
  id: d.id,
  webhookId: d.webhookId,
  eventType: d.eventType,
  status: d.status,
  attempts: d.attempts,
  lastResponseCode: d.lastResponseCode,
  lastLatencyMs: d.lastLatencyMs,
  lastError: d.lastError,
  nextAttemptAt: d.status === 'pending' ? isoOrNull(d.nextAttemptAt) : null,
  deliveredAt: isoOrNull(d.deliveredAt),
  createdAt: iso(d.createdAt),
  updatedAt: iso(d.updatedAt),
})

export function listWebhooks({ ctx, input: q }: { ctx: Ctx; input: WebhookListQuery }) {
  const { limit, offset } = page(q)
  const cond = eq(webhooks.storeId, ctx.store.id)
  const rows = ctx.db
    .select()
    .from(webhooks)
    .where(cond)
    .orderBy(desc(webhooks.createdAt), desc(webhooks.id))
    .limit(limit)
    .offset(offset)
    .all()
  const total = ctx.db.select({ n: count() }).from(webhooks).where(cond).get()!.n
  return { data: rows.map(webhookView), total, limit, offset }
}

/** The store's webhook: 404 when missing, 403 when another store's. */
export const ownWebhook = (ctx: Ctx, id: string): WebhookRow =>
  owned(ctx, ctx.db.select().from(webhooks).where(eq(webhooks.id, id)).get(), 'Webhook')

export const getWebhook = ({ ctx, input: { id } }: { ctx: Ctx; input: { id: string } }) =>
  webhookView(ownWebhook(ctx, id))

/** SSRF guard (lib/ssrf.ts) at registration; the dispatcher checks again before each send. */
async function checkedUrl(ctx: Ctx, raw: string): Promise<string> {
  const check = await checkWebhookUrl(raw, { allowPrivate: ctx.config.webhookAllowPrivate })
  if (!check.ok) throw new ValidationError('url', check.reason, check.message)
  return check.url.href
}

/** The URL's own fault (not https, a private address…), or none: a form checks it beside the schema's faults. */
export async function webhookUrlFaults(ctx: Ctx, url: string): Promise<ValidationError[]> {
  try {
    await checkedUrl(ctx, url)
    return []
  } catch (e) {
    if (e instanceof ValidationError) return [e]
    throw e
  }
}

function checkedEvents(events: string[]): WebhookEvent[] {
  const seen = new Set<string>()
  events.forEach((e, i) => {
    if (seen.has(e)) throw new ValidationError(`events[${i}]`, 'duplicate', `events lists '${e}' twice`)
    seen.add(e)
  })
  return events as WebhookEvent[]
}

const seal = (ctx: Ctx, webhookId: string, secret: string) => secretBoxOf(ctx.config).seal(secret, webhookId)

export async function createWebhook({ ctx, input }: { ctx: Ctx; input: WebhookCreate }) {
  const events = checkedEvents(input.events)
  const url = await checkedUrl(ctx, input.url)
  const secret = newSecret()
  const id = createId()
  const now = ctx.clock.now()
  const row = write(ctx, (tx) => {
    const limit = ctx.config.webhookMaxPerStore
    const current = tx.select({ n: count() }).from(webhooks).where(eq(webhooks.storeId, ctx.store.id)).get()!.n
    if (current >= limit)
      throw new Conflict('LIMIT_REACHED', `A store can have at most ${limit} webhook endpoints`, { limit })
    return tx
      .insert(webhooks)
      .values({
        id,
        storeId: ctx.store.id,
        url,
        events: JSON.stringify(events),
        isActive: input.isActive ?? true,
        secret: seal(ctx, id, secret),
        createdAt: now,
        updatedAt: now,
      })
      .returning()
      .get()
  })
  return { ...webhookView(row), secret }
}

/** Partial update. Re-activating an endpoint clears why it was disabled and its failure run. */
export async function updateWebhook({
  ctx,
  input: { id, ...input },
}: {
  ctx: Ctx
  input: { id: string } & WebhookUpdate
}) {
  ownWebhook(ctx, id)
  const set: Partial<typeof webhooks.$inferInsert> = {}
  if (input.events !== undefined) set.events = JSON.stringify(checkedEvents(input.events))
  if (input.url !== undefined) set.url = await checkedUrl(ctx, input.url)
  if (input.isActive !== undefined) set.isActive = input.isActive
  const row = write(ctx, (tx) => {
    const current = ownWebhook(ctx, id)
    if (input.isActive === true && !current.isActive) Object.assign(set, { disabledReason: null, failingSince: null })
    return tx
      .update(webhooks)
      .set({ ...set, updatedAt: ctx.clock.now() })
      .where(eq(webhooks.id, id))
      .returning()
      .get()
  })
  return webhookView(row)
}

/** Deleting an endpoint drops its delivery log too (foreign key cascade). */
export function deleteWebhook({ ctx, input: { id } }: { ctx: Ctx; input: { id: string } }) {
  write(ctx, (tx) => {
    ownWebhook(ctx, id)
    tx.delete(webhooks).where(eq(webhooks.id, id)).run()
  })
  return { id, deleted: true as const }
}

/**
 * A new secret signs from now on; the previous one keeps signing alongside it (a second `v1,`
 * signature) for `webhookSecretOverlapSec`, so receivers can switch without losing messages.
 * Rotating again within the overlap drops the oldest secret.
 */
export function rotateSecret({ ctx, input: { id } }: { ctx: Ctx; input: { id: string } }) {
  const secret = newSecret()
  const now = ctx.clock.now()
  const overlapMs = ctx.config.webhookSecretOverlapSec * 1000
  const row = write(ctx, (tx) => {
    const current = ownWebhook(ctx, id)
    return tx
      .update(webhooks)
      .set({
        secret: seal(ctx, id, secret),
        previousSecret: overlapMs > 0 ? current.secret : null,
        previousSecretExpiresAt: overlapMs > 0 ? now + overlapMs : null,
        updatedAt: now,
      })
      .where(eq(webhooks.id, id))
      .returning()
      .get()
  })
  return { ...webhookView(row), secret }
}

export function listDeliveries({
  ctx,
  input: { webhookId, ...q },
}: {
  ctx: Ctx
  input: { webhookId: string } & DeliveryListQuery
}) {
  ownWebhook(ctx, webhookId)
  const { limit, offset } = page(q)
  // A read: events still in the outbox are listed as pending, not moved (store.ts).
  const { rows, total } = listDeliveryLog(ctx.db, webhookId, q.status, limit, offset)
  return { data: rows.map(deliveryView), total, limit, offset }
}

/**
 * The panel's delivery log: the API's listing plus `attemptsTotal`, every attempt ever made
 * (`attempts` starts over at a manual retry, since it is the retry schedule's step).
 */
export function deliveryLog({ ctx, input }: { ctx: Ctx; input: { webhookId: string; limit: number } }) {
  ownWebhook(ctx, input.webhookId)
  const { rows } = listDeliveryLog(ctx.db, input.webhookId, undefined, input.limit, 0)
  return rows.map((d) => ({ ...deliveryView(d), attemptsTotal: d.attemptsTotal }))
}

/**
 * Replays one delivery with the same `webhook-id` and body: it starts over (attempts 0, the
 * retry schedule applies again) and is attempted at once. A delivery being sent right now is
 * left as it is. An inactive endpoint's replay waits until the endpoint is re-activated.
 */
export function retryDelivery({
  ctx,
  input: { webhookId, deliveryId },
}: {
  ctx: Ctx
  input: { webhookId: string; deliveryId: string }
}) {
  const now = ctx.clock.now()
  const row = write(ctx, (tx, fx) => {
    ownWebhook(ctx, webhookId)
    const d = tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId)).get()
    if (!d || d.webhookId !== webhookId) throw new NotFound('Delivery')
    if (d.status === 'sending') return d
    fx.due(webhookId)
    return tx
      .update(webhookDeliveries)
      .set({ status: 'pending', attempts: 0, nextAttemptAt: now, lockedUntil: null, updatedAt: now })
      .where(eq(webhookDeliveries.id, deliveryId))
      .returning()
      .get()
  })
  return deliveryView(row)
}
