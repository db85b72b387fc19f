/**
 * The argon2id cost of new password hashes (m=19 MiB, t=2, p=1) and what happens to a hash made
 * at Bun's older default (m=64 MiB): it still verifies over the sign-in form, is made again at the
 * current cost once its owner signs in, and a wrong password changes nothing.
 */
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { appForFile } from '../helpers/app'
import { makeOwnerShop, PanelClient, PASSWORD, signIn } from '../helpers/panel'
import { users } from '../../src/db/schema'
import { hashIsCurrent, hashPassword, PASSWORD_HASHING } from '../../src/modules/people'

const t = appForFile()
const client = () => new PanelClient((r) => t.app.handle(r))
const params = (hash: string) => /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(hash)?.slice(1).map(Number)
const storedHash = (id: string) => t.deps.db.select().from(users).where(eq(users.id, id)).get()!.passwordHash!

describe('password hashing cost', () => {
  test('a new hash is argon2id at m=19456 KiB, t=2, p=1, and verifies', async () => {
    const hash = await hashPassword(PASSWORD)
    expect(params(hash)).toEqual([19_456, 2, 1])
    expect(PASSWORD_HASHING.memoryCost).toBe(19_456)
    expect(await Bun.password.verify(PASSWORD, hash)).toBe(true)
    expect(hashIsCurrent(hash)).toBe(true)
  })

  test("a hash at Bun's 64 MiB default signs in, and is then stored again at the current cost", async () => {
    const { user, email } = await makeOwnerShop(t.deps)
    const old = await Bun.password.hash(PASSWORD, { algorithm: 'argon2id', memoryCost: 65_536, timeCost: 2 })
    t.deps.db.update(users).set({ passwordHash: old }).where(eq(users.id, user.id)).run()
    expect(hashIsCurrent(old)).toBe(false)

    const wrong = client()
    await wrong.get('/admin/login')
    expect((await wrong.submit('/admin/login', { email, password: 'not the password at all' })).status).toBe(401)
    expect(storedHash(user.id)).toBe(old)

    const b = client()
    const res = await signIn(b, email)
    expect(res.status).toBe(303)
    const now = storedHash(user.id)
    expect(now).not.toBe(old)
    expect(params(now)).toEqual([19_456, 2, 1])

    // The new hash opens the panel just the same.
    const again = client()
    expect((await signIn(again, email)).status).toBe(303)
    expect((await again.get('/admin')).status).toBe(200)
  })

  test('a cheaper hash than the current cost is left as it is', async () => {
    const { user, email } = await makeOwnerShop(t.deps)
    const cheap = storedHash(user.id)
    expect(params(cheap)![0]).toBeLessThan(19_456)
    expect((await signIn(client(), email)).status).toBe(303)
    expect(storedHash(user.id)).toBe(cheap)
  })
})
