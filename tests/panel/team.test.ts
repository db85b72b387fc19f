/**
 * Who may enter, over HTTP against a real SQLite file: invitations (once, 72 h, withdrawn),
 * roles as the navigation and 403s see them, the team page, the store switcher, suspension,
 * first run, the demo's sign-in link, the CLI's user commands, and the activity log.
 */
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { appForFile, makeApp, type Json } from '../helpers/app'
import { makeMember, makeOwnerShop, PanelClient, PASSWORD, signIn } from '../helpers/panel'
import { fixedClock } from '../../src/lib/time'
import { activity, memberships, stores } from '../../src/db/schema'
import { adminJson } from '../helpers/cli'
import { seedDemo, DEMO_OWNER_EMAIL } from '../../src/cli/demo'
import { prunePeople } from '../../src/jobs/prune-people'
import { createProduct } from '../../src/modules/products/service'
import { ctxFor } from '../../src/kernel/context'
import { suspendStore } from '../../src/modules/platform-stores/service'

const clock = fixedClock(Date.UTC(2026, 3, 1, 9, 0, 0))
const client = () => new PanelClient((r) => t.app.handle(r))

const t = appForFile({}, { clock })

const admin = (...argv: string[]) => adminJson(t.config.dataDir, clock, ...argv)

/** The owner invites through the Team page; returns the link shown. */
async function invite(owner: PanelClient, email: string, role: string, name = ''): Promise<string> {
  await owner.get('/admin/team')
  const res = await owner.submit('/admin/team/invite', { email, role, name })
  expect(res.status).toBe(200)
  expect(res.text).toContain('Copy link')
  expect(res.text).toContain('https://wa.me/?text=')
  const url = /id="invite-link" type="text" readonly value="([^"]+)"/.exec(res.text)![1]!.replace(/&amp;/g, '&')
  expect(url).toStartWith('http://localhost/admin/join?token=')
  return url.slice('http://localhost'.length)
}

async function accept(path: string, name: string, password = 'a fine long passphrase') {
  const b = client()
  const page = await b.get(path)
  expect(page.status).toBe(200)
  const res = await b.submit(path, { name, password })
  return { b, res }
}

