/**
 * API keys in the panel over HTTP: create with scopes per resource and an optional
 * expiry, the secret shown once, the key working on /api/v1 at once with exactly its scopes,
 * the list, revoke (then 401 at once), the activity lines; staff and viewers refused, even by a
 * hand-made post; another store's key id refused.
 */
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { appForFile } from '../helpers/app'
import { makeKey } from '../helpers/factories'
import { makeMember, makeOwnerShop, PanelClient, signIn } from '../helpers/panel'
import { activity, apiKeys } from '../../src/db/schema'

const client = () => new PanelClient((r) => t.app.handle(r))

const t = appForFile()

async function owner() {
  const shop = await makeOwnerShop(t.deps)
  const b = client()
  await signIn(b, shop.email)
  return { ...shop, b }
}

const secretOf = (text: string) => /<code id="new-key" class="secret">(sfk_[0-9A-Za-z]+)<\/code>/.exec(text)?.[1]

describe('API keys', () => {
  test(
    'create with products:read and an expiry → shown once → works on /api/v1 at once, only for its scope; ' +
      'listed; revoked → 401',
    async () => {
      const { b, store } = await owner()
      const page = await b.get('/admin/keys')
      expect(page.status).toBe(200)
      expect(page.text).toContain('No API keys yet.')
      // POST, then a redirect to the page that shows the secret once.
      const posted = await b.submit('/admin/keys', {
        name: 'Sheets',
        'scope-products-read': '1',
        expires: '2099-12-31',
      })
      expect(posted.status).toBe(303)
      const res = await b.get(posted.location!)
      expect(res.status).toBe(200)
      const key = secretOf(res.text)!
      expect(key).toBeDefined()
      expect(res.text).toContain('it is shown only once')
      // It works at once, for what it may do and nothing else.
      expect((await t.api.get('/api/v1/products', { key }))[0].status).toBe(200)
      expect((await t.api.post('/api/v1/products', { name: 'X', price: 1 }, { key }))[0].status).toBe(403)
      expect((await t.api.get('/api/v1/orders', { key }))[0].status).toBe(403)
      // Listed without its secret: name, prefix, scopes, expiry.
      const list = await b.get('/admin/keys')
      expect(list.text).not.toContain(key)
      expect(list.text).toContain(key.slice(0, 12))
      expect(list.text).toContain('products:read')
      expect(list.text).toContain('2099-12-31')
      const row = t.deps.db
        .select()
        .from(apiKeys)
        .where(eq(apiKeys.prefix, key.slice(0, 12)))
        .get()!
      expect(row.storeId).toBe(store.id)
      // Revoke, after a confirmation page; the key is refused at once (the gate's cache dropped it).
      const confirm = await b.get(`/admin/keys/${row.id}/revoke`)
      expect(confirm.text).toContain('Yes, revoke')
      const revoked = await b.submit(`/admin/keys/${row.id}/revoke`)
      expect(revoked.status).toBe(303)
      expect((await t.api.get('/api/v1/products', { key }))[0].status).toBe(401)
      const lines = t.deps.db.select().from(activity).where(eq(activity.recordId, row.id)).all()
      expect(lines.map((l) => l.verb).sort()).toEqual(['create', 'revoke'])
      expect(lines.every((l) => l.actor.startsWith('user:'))).toBe(true)
    },
  )

  test('no scope, or an expiry in the past: the form says so at the field and no key is made', async () => {
    const { b, store } = await owner()
    await b.get('/admin/keys')
    const none = await b.submit('/admin/keys', { name: 'Empty' })
    expect(none.status).toBe(400)
    expect(none.text).toContain('id="scopes-error"')
    const past = await b.submit('/admin/keys', { name: 'Old', 'scope-orders-read': '1', expires: '2001-01-01' })
    expect(past.status).toBe(400)
    expect(past.text).toContain('id="expires-error"')
    expect(t.deps.db.select().from(apiKeys).where(eq(apiKeys.storeId, store.id)).all()).toHaveLength(0)
  })

  test('staff and viewers: no page, and a hand-made create or revoke is refused', async () => {
    const { store } = await owner()
    const existing = makeKey(t.deps, store.id, ['products:read'])
    const row = t.deps.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.prefix, existing.slice(0, 12)))
      .get()!
    for (const role of ['staff', 'viewer'] as const) {
      const m = await makeMember(t.deps, store.id, role)
      const b = client()
      await signIn(b, m.email)
      expect((await b.get('/admin/keys')).status).toBe(403)
      const made = await b.submit('/admin/keys', { name: 'Mine', 'scope-products-write': '1' })
      expect(made.status).toBe(403)
      expect(secretOf(made.text)).toBeUndefined()
      expect((await b.submit(`/admin/keys/${row.id}/revoke`)).status).toBe(403)
    }
    expect((await t.api.get('/api/v1/products', { key: existing }))[0].status).toBe(200)
  })

  test("another store's key id is refused and stays valid", async () => {
    const { b } = await owner()
    const other = await makeOwnerShop(t.deps)
    const theirs = makeKey(t.deps, other.store.id, ['products:read'])
    const row = t.deps.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.prefix, theirs.slice(0, 12)))
      .get()!
    await b.get('/admin/keys')
    expect((await b.get(`/admin/keys/${row.id}/revoke`)).status).toBe(403)
    expect((await b.submit(`/admin/keys/${row.id}/revoke`)).status).toBe(403)
    expect((await t.api.get('/api/v1/products', { key: theirs }))[0].status).toBe(200)
  })
})
