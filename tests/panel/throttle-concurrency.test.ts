/**
 * The password throttle under concurrency, over real sockets (the server on a random port, a
 * real SQLite file): an attempt is counted before argon2id runs and given back when it was
 * right, so 30 simultaneous wrong guesses for one e-mail from one address get exactly 10
 * checks and 20 answers of 429 — on the sign-in form, the invitation form of an existing
 * account, and the Account page's password change.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { users } from '../../src/db/schema'
import { ctxFor } from '../../src/kernel/context'
import { hashPassword, inviteToStore, passwordWork, PER_EMAIL_TIERS } from '../../src/modules/people'
import { getStore } from '../../src/modules/platform-stores/service'
import { fixedClock } from '../../src/lib/time'
import { makeOwnerShop, PanelClient, PASSWORD, signIn } from '../helpers/panel'
import { startTestServer, type TestServer } from '../helpers/server'

let s: TestServer
let realHash: string
const LIMIT = PER_EMAIL_TIERS[0].limit
const PARALLEL = 30

// At a window's beginning, standing still: no 15-minute window ends in the middle of a burst.
const clock = fixedClock(Date.UTC(2026, 2, 2, 10, 0, 1))

beforeAll(async () => {
  s = await startTestServer({}, { clock })
  // The production cost (64 MiB, ~160 ms): every guess is slow enough for all 30 to be in flight at once.
  realHash = await hashPassword(PASSWORD)
})
afterAll(() => s.stop())

const client = () =>
  new PanelClient((r) => fetch(r, { tls: { ca: s.ca }, redirect: 'manual' } as RequestInit), s.running.url)

/** A store whose owner's password has the production cost. */
async function shop() {
  const made = await makeOwnerShop(s.running.deps)
  s.running.deps.db.update(users).set({ passwordHash: realHash }).where(eq(users.id, made.user.id)).run()
  return made
}

/** Sends `send(i)` PARALLEL times at once; the statuses, and how many argon2id checks ran meanwhile. */
async function burst(send: (i: number) => Promise<{ status: number }>) {
  const before = passwordWork.verifications
  const statuses = (await Promise.all(Array.from({ length: PARALLEL }, (_, i) => send(i)))).map((p) => p.status)
  return { statuses, checks: passwordWork.verifications - before }
}
const count = (xs: number[], x: number) => xs.filter((y) => y === x).length

describe('30 simultaneous wrong guesses for one e-mail from one address', () => {
  test('sign-in: 10 checked (401), 20 refused (429) before any hash; then the right password is too', async () => {
    const { email } = await shop()
    const b = client()
    await b.get('/admin/login')
    const r = await burst((i) => b.submit('/admin/login', { email, password: `wrong guess number ${i}` }))
    expect(r.checks).toBe(LIMIT)
    expect(count(r.statuses, 401)).toBe(LIMIT)
    expect(count(r.statuses, 429)).toBe(PARALLEL - LIMIT)
    const right = await b.submit('/admin/login', { email, password: PASSWORD })
    expect(right.status).toBe(429)
    expect(Number(right.res.headers.get('retry-after'))).toBeGreaterThan(0)
  }, 60_000)

  test('the invitation form of an existing account: 10 checked, 20 refused', async () => {
    const { email } = await shop()
    const other = await shop()
    const deps = s.running.deps
    const store = getStore({ ctx: { db: deps.db }, input: { id: other.store.id } })!
    const { token } = inviteToStore({ ctx: ctxFor(deps, store, { kind: 'cli' }), input: { email, role: 'viewer' } })
    const path = `/admin/join?token=${encodeURIComponent(token)}`
    const b = client()
    await b.get(path)
    expect(b.last!.status).toBe(200)
    const r = await burst((i) => b.submit(path, { password: `wrong guess number ${i}` }))
    expect(r.checks).toBe(LIMIT)
    expect(count(r.statuses, 401)).toBe(LIMIT)
    expect(count(r.statuses, 429)).toBe(PARALLEL - LIMIT)
  }, 60_000)

  test('the password change: 10 checked, 20 refused; the password is unchanged', async () => {
    const { email, user } = await shop()
    const b = client()
    expect((await signIn(b, email)).status).toBe(303)
    await b.get('/admin/account')
    const r = await burst((i) =>
      b.submit('/admin/account/password', { current: `wrong guess number ${i}`, password: 'a brand new passphrase' }),
    )
    expect(r.checks).toBe(LIMIT)
    expect(count(r.statuses, 400)).toBe(LIMIT)
    expect(count(r.statuses, 429)).toBe(PARALLEL - LIMIT)
    const row = s.running.deps.db.select().from(users).where(eq(users.id, user.id)).get()!
    expect(row.passwordHash).toBe(realHash)
  }, 60_000)
})

describe('a right password gives its attempt back', () => {
  test('9 wrong, the right one, then 1 more wrong is still checked; the next is refused', async () => {
    const { email } = await shop()
    const b = client()
    await b.get('/admin/login')
    for (let i = 0; i < LIMIT - 1; i++)
      expect((await b.submit('/admin/login', { email, password: `wrong guess number ${i}` })).status).toBe(401)
    expect((await client().submit('/admin/login', { email, password: PASSWORD })).status).toBe(303)
    expect((await b.submit('/admin/login', { email, password: 'one more wrong guess' })).status).toBe(401)
    expect((await b.submit('/admin/login', { email, password: 'and another wrong one' })).status).toBe(429)
  }, 60_000)
})