describe('invitations', () => {
  test('invite → accept (name + password) → signed in on the dashboard, with the role the owner chose', async () => {
    const { email, store } = await makeOwnerShop(t.deps)
    const owner = client()
    await signIn(owner, email)
    const path = await invite(owner, 'Sam.Staff@Example.com', 'staff')
    const { b, res } = await accept(path, 'Sam Staff')
    expect(res.status).toBe(303)
    expect(res.location).toBe('/admin')
    const dash = await b.get('/admin')
    expect(dash.status).toBe(200)
    expect(dash.text).toContain(store.name)
    // Staff: no Team, API keys, Webhooks, Activity or Settings links, and 403 pages on those URLs.
    for (const label of ['Team', 'API keys', 'Webhooks', 'Activity', 'Settings'])
      expect(dash.text).not.toContain(`>${label}</a>`)
    for (const label of ['Orders', 'Products', 'Customers']) expect(dash.text).toContain(`>${label}</a>`)
    for (const url of ['/admin/team', '/admin/keys', '/admin/webhooks', '/admin/activity', '/admin/settings']) {
      const page = await b.get(url)
      expect(page.status).toBe(403)
      expect(page.text).toContain('Not allowed')
    }
    expect((await b.get('/admin/orders')).status).toBe(200)
    // E-mail is case-insensitive: the same person signs in with any case.
    expect((await signIn(client(), 'sam.staff@example.com', 'a fine long passphrase')).status).toBe(303)
  })

  test('a viewer reads Settings but not Webhooks, and posts nothing to the team', async () => {
    const { email } = await makeOwnerShop(t.deps)
    const owner = client()
    await signIn(owner, email)
    const { b } = await accept(await invite(owner, 'vera@example.com', 'viewer'), 'Vera Viewer')
    const dash = await b.get('/admin')
    expect(dash.text).toContain('>Settings</a>')
    expect(dash.text).not.toContain('>Webhooks</a>')
    expect((await b.get('/admin/settings')).status).toBe(200)
    expect((await b.get('/admin/webhooks')).status).toBe(403)
    await b.get('/admin')
    expect((await b.submit('/admin/team/invite', { email: 'x@example.com', role: 'owner' })).status).toBe(403)
  })

  test('an invitation works once; an expired or withdrawn one does not', async () => {
    const { email } = await makeOwnerShop(t.deps)
    const owner = client()
    await signIn(owner, email)
    const once = await invite(owner, 'once@example.com', 'staff')
    expect((await accept(once, 'Once')).res.status).toBe(303)
    const twice = client()
    expect((await twice.get(once)).status).toBe(410)
    expect((await twice.submit(once, { name: 'Again', password: 'another long passphrase' })).status).toBe(410)
    expect(twice.sid).toBeUndefined()

    const late = await invite(owner, 'late@example.com', 'staff')
    clock.advance(72 * 3_600_000 + 1000)
    const expired = client()
    const page = await expired.get(late)
    expect(page.status).toBe(410)
    expect(page.text).toContain('This link has expired.')
    await signIn(owner, email)

    const withdrawn = await invite(owner, 'withdrawn@example.com', 'viewer')
    const team = await owner.get('/admin/team')
    const revokeUrl = /action="(\/admin\/team\/invitations\/[^"]+\/revoke)"/.exec(team.text)![1]!
    expect((await owner.submit(revokeUrl)).status).toBe(303)
    const gone = client()
    expect((await gone.get(withdrawn)).status).toBe(404)
    expect((await gone.submit(withdrawn, { name: 'W', password: 'another long passphrase' })).status).toBe(404)
  })

  test(
    'a person already in one store joins another with their password; ' +
      'the switcher appears and switching rotates the session',
    async () => {
      const a = await makeOwnerShop(t.deps, { name: 'Alpha Shop' })
      const b = await makeOwnerShop(t.deps, { name: 'Beta Shop' })
      const ownerB = client()
      await signIn(ownerB, b.email)
      const path = await invite(ownerB, a.email, 'viewer')
      const person = client()
      await person.get(path)
      expect(person.last!.text).toContain('You already have an account')
      expect((await person.submit(path, { password: 'wrong password!!' })).status).toBe(401)
      expect((await person.submit(path, { password: PASSWORD })).status).toBe(303)
      const dash = await person.get('/admin')
      expect(dash.text).toContain('<label for="store-switch">Store</label>')
      const before = person.sid
      const other = dash.text.includes(`<option value="${a.store.id}" selected>`) ? b.store.id : a.store.id
      expect((await person.submit('/admin/store', { storeId: other })).status).toBe(303)
      expect(person.sid).not.toBe(before)
      expect((await person.get('/admin')).text).toContain(`<option value="${other}" selected>`)
      // Not a store of theirs: refused.
      const c = await makeOwnerShop(t.deps)
      await person.get('/admin')
      expect((await person.submit('/admin/store', { storeId: c.store.id })).status).toBe(403)
    },
  )
})

