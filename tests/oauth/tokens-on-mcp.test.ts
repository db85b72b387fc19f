/**
 * What an assistant's token may do: it acts as its person in its store with the granted scopes,
 * never beyond the person's role now (a role change or removal applies to the next call); a scope
 * it lacks is a tool error naming the scope; it never reaches another store; the REST API refuses
 * it; Disconnect (Account page, or an owner on the Team page) stops it at once; writes are logged
 * as "<client> for <person>"; API keys keep working on /mcp. The consent and Disconnect forms
 * hold the panel's same-origin and form-token rules.
 */
import { describe, expect, test } from 'bun:test'
import { memberships } from '../../src/db/schema'
import { and, eq } from 'drizzle-orm'
import { appForFile, expectStatus } from '../helpers/app'
import { makeKey, makeProduct } from '../helpers/factories'
import { makeMember, PanelClient, signedInOwner, signIn } from '../helpers/panel'
import { authorizeQuery, callTool, connect, consentFields, mcpRpc, pkce, registeredClient } from '../helpers/oauth'

const t = appForFile()

const text = (body: { result: { content: { text: string }[] } }) => body.result.content[0]!.text

async function memberClient(storeId: string, role: 'staff' | 'viewer') {
  const m = await makeMember(t.deps, storeId, role)
  const b = new PanelClient((r) => t.app.handle(r))
  await signIn(b, m.email)
  return { ...m, b }
}

describe('acting as the person', () => {
  test("an owner's token lists the tools and reads the store's own data", async () => {
    const { b, store } = await signedInOwner(t)
    makeProduct(t.deps, store.id, { name: 'House Blend' })
    const c = await connect(t, b)
    const [list, listBody] = await mcpRpc(t, c.access, 'tools/list')
    expectStatus(list, listBody).toBe(200)
    expect(listBody.result.tools.length).toBe(34)
    const [res, body] = await callTool(t, c.access, 'list_products')
    expectStatus(res, body).toBe(200)
    expect(body.result.isError).toBeUndefined()
    expect(text(body)).toContain('House Blend')
  })

  test("a viewer's token can't write: a tool error naming the missing scope, not an HTTP 403", async () => {
    const { store } = await signedInOwner(t)
    const viewer = await memberClient(store.id, 'viewer')
    const c = await connect(t, viewer.b)
    expect(c.scope.split(' ')).not.toContain('products:write')
    const [res, body] = await callTool(t, c.access, 'create_product', { name: 'Mug', price: 5 })
    expectStatus(res, body).toBe(200)
    expect(body.result.isError).toBe(true)
    expect(text(body)).toContain("'products:write'")
    const [read] = await callTool(t, c.access, 'list_products')
    expect(read.status).toBe(200)
  })

  test('scopes asked for are capped by the role: staff asking for webhooks gets none of them', async () => {
    const { store } = await signedInOwner(t)
    const staff = await memberClient(store.id, 'staff')
    const c = await connect(t, staff.b, { scope: 'products:read products:write webhooks:write' })
    expect(c.scope).toBe('products:read products:write')
    const [, body] = await callTool(t, c.access, 'list_webhooks')
    expect(body.result.isError).toBe(true)
    expect(text(body)).toContain("'webhooks:read'")
  })

  test('a role change applies to the next call; removal makes the token fail', async () => {
    const { store } = await signedInOwner(t)
    const staff = await memberClient(store.id, 'staff')
    const c = await connect(t, staff.b)
    const created = await callTool(t, c.access, 'create_product', { name: 'Cup', price: 3 })
    expect(created[1].result.isError).toBeUndefined()
    const where = and(eq(memberships.userId, staff.user.id), eq(memberships.storeId, store.id))
    t.deps.db.update(memberships).set({ role: 'viewer' }).where(where).run()
    const [, refused] = await callTool(t, c.access, 'create_product', { name: 'Cup 2', price: 3 })
    expect(refused.result.isError).toBe(true)
    expect(text(refused)).toContain("'products:write'")
    t.deps.db.delete(memberships).where(where).run()
    expect((await callTool(t, c.access, 'list_products'))[0].status).toBe(401)
  })

  test("a token for store A never reaches store B's data", async () => {
    const a = await signedInOwner(t)
    const bShop = await signedInOwner(t)
    const secret = makeProduct(t.deps, bShop.store.id, { name: 'Only in B' })
    const c = await connect(t, a.b)
    const [, got] = await callTool(t, c.access, 'get_product', { id: secret.id })
    expect(got.result.isError).toBe(true)
    expect(text(got)).not.toContain('Only in B')
    const [, listed] = await callTool(t, c.access, 'list_products')
    expect(text(listed)).not.toContain('Only in B')
    const [, store] = await callTool(t, c.access, 'get_store')
    expect(text(store)).toContain(a.store.id)
  })

  test('with several stores the person chooses one; the token works only there', async () => {
    const a = await signedInOwner(t)
    const other = await signedInOwner(t)
    // The owner of A also becomes staff of B.
    t.deps.db
      .insert(memberships)
      .values({ storeId: other.store.id, userId: a.user.id, role: 'staff', createdAt: 0, updatedAt: 0 })
      .run()
    const page = await a.b.get(`/oauth/authorize?${authorizeQuery(await registeredClient(t), pkce().challenge)}`)
    // A choice of store, each with what its role allows: staff in B never gets store:write.
    expect(page.text.match(/name="store" type="radio"/g)?.length).toBe(2)
    const asStaff = new RegExp(
      `${other.store.name} · Staff</label></div>\\s*<p class="hint" id="scopes-\\d">([^<]+)</p>`,
    )
    const staffScopes = asStaff.exec(page.text)![1]!
    expect(staffScopes).toContain('products:write')
    expect(staffScopes).not.toContain('store:write')
    makeProduct(t.deps, other.store.id, { name: 'Sold in B' })
    makeProduct(t.deps, a.store.id, { name: 'Sold in A' })
    const c = await connect(t, a.b, { store: other.store.id })
    const [, listed] = await callTool(t, c.access, 'list_products')
    expect(text(listed)).toContain('Sold in B')
    expect(text(listed)).not.toContain('Sold in A')
    // Staff there: no store:write, whatever the owner is in A.
    expect(c.scope.split(' ')).not.toContain('store:write')
  })

  test('writes are logged as "<client> for <person>"', async () => {
    const { b, store } = await signedInOwner(t)
    const c = await connect(t, b, { name: 'Claude' })
    await callTool(t, c.access, 'create_category', { name: 'Beans' })
    const page = await b.get('/admin/activity')
    expect(page.status).toBe(200)
    expect(page.text).toContain('Claude for Olga Owner')
    expect(store.id).toBeTruthy()
  })
})

