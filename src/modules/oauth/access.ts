/**
 * What an access token stands for, decided at each request: its grant is unrevoked, the token
 * unexpired and meant for this resource, and the person still belongs to the store — with the
 * role they have now. The scopes it acts with are the granted ones that role still allows, so a
 * role change or a removal applies to the very next call.
 */
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { memberships, oauthClients, oauthGrants, oauthTokens, users } from '../../db/schema'
import type { Role } from '../people'
import { capByRole } from './rules'
import { hashSecret, isAccessToken } from './secrets'

export interface TokenHolder {
  grantId: string
  storeId: string
  userId: string
  role: Role
  /** Granted and still allowed by the role. */
  scopes: string[]
  /** "<client> for <person>", as the activity log and the panel name it. */
  label: string
}

/** How often a grant's "last use" is written: a write per call would buy nothing. */
const TOUCH_MS = 60_000

/**
 * The token's row with its grant, membership, client and person: one prepared statement per
 * connection, since building the five-table query per request cost more than running it
 * (bench/mcp-auth.ts).
 */
const statements = new WeakMap<Db, ReturnType<typeof prepareLookup>>()
function prepareLookup(db: Db) {
  return db
    .select({
      expiresAt: oauthTokens.expiresAt,
      grantId: oauthGrants.id,
      storeId: oauthGrants.storeId,
      userId: oauthGrants.userId,
      scopes: oauthGrants.scopes,
      resource: oauthGrants.resource,
      lastUsedAt: oauthGrants.lastUsedAt,
      role: memberships.role,
      client: oauthClients.name,
      person: users.name,
      email: users.email,
    })
    .from(oauthTokens)
    .innerJoin(oauthGrants, and(eq(oauthGrants.id, oauthTokens.grantId), isNull(oauthGrants.revokedAt)))
    .innerJoin(
      memberships,
      and(eq(memberships.userId, oauthGrants.userId), eq(memberships.storeId, oauthGrants.storeId)),
    )
    .innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
    .innerJoin(users, eq(users.id, oauthGrants.userId))
    .where(and(eq(oauthTokens.hash, sql.placeholder('hash')), eq(oauthTokens.kind, 'access')))
    .prepare()
}
const lookup = (db: Db) => {
  let s = statements.get(db)
  if (!s) statements.set(db, (s = prepareLookup(db)))
  return s
}

export function resolveAccessToken(
  ctx: { db: Db; now: number },
  raw: string,
  resource: string | undefined,
): TokenHolder | undefined {
  if (!isAccessToken(raw)) return undefined
  const row = lookup(ctx.db).get({ hash: hashSecret(raw) })
  if (!row || row.expiresAt <= ctx.now) return undefined
  if (resource !== undefined && row.resource !== resource) return undefined
  if (row.lastUsedAt === null || row.lastUsedAt < ctx.now - TOUCH_MS) {
    ctx.db
      .update(oauthGrants)
      .set({ lastUsedAt: ctx.now })
      .where(
        and(
          eq(oauthGrants.id, row.grantId),
          or(isNull(oauthGrants.lastUsedAt), lt(oauthGrants.lastUsedAt, ctx.now - TOUCH_MS)),
        ),
      )
      .run()
  }
  return {
    grantId: row.grantId,
    storeId: row.storeId,
    userId: row.userId,
    role: row.role,
    scopes: capByRole(row.scopes.split(' '), row.role),
    label: `${row.client} for ${row.person || row.email}`,
  }
}
