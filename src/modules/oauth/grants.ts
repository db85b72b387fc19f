/**
 * Connected apps: the grants a person made ("Allow") that issued tokens, listed on their Account
 * page, and every such grant of a store on its owners' Team page. Disconnecting revokes the grant,
 * so each of its tokens fails on its next use. Revocation (RFC 7009) does the same from the client.
 */
import { and, desc, eq, exists, inArray, isNull } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { oauthClients, oauthGrants, oauthTokens, stores, users } from '../../db/schema'
import type { Clock } from '../../lib/time'
import type { Ctx } from '../../kernel/context'
import type { PeopleCtx } from '../people'
import { revokeGrantIn } from './exchange'
import { hashSecret } from './secrets'

export interface ConnectedApp {
  id: string
  client: string
  storeName: string
  person: string
  scopes: string[]
  createdAt: number
  lastUsedAt: number | null
}

function connectedApps(db: Db, where: ReturnType<typeof eq>): ConnectedApp[] {
  return db
    .select({
      id: oauthGrants.id,
      client: oauthClients.name,
      storeName: stores.name,
      name: users.name,
      email: users.email,
      scopes: oauthGrants.scopes,
      createdAt: oauthGrants.createdAt,
      lastUsedAt: oauthGrants.lastUsedAt,
    })
    .from(oauthGrants)
    .innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
    .innerJoin(stores, eq(stores.id, oauthGrants.storeId))
    .innerJoin(users, eq(users.id, oauthGrants.userId))
    .where(
      and(
        where,
        isNull(oauthGrants.revokedAt),
        // A grant whose code was never exchanged connected nothing.
        exists(db.select({ one: oauthTokens.id }).from(oauthTokens).where(eq(oauthTokens.grantId, oauthGrants.id))),
      ),
    )
    .orderBy(desc(oauthGrants.createdAt))
    .all()
    .map((r) => ({
      id: r.id,
      client: r.client,
      storeName: r.storeName,
      person: r.name || r.email,
      scopes: r.scopes ? r.scopes.split(' ') : [],
      createdAt: r.createdAt,
      lastUsedAt: r.lastUsedAt,
    }))
}

/** A person's own connected apps, in every store (the Account page): a person's context, before a store. */
export function appsOfPerson({ ctx, input }: { ctx: PeopleCtx; input: { userId: string } }): ConnectedApp[] {
  return connectedApps(ctx.db, eq(oauthGrants.userId, input.userId))
}

/** Every connected app of the context's store, with whose it is (the owners' Team page): a store actor's context. */
export function appsOfStore({ ctx }: { ctx: Pick<Ctx, 'db' | 'store'> }): ConnectedApp[] {
  return connectedApps(ctx.db, eq(oauthGrants.storeId, ctx.store.id))
}

/**
 * Disconnects a grant that is the person's own (`userId`) or of the owner's store (`storeId`);
 * another's id disconnects nothing. Returns whether a grant was revoked.
 */
export function disconnectApp({
  ctx,
  input,
}: {
  ctx: { db: Db; clock: Clock }
  input: { grantId: string; userId?: string; storeId?: string }
}): boolean {
  const owner = input.userId ? eq(oauthGrants.userId, input.userId) : eq(oauthGrants.storeId, input.storeId ?? '')
  const revoked = ctx.db
    .update(oauthGrants)
    .set({ revokedAt: ctx.clock.now() })
    .where(and(eq(oauthGrants.id, input.grantId), owner, isNull(oauthGrants.revokedAt)))
    .returning({ id: oauthGrants.id })
    .all()
  return revoked.length > 0
}

/** RFC 7009: a client revokes one of its tokens; the whole grant goes with it. Unknown tokens are no error. */
export function revokeToken({
  ctx,
  input,
}: {
  ctx: { db: Db; clock: Clock }
  input: { token?: string; clientId?: string }
}): void {
  if (!input.token) return
  const row = ctx.db
    .select({ grantId: oauthGrants.id, clientId: oauthGrants.clientId })
    .from(oauthTokens)
    .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
    .where(eq(oauthTokens.hash, hashSecret(input.token)))
    .get()
  // A public client proves nothing but its id: a token is revoked only by the client it was issued to.
  if (row && (!input.clientId || row.clientId === input.clientId)) revokeGrantIn(ctx.db, row.grantId, ctx.clock.now())
}

/**
 * The activity log's names of app actors (`app:<grant id>`): "<client> for <person>". A store
 * actor's context: the owners' Activity page names the apps its log lists.
 */
export function appActorNames({
  ctx,
  input,
}: {
  ctx: Pick<Ctx, 'db'>
  input: { grantIds: string[] }
}): Map<string, string> {
  const { grantIds } = input
  if (grantIds.length === 0) return new Map()
  return new Map(
    ctx.db
      .select({ id: oauthGrants.id, client: oauthClients.name, name: users.name, email: users.email })
      .from(oauthGrants)
      .innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
      .innerJoin(users, eq(users.id, oauthGrants.userId))
      .where(inArray(oauthGrants.id, grantIds))
      .all()
      .map((r) => [`app:${r.id}`, `${r.client} for ${r.name || r.email}`]),
  )
}
