/**
 * What the authorization server forgets (the prune job): tokens past their expiry (a spent
 * refresh token is kept until then, so a replay still revokes its grant), the tokens of revoked
 * grants, codes a day after they lapsed (a late replay still finds its code), and grants that were
 * never used and hold no token any more. A grant that was used is kept: the activity log names
 * its writes by it ("<client> for <person>").
 */
import { and, eq, inArray, isNotNull, isNull, lt, notExists, or } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { oauthCodes, oauthGrants, oauthTokens } from '../../db/schema'
import type { Clock } from '../../lib/time'
import { DAY_MS } from '../../lib/time'
import { REFRESH_TTL_MS } from './rules'

export function pruneOauth({ ctx }: { ctx: { db: Db; clock: Clock } }): void {
  const now = ctx.clock.now()
  const { db } = ctx
  const revoked = db.select({ id: oauthGrants.id }).from(oauthGrants).where(isNotNull(oauthGrants.revokedAt))
  db.delete(oauthTokens)
    .where(or(lt(oauthTokens.expiresAt, now), inArray(oauthTokens.grantId, revoked)))
    .run()
  db.delete(oauthCodes)
    .where(lt(oauthCodes.expiresAt, now - DAY_MS))
    .run()
  db.delete(oauthGrants)
    .where(
      and(
        isNull(oauthGrants.lastUsedAt),
        lt(oauthGrants.createdAt, now - REFRESH_TTL_MS - DAY_MS),
        notExists(db.select({ id: oauthTokens.id }).from(oauthTokens).where(eq(oauthTokens.grantId, oauthGrants.id))),
        notExists(db.select({ h: oauthCodes.hash }).from(oauthCodes).where(eq(oauthCodes.grantId, oauthGrants.id))),
      ),
    )
    .run()
}