describe('where a token is no credential', () => {
  test('the REST API refuses an MCP token (401)', async () => {
    const { b } = await signedInOwner(t)
    const c = await connect(t, b)
    const [res, body] = await t.api.get('/api/v1/store', { key: c.access })
    expectStatus(res, body).toBe(401)
    const [put, putBody] = await t.api.put('/api/v1/store', { name: 'x' }, { key: c.access })
    expectStatus(put, putBody).toBe(401)
  })

  test('an API key still works on /mcp', async () => {
    const { store } = await signedInOwner(t)
    const key = makeKey(t.deps, store.id, ['store:read'])
    const [res, body] = await callTool(t, key, 'get_store')
    expectStatus(res, body).toBe(200)
    expect(text(body)).toContain(store.id)
  })
})

describe('Connected apps', () => {
  test('Account page lists the app; Disconnect stops its token at once', async () => {
    const { b } = await signedInOwner(t)
    const c = await connect(t, b, { name: 'Claude' })
    await callTool(t, c.access, 'get_store')
    const account = await b.get('/admin/account')
    expect(account.text).toContain('Connected apps')
    expect(account.text).toContain('Claude')
    const action = /action="(\/admin\/account\/apps\/[^"]+\/disconnect)"/.exec(account.text)![1]!
    // Another origin, or no form token: nothing changes.
    expect((await b.submit(action, {}, { origin: 'https://evil.example' })).status).toBe(403)
    expect((await b.submit(action, {}, { token: null })).status).toBe(403)
    expect((await callTool(t, c.access, 'get_store'))[0].status).toBe(200)
    const done = await b.submitFrom('/admin/account', action)
    expect(done.status).toBe(303)
    expect((await callTool(t, c.access, 'get_store'))[0].status).toBe(401)
    expect((await b.get('/admin/account')).text).not.toContain(action)
  })

  test("an owner sees the store's apps on the Team page and can disconnect a colleague's", async () => {
    const { b, store } = await signedInOwner(t)
    const staff = await memberClient(store.id, 'staff')
    const c = await connect(t, staff.b, { name: 'Cursor' })
    const team = await b.get('/admin/team')
    expect(team.text).toContain('Cursor')
    expect(team.text).toContain('staff person')
    const action = /action="(\/admin\/team\/apps\/[^"]+\/disconnect)"/.exec(team.text)![1]!
    // The staff member's own Account page can't reach the Team page's action.
    expect((await staff.b.submitFrom('/admin/account', action)).status).toBe(403)
    // An owner of another store can't disconnect it.
    const stranger = await signedInOwner(t)
    expect((await stranger.b.submitFrom('/admin/team', action)).status).toBe(403)
    expect((await callTool(t, c.access, 'get_store'))[0].status).toBe(200)
    expect((await b.submitFrom('/admin/team', action)).status).toBe(303)
    expect((await callTool(t, c.access, 'get_store'))[0].status).toBe(401)
  })
})

describe('the consent form', () => {
  test('same origin and form token, like every panel POST; its CSP lets it lead to the redirect origin', async () => {
    const { b } = await signedInOwner(t)
    const query = authorizeQuery(await registeredClient(t), pkce().challenge)
    const page = await b.get(`/oauth/authorize?${query}`)
    expect(page.res.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:8976;")
    expect(page.text).toContain('127.0.0.1:8976')
    const fields = { ...consentFields(page.text), decision: 'allow' }
    const cross = await b.submit('/oauth/authorize', fields, { origin: 'https://evil.example' })
    expect(cross.status).toBe(403)
    expect(cross.location).toBeNull()
    await b.get(`/oauth/authorize?${query}`)
    const tokenless = await b.submit('/oauth/authorize', fields, { token: null })
    expect(tokenless.status).toBe(403)
    expect(tokenless.location).toBeNull()
  })

  test("the client's name is escaped", async () => {
    const { b } = await signedInOwner(t)
    const clientId = await registeredClient(t, '<img src=x onerror=alert(1)>')
    const page = await b.get(`/oauth/authorize?${authorizeQuery(clientId, pkce().challenge)}`)
    expect(page.text).not.toContain('<img src=x')
    expect(page.text).toContain('&lt;img src=x')
  })
})
