import { randomBytes } from 'node:crypto'
import { and, eq, desc, isNull } from 'drizzle-orm'
import { createId } from '../../lib/cuid'
import type { Ctx, OperatorCtx } from '../../kernel/context'
import { transaction } from '../../kernel/write'
import type { Db, Runner } from '../../db/client'
import { apiKeys, type ApiKey } from '../../db/schema'
import { NotFound } from '../../lib/errors'
import { isoOrNull } from '../../lib/time'
import { writeKeyUses } from './sql'
import { actorRef, recordActivityTx } from '../people'

/** Recognisable in logs and secret scanners; 24 random bytes = 192 bits. */
export const KEY_PREFIX = 'sfk_'
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

function base62(bytes: Uint8Array): string {
  let n = BigInt(`0x${Buffer.from(bytes).toString('hex')}`)
  let out = ''
  while (n > 0n) {
    out = ALPHABET[Number(n % 62n)] + out
    n /= 62n
  }
  return out.padStart(33, '0')
}

/** SHA-256 hex; Bun's one-shot hasher is ~3× cheaper than node:crypto's and runs on every request. */
export const hashKey = (key: string): string => Bun.SHA256.hash(key, 'hex') as unknown as string

/** The shape of a well-formed key, checked before any lookup. */
export const KEY_RE = /^sfk_[0-9A-Za-z]{33}$/

export interface CreatedKey {
  id: string
  key: string
  scopes: string[]
  expiresAt: string | null
}

/**
 * Who a key's activity line names: the operator's actor (the CLI, the system), or the store actor's
 * (a person on the panel's keys page). None: no line (the demo's and the tests' own keys).
 */
const activityActor = (ctx: OperatorCtx | Ctx): string | undefined =>
  typeof ctx.actor === 'object' ? actorRef(ctx.actor) : ctx.actor

/** A key's write with its activity line in one transaction; without a line, the one statement alone. */
const withLine = <T>(db: Db, by: string | undefined, fn: (r: Runner) => T): T =>
  by ? transaction(db, (tx) => fn(tx)) : fn(db)

/**
 * A new key for the store, shown once (only its hash is kept). Takes the operator's ctx, or a store
 * actor's `Ctx`; with an actor, the key and its activity line commit together.
 */
export function createKey({
  ctx,
  input,
}: {
  ctx: OperatorCtx | Ctx
  input: { storeId: string; scopes: string[]; name?: string; expiresAt?: number | null }
}): CreatedKey {
  const { db, clock } = ctx
  const key = KEY_PREFIX + base62(randomBytes(24))
  const id = createId()
  const by = activityActor(ctx)
  withLine(db, by, (tx) => {
    tx.insert(apiKeys)
      .values({
        id,
        storeId: input.storeId,
        name: input.name ?? null,
        prefix: key.slice(0, 12),
        hash: hashKey(key),
        scopes: input.scopes.join(' '),
        expiresAt: input.expiresAt ?? null,
        createdAt: clock.now(),
      })
      .run()
    if (by)
      recordActivityTx(tx, clock.now(), {
        storeId: input.storeId,
        actor: by,
        verb: 'create',
        recordType: 'api_key',
        recordId: id,
      })
  })
  return { id, key, scopes: input.scopes, expiresAt: isoOrNull(input.expiresAt) }
}

export function keyView(k: ApiKey) {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    scopes: k.scopes.split(' '),
    expiresAt: isoOrNull(k.expiresAt),
    revokedAt: isoOrNull(k.revokedAt),
    lastUsedAt: isoOrNull(k.lastUsedAt),
    createdAt: isoOrNull(k.createdAt),
  }
}

export function listKeys({ ctx: { db }, input: { storeId } }: { ctx: { db: Db }; input: { storeId: string } }) {
  return db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.storeId, storeId))
    .orderBy(desc(apiKeys.createdAt))
    .all()
    .map(keyView)
}

/**
 * Revokes a key (idempotent: a revoked key keeps its first revocation time). Takes the operator's
 * ctx, or a store actor's `Ctx`; with an actor, the revocation and its activity line commit together.
 */
export function revokeKey({ ctx, input: { id } }: { ctx: OperatorCtx | Ctx; input: { id: string } }) {
  const { db, clock } = ctx
  const by = activityActor(ctx)
  const row = withLine(db, by, (tx) => {
    const row =
      tx
        .update(apiKeys)
        .set({ revokedAt: clock.now() })
        .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
        .returning()
        .get() ?? tx.select().from(apiKeys).where(eq(apiKeys.id, id)).get()
    if (!row) throw new NotFound('API key')
    if (by)
      recordActivityTx(tx, clock.now(), {
        storeId: row.storeId,
        actor: by,
        verb: 'revoke',
        recordType: 'api_key',
        recordId: row.id,
      })
    return row
  })
  return { id: row.id, revokedAt: isoOrNull(row.revokedAt) }
}

/** Records when each key was last used, in one transaction (the gate's usage flush). Takes the operator's ctx. */
export function recordKeyUse({
  ctx,
  input,
}: {
  ctx: Pick<OperatorCtx, 'db'>
  input: { uses: Iterable<readonly [keyId: string, at: number]> }
}): void {
  writeKeyUses(ctx.db.$client, input.uses)
}
