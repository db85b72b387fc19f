/**
 * The prune job and the connected apps' tables: lapsed tokens and codes go, a spent refresh token
 * stays until its expiry (so its replay still revokes the grant), a grant never used goes once it
 * holds nothing, a used grant stays (the activity log names its writes by it).
 */
import { expect, test } from 'bun:test'
import { pruneExpired } from '../../src/jobs/prune'
import { oauthCodes, oauthGrants, oauthTokens } from '../../src/db/schema'
import { DAY_MS, fixedClock } from '../../src/lib/time'
import { makeApp } from '../helpers/app'
import { signedInOwner } from '../helpers/panel'
import { answerConsent, authorizeQuery, callTool, connect, pkce, registeredClient, token } from '../helpers/oauth'

test('lapsed codes and tokens go; a used grant stays, an unused one goes once empty', async () => {
  const clock = fixedClock(Date.now())
  using t = makeApp({}, { clock })
  const { b } = await signedInOwner(t)
  const used = await connect(t, b)
  expect((await callTool(t, used.access, 'get_store'))[0].status).toBe(200)
  const [, rotated] = await token(t, {
    grant_type: 'refresh_token',
    refresh_token: used.refresh,
    client_id: used.clientId,
  })
  // Consented, never exchanged: a grant with only a code.
  await answerConsent(b, authorizeQuery(await registeredClient(t), pkce().challenge))
  const count = () => ({
    grants: t.deps.db.select().from(oauthGrants).all().length,
    codes: t.deps.db.select().from(oauthCodes).all().length,
    tokens: t.deps.db.select().from(oauthTokens).all().length,
  })
  expect(count()).toEqual({ grants: 2, codes: 2, tokens: 4 })

  await pruneExpired(t.deps)
  expect(count()).toEqual({ grants: 2, codes: 2, tokens: 4 })

  // Two hours on: both access tokens lapsed; the refresh tokens (the spent one too) stay.
  clock.advance(2 * 3_600_000)
  await pruneExpired(t.deps)
  expect(count()).toEqual({ grants: 2, codes: 2, tokens: 2 })
  // The spent refresh token still revokes its grant when replayed.
  const [replay] = await token(t, {
    grant_type: 'refresh_token',
    refresh_token: used.refresh,
    client_id: used.clientId,
  })
  expect(replay.status).toBe(400)
  const [after] = await token(t, {
    grant_type: 'refresh_token',
    refresh_token: rotated.refresh_token,
    client_id: used.clientId,
  })
  expect(after.status).toBe(400)

  // The revoked grant's tokens go; a day on, the codes; past the refresh lifetime, the unused grant.
  clock.advance(DAY_MS)
  await pruneExpired(t.deps)
  expect(count()).toEqual({ grants: 2, codes: 0, tokens: 0 })
  clock.advance(31 * DAY_MS)
  await pruneExpired(t.deps)
  expect(count()).toEqual({ grants: 1, codes: 0, tokens: 0 })
  expect(t.deps.db.select().from(oauthGrants).get()!.lastUsedAt).not.toBeNull()
})
