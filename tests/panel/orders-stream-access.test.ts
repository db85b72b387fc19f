/**
 * Who keeps an inbox stream, over HTTP against a real SQLite file: a stream open across its
 * session's sign-out ends, and so does one whose person is removed from the store; a session
 * holds at most 6 streams (a 7th ends its oldest). Whether a session still holds a grant is one
 * query for many sessions (people/session-grants.ts), checked here with a grant a role lacks.
 * The streams end on the feed's next check (every second): the tests wait for the end itself,
 * with a generous timeout, and assert no time.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { memberships, sessions } from '../../src/db/schema'
import { ctxFor } from '../../src/kernel/context'
import { changeRole, removeMember, sessionsStillGranted } from '../../src/modules/people'
import { getStore } from '../../src/modules/platform-stores/service'
import { makeApp, type TestApp } from '../helpers/app'
import { makeCatalog, orderBody, placeOrder } from '../helpers/factories'
import { makeMember, makeOwnerShop, PanelClient, signIn } from '../helpers/panel'
import { readUntil } from '../helpers/stream'

let t: TestApp
const client = () => new PanelClient((r) => t.app.handle(r))

beforeAll(() => {
  t = makeApp()
})
afterAll(() => t.close())

type Reader = { read(): Promise<{ done: boolean; value?: Uint8Array }>; cancel(): Promise<void> }

async function openStream(c: PanelClient): Promise<Reader> {
  const res = await t.app.handle(
    new Request(`${c.origin}/admin/orders/live`, { headers: { cookie: `__Host-sid=${c.sid}` } }),
  )
  expect(res.status).toBe(200)
  const reader = res.body!.getReader()
  await readUntil(reader, (s) => s.includes('retry:'))
  return reader
}

/** Reads until the stream ends (true), or gives up after `ms` (false): waiting for the condition, not for a time. */
async function ends(reader: Reader, ms = 15_000): Promise<boolean> {
  const deadline = Date.now() + ms
  for (;;) {
    const left = deadline - Date.now()
    if (left <= 0) return false
    const chunk = await Promise.race([reader.read(), Bun.sleep(left).then(() => 'timeout' as const)])
    if (chunk === 'timeout') return false
    if (chunk.done) return true
  }
}

const cliCtx = (storeId: string) =>
  ctxFor(t.deps, getStore({ ctx: { db: t.deps.db }, input: { id: storeId } })!, { kind: 'cli' })

describe('a stream ends when its reader may no longer read', () => {
  test('a stream open across its session’s sign-out ends; another session’s stream goes on', async () => {
    const shop = await makeOwnerShop(t.deps)
    const cat = makeCatalog(t.deps, shop.store.id)
    const owner = client()
    await signIn(owner, shop.email)
    const other = client()
    await signIn(other, shop.email)
    const mine = await openStream(owner)
    const theirs = await openStream(other)
    await owner.get('/admin')
    expect((await owner.submit('/admin/logout')).status).toBe(303)
    expect(await ends(mine)).toBe(true)
    // The other session's stream still delivers.
    const o = placeOrder(t.deps, orderBody(shop.store.id, cat, { name: 'After Sign Out' })).body
    await readUntil(theirs, (s) => s.includes(o.orderNumber), 15_000)
    await theirs.cancel()
  }, 60_000)

  test('a person removed from the store: their open stream ends', async () => {
    const shop = await makeOwnerShop(t.deps)
    const staff = await makeMember(t.deps, shop.store.id, 'staff')
    const b = client()
    await signIn(b, staff.email)
    const reader = await openStream(b)
    const m = t.deps.db.select().from(memberships).where(eq(memberships.userId, staff.user.id)).get()!
    removeMember({ ctx: cliCtx(shop.store.id), input: { membershipId: m.id } })
    expect(await ends(reader)).toBe(true)
  }, 60_000)

  test('the grant is read per session and store, as the role stands now', async () => {
    const shop = await makeOwnerShop(t.deps)
    const staff = await makeMember(t.deps, shop.store.id, 'staff')
    const b = client()
    await signIn(b, staff.email)
    const a = client()
    await signIn(a, shop.email)
    const sessionOf = (userId: string) =>
      t.deps.db.select().from(sessions).where(eq(sessions.userId, userId)).all().at(-1)!.id
    const held = [
      { sessionId: sessionOf(shop.user.id), storeId: shop.store.id },
      { sessionId: sessionOf(staff.user.id), storeId: shop.store.id },
    ]
    // Staff reads orders but not webhooks; the owner both.
    expect(sessionsStillGranted({ ctx: t.deps, input: { grant: 'orders:read', held } })).toEqual(
      new Set(held.map((h) => h.sessionId)),
    )
    expect(sessionsStillGranted({ ctx: t.deps, input: { grant: 'webhooks:read', held } })).toEqual(
      new Set([held[0]!.sessionId]),
    )
    // A role change applies at once: staff made owner now reads webhooks.
    const m = t.deps.db.select().from(memberships).where(eq(memberships.userId, staff.user.id)).get()!
    changeRole({ ctx: cliCtx(shop.store.id), input: { membershipId: m.id, role: 'owner' } })
    expect(sessionsStillGranted({ ctx: t.deps, input: { grant: 'webhooks:read', held } }).size).toBe(2)
    // Another store than the session's grants nothing.
    const elsewhere = await makeOwnerShop(t.deps)
    expect(
      sessionsStillGranted({
        ctx: t.deps,
        input: { grant: 'orders:read', held: [{ ...held[0]!, storeId: elsewhere.store.id }] },
      }).size,
    ).toBe(0)
  })
})

describe('at most 6 streams per session', () => {
  test('a 7th ends the oldest, an 8th the next oldest; the newest deliver', async () => {
    const shop = await makeOwnerShop(t.deps)
    const cat = makeCatalog(t.deps, shop.store.id)
    const owner = client()
    await signIn(owner, shop.email)
    const readers: Reader[] = []
    for (let i = 0; i < 7; i++) readers.push(await openStream(owner))
    // The oldest is told, so its page stops listening rather than reconnecting and ending the next.
    expect(await readUntil(readers[0]!, (s) => s.includes('event: superseded'), 15_000)).toContain('event: superseded')
    expect(await ends(readers[0]!)).toBe(true)
    readers.push(await openStream(owner))
    expect(await ends(readers[1]!)).toBe(true)
    const o = placeOrder(t.deps, orderBody(shop.store.id, cat, { name: 'Seventh Tab' })).body
    for (const r of readers.slice(2)) await readUntil(r, (s) => s.includes(o.orderNumber), 15_000)
    for (const r of readers.slice(2)) await r.cancel()
  }, 60_000)
})
