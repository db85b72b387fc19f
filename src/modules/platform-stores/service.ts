import { eq, or, asc, and, sql } from 'drizzle-orm'
import { createId } from '../../lib/cuid'
import type { OperatorCtx, PublicCtx } from '../../kernel/context'
import type { Config } from '../../config'
import type { Db } from '../../db/client'
import { transaction } from '../../kernel/write'
import { stores, invoices, PLANS, type Plan, type Store } from '../../db/schema'
import { recordActivityTx } from '../people'
import type { Runner } from '../../db/client'
import { Conflict, NotFound, PaymentRequired, ValidationError, isUniqueViolation } from '../../lib/errors'
import { isCurrency } from '../../lib/money'
import { toE164 } from '../../lib/phone'
import { isSlug, slugify, SLUG_RULE } from '../../lib/slug'
import { iso } from '../../lib/time'
import { canonicalZone } from '../../lib/zone'

export const SUSPEND_REASONS = ['unpaid', 'refund', 'chargeback', 'manual'] as const
export type SuspendReason = (typeof SUSPEND_REASONS)[number]

export function storeView(s: Store) {
  return {
    id: s.id,
    name: s.name,
    slug: s.slug,
    description: s.description,
    whatsappNumber: s.whatsappNumber,
    currency: s.currency,
    whatsappTemplate: s.whatsappTemplate,
    language: s.language,
    isPublished: s.isPublished,
    isMaintenance: s.isMaintenance,
    plan: s.plan,
    status: s.status,
    createdAt: iso(s.createdAt),
    updatedAt: iso(s.updatedAt),
  }
}

export interface CreateStoreInput {
  name: string
  slug?: string
  plan?: string
  currency?: string
  whatsapp?: string
  description?: string
  /** An IANA time zone name; UTC when absent. */
  timezone?: string
}

export function createStore({
  ctx: { db, clock, actor },
  input,
}: {
  ctx: OperatorCtx
  input: CreateStoreInput
}): Store {
  const name = input.name?.trim()
  if (!name) throw new ValidationError('name', 'required')
  const slug = input.slug ?? slugify(name)
  if (!isSlug(slug)) throw new ValidationError('slug', 'invalid_format', SLUG_RULE)
  const plan = (input.plan ?? 'free') as Plan
  if (!PLANS.includes(plan))
    throw new ValidationError('plan', 'invalid_format', `Plan must be one of ${PLANS.join(', ')}`)
  const currency = (input.currency ?? 'USD').toUpperCase()
  if (!isCurrency(currency))
    throw new ValidationError('currency', 'invalid_format', 'Currency must be an ISO 4217 code')
  let whatsappNumber: string | null = null
  if (input.whatsapp) {
    whatsappNumber = toE164(input.whatsapp) ?? null
    if (!whatsappNumber)
      throw new ValidationError(
        'whatsapp',
        'invalid_format',
        'WhatsApp number must be a valid international phone number',
      )
  }
  let timezone = 'UTC'
  if (input.timezone) {
    const zone = canonicalZone(input.timezone.trim())
    if (!zone) throw new ValidationError('timezone', 'invalid_format', 'An IANA time zone name such as America/Bogota')
    timezone = zone
  }
  const now = clock.now()
  try {
    return transaction(db, (tx) => {
      const row = tx
        .insert(stores)
        .values({
          id: createId(),
          name,
          slug,
          plan,
          currency,
          whatsappNumber,
          description: input.description ?? null,
          timezone,
          createdAt: now,
          updatedAt: now,
        })
        .returning()
        .get()
      noteOperator(tx, now, actor, row, 'create')
      return row
    })
  } catch (err) {
    if (isUniqueViolation(err))
      throw new Conflict('DUPLICATE_SLUG', `Slug '${slug}' is already taken`, { field: 'slug' })
    throw err
  }
}

/** A store by id or slug (the CLI's `<store>`). */
export function findStore({ ctx: { db }, input: { ref } }: { ctx: { db: Db }; input: { ref: string } }): Store {
  const s = db
    .select()
    .from(stores)
    .where(or(eq(stores.id, ref), eq(stores.slug, ref)))
    .get()
  if (!s) throw new NotFound('Store')
  return s
}

const storeById = new WeakMap<Db, { get(p: { id: string }): Store | undefined }>()