describe('team page', () => {
  test('change a role, keep at least one owner, remove a person (their session finds no store)', async () => {
    const { email, store } = await makeOwnerShop(t.deps)
    const owner = client()
    await signIn(owner, email)
    const staff = await makeMember(t.deps, store.id, 'staff')
    const staffClient = client()
    await signIn(staffClient, staff.email)
    const ownMembership = t.deps.db.select().from(memberships).where(eq(memberships.storeId, store.id)).all()
    const mine = ownMembership.find((m) => m.role === 'owner')!
    const theirs = ownMembership.find((m) => m.role === 'staff')!

    await owner.get('/admin/team')
    const last = await owner.submit(`/admin/team/${mine.id}/role`, { role: 'viewer' })
    expect(last.status).toBe(409)
    expect(last.text).toContain('A store keeps at least one owner.')

    await owner.get('/admin/team')
    expect((await owner.submit(`/admin/team/${theirs.id}/role`, { role: 'viewer' })).status).toBe(303)
    expect((await staffClient.get('/admin/orders')).status).toBe(200)
    expect((await staffClient.get('/admin/settings')).status).toBe(200) // viewer now

    await owner.get('/admin/team')
    expect((await owner.submit(`/admin/team/${theirs.id}/remove`)).status).toBe(303)
    const after = await staffClient.get('/admin')
    expect(after.status).toBe(403)
    expect(after.text).toContain('You are not in any store.')
    // The account page still opens (their own things).
    expect((await staffClient.get('/admin/account')).status).toBe(200)
  })

  test("another store's team member or invitation: 403 page, nothing changes", async () => {
    const a = await makeOwnerShop(t.deps)
    const b = await makeOwnerShop(t.deps)
    const bStaff = await makeMember(t.deps, b.store.id, 'staff')
    const bMembership = t.deps.db.select().from(memberships).where(eq(memberships.userId, bStaff.user.id)).get()!
    const ownerA = client()
    await signIn(ownerA, a.email)
    await ownerA.get('/admin/team')
    const res = await ownerA.submit(`/admin/team/${bMembership.id}/role`, { role: 'owner' })
    expect(res.status).toBe(403)
    await ownerA.get('/admin/team')
    expect((await ownerA.submit(`/admin/team/${bMembership.id}/remove`)).status).toBe(403)
    expect(t.deps.db.select().from(memberships).where(eq(memberships.id, bMembership.id)).get()!.role).toBe('staff')
    // B's invitation, withdrawn from A's session: 403, still pending.
    const ownerB = client()
    await signIn(ownerB, b.email)
    await invite(ownerB, 'pending-b@example.com', 'viewer')
    const invitationId = /\/admin\/team\/invitations\/([^/]+)\/revoke/.exec((await ownerB.get('/admin/team')).text)![1]!
    await ownerA.get('/admin/team')
    expect((await ownerA.submit(`/admin/team/invitations/${invitationId}/revoke`)).status).toBe(403)
    expect((await ownerB.get('/admin/team')).text).toContain('pending-b@example.com')
  })

  test('names and e-mails with markup are shown as text', async () => {
    const { email, store } = await makeOwnerShop(t.deps)
    const owner = client()
    await signIn(owner, email)
    await invite(owner, '<script>alert(1)</script>@evil.example', 'staff', '<img src=x onerror=alert(2)>')
    await makeMember(t.deps, store.id, 'viewer', '"><svg/onload=alert(3)>@evil.example')
    const team = await owner.get('/admin/team')
    expect(team.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;@evil.example')
    expect(team.text).toContain('&quot;&gt;&lt;svg/onload=alert(3)&gt;@evil.example')
    expect(team.text).not.toContain('<script>alert')
    expect(team.text).not.toContain('<svg/onload')
    const path = await invite(owner, 'markup@example.com', 'staff', '<b>bold</b>')
    const { b } = await accept(path, '<img src=x onerror=alert(4)>')
    const acct = await b.get('/admin/account')
    expect(acct.text).toContain('value="&lt;img src=x onerror=alert(4)&gt;"')
    expect((await owner.get('/admin/team')).text).not.toContain('<img src=x')
    expect((await owner.get('/admin/activity')).text).toContain('&lt;img src=x onerror=alert(4)&gt;')
  })
})

describe('suspension, first run and the demo link', () => {
  test('a suspended store opens as one page with the reason and upgradeUrl; the account still works', async () => {
    const { email, store } = await makeOwnerShop(t.deps)
    const owner = client()
    await signIn(owner, email)
    suspendStore({ ctx: { db: t.deps.db, clock }, input: { storeId: store.id, reason: 'unpaid' } })
    t.deps.cache.invalidate(store.id)
    for (const url of ['/admin', '/admin/team', '/admin/orders']) {
      const page = await owner.get(url)
      expect(page.status).toBe(402)
      expect(page.text).toContain('Store suspended')
      expect(page.text).toContain(t.config.upgradeUrl)
      expect(page.text).not.toContain('>Team</a>')
    }
    expect((await owner.get('/admin/account')).status).toBe(200)
  })

  test('first run: the setup link creates the first store and its owner, once', async () => {
    const empty = makeApp()
    try {
      const token = empty.app.firstRun.issue(empty.deps)!
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
      const b = new PanelClient((r) => empty.app.handle(r))
      const path = `/admin/setup?token=${token}`
      expect((await b.get('/admin/setup?token=wrong')).status).toBe(404)
      const form = await b.get(path)
      expect(form.text).toContain('Store name')
      const bad = await b.submit(path, {
        storeName: 'First Shop',
        name: 'Fay',
        email: 'fay@example.com',
        password: 'fay@example.com!!',
      })
      expect(bad.status).toBe(400)
      expect(bad.text).toContain('must not contain your e-mail name')
      // The store's time zone: the field is there without the script (which proposes the browser's).
      expect(form.text).toMatch(/<input id="timezone" name="timezone"[^>]* data-browser-zone/)
      const zone = await b.submit(path, {
        storeName: 'First Shop',
        name: 'Fay',
        email: 'fay@example.com',
        password: 'a fine long passphrase',
        timezone: 'Mars/Olympus',
      })
      expect(zone.status).toBe(400)
      expect(zone.text).toContain('id="timezone-error"')
      expect(zone.text).toContain('value="Mars/Olympus"')
      const ok = await b.submit(path, {
        storeName: 'First Shop',
        name: 'Fay',
        email: 'fay@example.com',
        password: 'a fine long passphrase',
        timezone: 'america/lima',
      })
      expect(ok.status).toBe(303)
      expect((await b.get('/admin')).text).toContain('First Shop')
      const made = empty.deps.db.$client.query<{ timezone: string }, []>('SELECT timezone FROM stores').get()
      expect(made?.timezone).toBe('America/Lima')
      expect((await new PanelClient((r) => empty.app.handle(r)).get(path)).status).toBe(404)
      // A database with a store gets no setup link.
      expect(empty.app.firstRun.issue(empty.deps)).toBeUndefined()
    } finally {
      empty.close()
    }
  })

  test("the demo's one-time sign-in link signs in owner@demo.example, once; GET changes nothing", async () => {
    const seed = seedDemo(t.deps)
    const path = `/admin/join?token=${seed.signInToken}`
    const b = client()
    const page = await b.get(path)
    expect(page.text).toContain('owner@demo.example')
    expect(b.sid).toBeUndefined()
    expect((await b.get(path)).status).toBe(200) // a GET used nothing
    expect((await b.submit(path)).status).toBe(303)
    const dash = await b.get('/admin')
    expect(dash.text).toContain('Demo Coffee')
    expect((await client().submit(path)).status).toBe(410)
    expect(DEMO_OWNER_EMAIL).toBe('owner@demo.example')
  })
})

describe('CLI user commands', () => {
  test('user:invite, user:list, user:remove (never the last owner), user:reset (ends every session)', async () => {
    const { email, store, user } = await makeOwnerShop(t.deps)
    const inv = admin(
      'user:invite',
      '--store',
      store.slug,
      '--email',
      'cli-person@example.com',
      '--role',
      'staff',
      '--name',
      'Cli Person',
    )
    expect(inv.code).toBe(0)
    expect(Object.keys(inv.json).sort()).toEqual(['email', 'expiresAt', 'id', 'role', 'url'])
    expect(inv.json.url).toStartWith(`https://localhost:${t.config.port}/admin/join?token=`)
    expect(admin('user:invite', '--store', store.slug, '--email', 'x@example.com', '--role', 'boss').code).toBe(2)
    const path = new URL(inv.json.url).pathname + new URL(inv.json.url).search
    expect((await accept(path, 'Cli Person')).res.status).toBe(303)

    const list = admin('user:list', '--store', store.id)
    expect(list.json.data.map((u: Json) => [u.email, u.role]).sort()).toEqual([
      ['cli-person@example.com', 'staff'],
      [email, 'owner'],
    ])
    expect(Object.keys(list.json.data[0]).sort()).toEqual(['createdAt', 'email', 'id', 'lastSignInAt', 'name', 'role'])

    const last = admin('user:remove', '--store', store.slug, '--email', email)
    expect(last.code).toBe(2)
    expect(admin('user:remove', '--store', store.slug, '--email', 'cli-person@example.com').json).toEqual({
      id: expect.any(String),
      removed: true,
    })

    const b = client()
    await signIn(b, email)
    expect((await b.get('/admin')).status).toBe(200)
    const reset = admin('user:reset', '--email', email)
    expect(reset.code).toBe(0)
    expect(reset.json.id).toBe(user.id)
    expect((await b.get('/admin')).status).toBe(303)
    const resetPath = new URL(reset.json.url).pathname + new URL(reset.json.url).search
    const c = client()
    expect((await c.get(resetPath)).text).toContain('Choose a new password')
    expect((await c.submit(resetPath, { password: 'the new long passphrase' })).status).toBe(303)
    expect((await signIn(client(), email, 'the new long passphrase')).status).toBe(303)
    expect((await signIn(client(), email, PASSWORD)).status).toBe(401)
  })
})

describe('activity log', () => {
  test(
    "the team's writes are logged in their transaction; the owner's page lists them newest first and " +
      'filters; staff gets 403; 180-day prune',
    async () => {
      const { email, store, user } = await makeOwnerShop(t.deps)
      const owner = client()
      await signIn(owner, email)
      const path = await invite(owner, 'logged@example.com', 'staff')
      const { b } = await accept(path, 'Logged Person')
      const rows = t.deps.db.select().from(activity).where(eq(activity.storeId, store.id)).orderBy(activity.seq).all()
      expect(rows.map((r) => [r.verb, r.recordType, r.actor.startsWith('user:')])).toEqual([
        ['invite', 'invitation', true],
        ['join', 'membership', true],
      ])
      expect(rows[0]!.actor).toBe(`user:${user.id}`)
      const page = await owner.get('/admin/activity')
      expect(page.status).toBe(200)
      expect(page.text.indexOf('>join<')).toBeLessThan(page.text.indexOf('>invite<'))
      expect(page.text).toContain('Olga Owner')
      const filtered = await owner.get(`/admin/activity?actor=${encodeURIComponent(`user:${user.id}`)}`)
      expect(filtered.text).toContain('>invite<')
      expect(filtered.text).not.toContain('>join<')
      expect((await owner.get('/admin/activity?record=membership')).text).not.toContain('>invite<')
      expect((await b.get('/admin/activity')).status).toBe(403)

      clock.advance(181 * 86_400_000)
      await prunePeople(t.deps)
      expect(t.deps.db.select().from(activity).where(eq(activity.storeId, store.id)).all()).toEqual([])
    },
  )

  test('API key writes and CLI writes are logged too', async () => {
    const { store } = await makeOwnerShop(t.deps)
    admin('user:invite', '--store', store.slug, '--email', 'by-cli@example.com')
    const { key } = { key: (await import('../helpers/factories')).makeKey(t.deps, store.id) }
    const [res] = await t.api.post('/api/v1/categories', { name: 'Logged Category' }, { key })
    expect(res.status).toBe(201)
    const created = admin('key:create', '--store', store.slug, '--scopes', 'all')
    admin('key:revoke', created.json.id)
    // A panel person's writes through the same services carry their note too (as the panel's pages will).
    const s = t.deps.db.select().from(stores).where(eq(stores.id, store.id)).get()!
    createProduct({
      ctx: ctxFor(
        t.deps,
        s,
        { kind: 'user', userId: 'u1', role: 'owner' },
        { actor: 'user:u1', verb: 'create', recordType: 'product' },
      ),
      input: { name: 'Panel product', price: 1 },
    })
    const rows = t.deps.db.select().from(activity).where(eq(activity.storeId, store.id)).orderBy(activity.seq).all()
    expect(rows.map((r) => [r.actor.replace(/^key:sfk_.*/, 'key'), r.verb, r.recordType, r.recordId !== null])).toEqual(
      [
        ['cli', 'invite', 'invitation', true],
        ['key', 'create', 'category', true],
        ['cli', 'create', 'api_key', true],
        ['cli', 'revoke', 'api_key', true],
        ['user:u1', 'create', 'product', true],
      ],
    )
  })
})