/** Prepared once per connection: every public order and storefront read starts here. */
export function getStore({
  ctx: { db },
  input: { id },
}: {
  ctx: { db: Db }
  input: { id: string }
}): Store | undefined {
  let stmt = storeById.get(db)
  if (!stmt)
    storeById.set(
      db,
      (stmt = db
        .select()
        .from(stores)
        .where(eq(stores.id, sql.placeholder('id')))
        .prepare()),
    )
  return stmt.get({ id })
}

export function listStores({ ctx: { db } }: { ctx: { db: Db } }): Store[] {
  return db.select().from(stores).orderBy(asc(stores.createdAt)).all()
}

const touched = (s: Store) => [s.id]

export function setPlan({
  ctx: { db, clock, actor },
  input: { ref, plan },
}: {
  ctx: OperatorCtx
  input: { ref: string; plan: string }
}): Store {
  if (!PLANS.includes(plan as Plan))
    throw new ValidationError('plan', 'invalid_format', `Plan must be one of ${PLANS.join(', ')}`)
  const s = findStore({ ctx: { db }, input: { ref } })
  return transaction(
    db,
    (tx) => {
      const row = tx
        .update(stores)
        .set({ plan: plan as Plan, updatedAt: clock.now() })
        .where(eq(stores.id, s.id))
        .returning()
        .get()!
      noteOperator(tx, clock.now(), actor, row, 'change plan')
      return row
    },
    touched,
  )
}

export function suspendStore({
  ctx: { db, clock, actor },
  input: { storeId, reason },
}: {
  ctx: OperatorCtx
  input: { storeId: string; reason: SuspendReason }
}): Store {
  const now = clock.now()
  return transaction(
    db,
    (tx) => {
      const row = tx
        .update(stores)
        .set({ status: 'suspended', suspendedReason: reason, suspendedAt: now, updatedAt: now })
        .where(eq(stores.id, storeId))
        .returning()
        .get()
      if (!row) throw new NotFound('Store')
      noteOperator(tx, now, actor, row, 'suspend')
      return row
    },
    touched,
  )
}

/** A recorded payment: every open invoice is settled and the store is active again. */
export function reinstateStore({
  ctx: { db, clock, actor },
  input: { storeId },
}: {
  ctx: OperatorCtx
  input: { storeId: string }
}): Store {
  const now = clock.now()
  return transaction(
    db,
    (tx) => {
      tx.update(invoices)
        .set({ status: 'paid', paidAt: now, nextRetryAt: null, updatedAt: now })
        .where(and(eq(invoices.storeId, storeId), eq(invoices.status, 'open')))
        .run()
      const row = tx
        .update(stores)
        .set({ status: 'active', suspendedReason: null, suspendedAt: null, updatedAt: now })
        .where(eq(stores.id, storeId))
        .returning()
        .get()
      if (!row) throw new NotFound('Store')
      noteOperator(tx, now, actor, row, 'reinstate')
      return row
    },
    touched,
  )
}

/** An operator's write of a store, in its activity log (when the CLI or the system made it). */
function noteOperator(tx: Runner, at: number, actor: OperatorCtx['actor'], store: Store, verb: string): void {
  if (actor) recordActivityTx(tx, at, { storeId: store.id, actor, verb, recordType: 'store', recordId: store.id })
}

/**
 * The store behind a public request (orders, reviews, storefront reads), checked in the
 * documented order (docs/api.md): unknown → 404, suspended → 402 (before the unpublished 404), unpublished
 * or in maintenance → 404.
 */
export function publicStore(s: Store | undefined, upgradeUrl: string): Store {
  if (!s) throw new NotFound('Store')
  if (s.status === 'suspended') throw new PaymentRequired(upgradeUrl)
  if (!s.isPublished || s.isMaintenance) throw new NotFound('Store')
  return s
}

/**
 * `publicStore` of the store with that id: a verb of the public's context (its `db`) and the upgrade URL a 402 names.
 */
export const storeForPublic = ({
  ctx,
  input,
}: {
  ctx: Pick<PublicCtx, 'db'> & { config: Pick<Config, 'upgradeUrl'> }
  input: { storeId: string }
}): Store => publicStore(getStore({ ctx, input: { id: input.storeId } }), ctx.config.upgradeUrl)
