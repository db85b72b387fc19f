/**
 * "Confirm it's you" over HTTP against a real SQLite file: sensitive changes need a sign-in proof
 * from the last 10 minutes and carry on with the same request once it is given; two-step
 * re-enrolment keeps the old secret until the new one is confirmed; an API key's secret is shown
 * once after a redirect; resets (the CLI's and an owner's) stop the old password at once; the
 * activity log keeps names as they were; the sign-in page and spent links say where to go.
 */
import { describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { appForFile } from '../helpers/app'
import { adminJson } from '../helpers/cli'
import { makeMember, makeOwnerShop, PanelClient, PASSWORD, signIn } from '../helpers/panel'
import { SoftAuthenticator } from '../helpers/webauthn'
import { fixedClock } from '../../src/lib/time'
import { apiKeys, invitations, memberships, users } from '../../src/db/schema'
import { totpCodeAt, personByEmail } from '../../src/modules/people'
import { createStore } from '../../src/modules/platform-stores/service'

const clock = fixedClock(Date.UTC(2026, 6, 1, 9, 0, 0))
const t = appForFile({}, { clock })
const client = () => new PanelClient((r) => t.app.handle(r))
const admin = (...argv: string[]) => adminJson(t.config.dataDir, clock, ...argv)
const STALE = 10 * 60_000 + 1000

const invitationsOf = (storeId: string) =>
  t.deps.db.select().from(invitations).where(eq(invitations.storeId, storeId)).all()
const hidden = (text: string, name: string) =>
  new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(text)?.[1]

async function turnOnTwoStep(b: PanelClient): Promise<string> {
  await b.get('/admin/account')
  const setup = await b.submit('/admin/account/two-step')
  const secret = /<code id="totp-secret" class="secret">([A-Z2-7]+)<\/code>/.exec(setup.text)![1]!
  expect((await b.submit('/admin/account/two-step/confirm', { code: totpCodeAt(secret, clock.now()) })).status).toBe(
    200,
  )
  clock.advance(31_000)
  return secret
}

describe('confirm it is you', () => {
  test(
    'an invitation after 10 minutes: the page asks for the password and holds the form; ' +
      'the right one carries on with it',
    async () => {
      const { b, store } = await ownerSignedIn()
      clock.advance(STALE)
      await b.get('/admin/team')
      const asked = await b.submit('/admin/team/invite', { email: 'held@example.com', role: 'viewer', name: 'Held' })
      expect(asked.status).toBe(403)
      expect(asked.text).toContain('<h1>Confirm it&#39;s you</h1>')
      expect(asked.text).toContain('action="/admin/team/invite"')
      expect(hidden(asked.text, 'email')).toBe('held@example.com')
      expect(hidden(asked.text, 'role')).toBe('viewer')
      expect(invitationsOf(store.id)).toHaveLength(0)
      const wrong = await b.submit('/admin/team/invite', {
        email: 'held@example.com',
        role: 'viewer',
        name: 'Held',
        confirm_password: 'not the password',
      })
      expect(wrong.status).toBe(401)
      expect(wrong.text).toContain('The current password is not right.')
      expect(invitationsOf(store.id)).toHaveLength(0)
      const done = await b.submit('/admin/team/invite', {
        email: 'held@example.com',
        role: 'viewer',
        name: 'Held',
        confirm_password: PASSWORD,
      })
      expect(done.status).toBe(200)
      expect(done.text).toContain('Invitation ready')
      expect(invitationsOf(store.id).map((i) => [i.email, i.role])).toEqual([['held@example.com', 'viewer']])
      // The proof holds for 10 minutes: the next change asks nothing.
      await b.get('/admin/team')
      expect((await b.submit('/admin/team/invite', { email: 'next@example.com', role: 'staff' })).status).toBe(200)
    },
  )

  test('every listed change asks when the proof is old; a two-step code is a proof too', async () => {
    const { b, store } = await ownerSignedIn()
    const secret = await turnOnTwoStep(b)
    const staff = await makeMember(t.deps, store.id, 'staff')
    const theirs = t.deps.db
      .select()
      .from(memberships)
      .where(and(eq(memberships.storeId, store.id), eq(memberships.userId, staff.user.id)))
      .get()!
    clock.advance(STALE)
    const asks: [string, Record<string, string>][] = [
      ['/admin/account/two-step', {}],
      ['/admin/account/two-step/disable', {}],
      ['/admin/account/passkeys/none/delete', {}],
      ['/admin/keys', { name: 'k', 'scope-products-read': '1' }],
      ['/admin/webhooks', { url: 'https://hooks.example.com/x', 'event-order.created': '1' }],
      ['/admin/team/invite', { email: 'x@example.com', role: 'staff' }],
      [`/admin/team/${theirs.id}/role`, { role: 'viewer' }],
      [`/admin/team/${theirs.id}/remove`, {}],
      [`/admin/team/${theirs.id}/reset`, {}],
    ]
    for (const [path, fields] of asks) {
      await b.get('/admin/account')
      const res = await b.submit(path, fields)
      expect([path, res.status]).toEqual([path, 403])
      expect([path, res.text.includes('<h1>Confirm it&#39;s you</h1>')]).toEqual([path, true])
      expect([path, res.text.includes('id="confirm-code"')]).toEqual([path, true])
    }
    const opts = await b.postJson('/admin/account/passkeys/options', {})
    expect(opts.status).toBe(403)
    expect(opts.json.confirm).toBe('/admin/confirm?next=%2Fadmin%2Faccount')
    // Nothing of it happened.
    expect(
      personByEmail({ ctx: t.deps, input: { email: (await storeOwner(store.id)).email } })!.totpEnabledAt,
    ).not.toBeNull()
    expect(t.deps.db.select().from(apiKeys).where(eq(apiKeys.storeId, store.id)).all()).toHaveLength(0)
    expect(t.deps.db.select().from(memberships).where(eq(memberships.id, theirs.id)).get()?.role).toBe('staff')
    // A two-step code proves it, and the held change goes ahead.
    await b.get('/admin/team')
    const moved = await b.submit(`/admin/team/${theirs.id}/role`, {
      role: 'viewer',
      confirm_code: totpCodeAt(secret, clock.now()),
    })
    expect(moved.status).toBe(303)
    expect(t.deps.db.select().from(memberships).where(eq(memberships.id, theirs.id)).get()?.role).toBe('viewer')
  })

  test('a passkey is a proof: the confirm page takes it, then the held form goes through', async () => {
    const { b } = await ownerSignedIn()
    await b.get('/admin/account')
    const token = b.formToken()
    const opts = await b.postJson('/admin/account/passkeys/options', {}, { token })
    const auth = new SoftAuthenticator('localhost', 'http://localhost')
    await b.postJson('/admin/account/passkeys', { name: 'Key', response: auth.register(opts.json.options) }, { token })
    clock.advance(STALE)
    await b.get('/admin/account')
    const asked = await b.submit('/admin/account/two-step')
    expect(asked.text).toContain('id="confirm-passkey"')
    const pageToken = b.formToken()
    const proofOpts = await b.postJson('/admin/confirm/passkey/options', {}, { token: pageToken })
    const proof = await b.postJson(
      '/admin/confirm/passkey',
      { response: auth.assert(proofOpts.json.options) },
      { token: pageToken },
    )
    expect(proof.json).toEqual({ ok: true })
    const setup = await b.submit('/admin/account/two-step', {}, { token: pageToken })
    expect(setup.status).toBe(200)
    expect(setup.text).toContain('totp-secret')
  })
  test(
    'a change a script starts (adding a passkey) sends the person to the confirm page, ' +
      'which goes back after the proof',
    async () => {
      const { b } = await ownerSignedIn()
      clock.advance(STALE)
      const page = await b.get('/admin/confirm?next=%2Fadmin%2Faccount')
      expect(page.status).toBe(200)
      expect(page.text).toContain('action="/admin/confirm?next=%2Fadmin%2Faccount"')
      const back = await b.submit('/admin/confirm?next=%2Fadmin%2Faccount', { confirm_password: PASSWORD })
      expect(back.status).toBe(303)
      expect(back.location).toBe('/admin/account')
      await b.get('/admin/account')
      expect((await b.postJson('/admin/account/passkeys/options', {})).status).toBe(200)
      // An unsafe next is ignored.
      clock.advance(STALE)
      await b.get('/admin/account')
      const away = await b.submit('/admin/confirm?next=https%3A%2F%2Fevil.example', { confirm_password: PASSWORD })
      expect(away.location).toBe('/admin/account')
    },
  )
})

describe('two-step re-enrolment', () => {
  test('the secret in force stays until a code of the new one is confirmed', async () => {
    const { b, email } = await ownerSignedIn()
    const first = await turnOnTwoStep(b)
    await b.get('/admin/account')
    const again = await b.submit('/admin/account/two-step')
    const second = /<code id="totp-secret" class="secret">([A-Z2-7]+)<\/code>/.exec(again.text)![1]!
    expect(second).not.toBe(first)
    // Meanwhile the password alone opens only the second step, and the old code still works.
    const other = client()
    const res = await signIn(other, email)
    expect(res.location).toBe('/admin/login/two-step')
    await other.get('/admin/login/two-step')
    expect((await other.submit('/admin/login/two-step', { code: totpCodeAt(second, clock.now()) })).status).toBe(401)
    expect((await other.submit('/admin/login/two-step', { code: totpCodeAt(first, clock.now()) })).status).toBe(303)
    clock.advance(31_000)
    // Confirmed: the new one is in force, the old one no longer.
    await b.get('/admin/account')
    expect((await b.submit('/admin/account/two-step/confirm', { code: totpCodeAt(second, clock.now()) })).status).toBe(
      200,
    )
    clock.advance(31_000)
    const third = client()
    await signIn(third, email)
    await third.get('/admin/login/two-step')
    expect((await third.submit('/admin/login/two-step', { code: totpCodeAt(first, clock.now()) })).status).toBe(401)
    expect((await third.submit('/admin/login/two-step', { code: totpCodeAt(second, clock.now()) })).status).toBe(303)
  })
})

describe('API key secret shown once', () => {
  test(
    'POST → redirect → the secret once; a reload shows it no more and creates nothing; ' +
      'another session gets nothing',
    async () => {
      const { b, store } = await ownerSignedIn()
      await b.get('/admin/keys')
      const posted = await b.submit('/admin/keys', { name: 'Once', 'scope-products-read': '1' })
      expect(posted.status).toBe(303)
      expect(posted.location).toStartWith('/admin/keys/created?shown=')
      const stranger = client()
      await signIn(stranger, (await makeOwnerShop(t.deps)).email)
      expect((await stranger.get(posted.location!)).text).not.toContain('sfk_')
      const shown = await b.get(posted.location!)
      expect(shown.status).toBe(200)
      expect(shown.text).toMatch(/<code id="new-key" class="secret">sfk_/)
      const reload = await b.get(posted.location!)
      expect(reload.status).toBe(200)
      expect(reload.text).not.toContain('sfk_')
      expect(reload.text).toContain('This key was shown once and is not shown again.')
      expect(t.deps.db.select().from(apiKeys).where(eq(apiKeys.storeId, store.id)).all()).toHaveLength(1)
    },
  )
})

describe('resets stop the old password at once', () => {
  test('user:reset: the old password and a passkey stop at once; the link sets a new one', async () => {
    const { b, email } = await ownerSignedIn()
    await b.get('/admin/account')
    const token = b.formToken()
    const opts = await b.postJson('/admin/account/passkeys/options', {}, { token })
    const auth = new SoftAuthenticator('localhost', 'http://localhost')
    await b.postJson('/admin/account/passkeys', { name: 'Key', response: auth.register(opts.json.options) }, { token })
    const r = admin('user:reset', '--email', email)
    expect(r.code).toBe(0)
    expect((await signIn(client(), email)).status).toBe(401)
    const c = client()
    const po = await c.postJson('/admin/login/passkey/options', {})
    expect((await c.postJson('/admin/login/passkey', { response: auth.assert(po.json.options) })).status).toBe(401)
    const path = new URL(r.json.url).pathname + new URL(r.json.url).search
    const person = client()
    await person.get(path)
    expect((await person.submit(path, { password: 'a fresh long passphrase' })).status).toBe(303)
    expect((await signIn(client(), email, 'a fresh long passphrase')).status).toBe(303)
    const d = client()
    const po2 = await d.postJson('/admin/login/passkey/options', {})
    expect((await d.postJson('/admin/login/passkey', { response: auth.assert(po2.json.options) })).status).toBe(200)
  })

  test('user:reset --clear-two-step: no password-only sign-in before the link is used', async () => {
    const { b, email } = await ownerSignedIn()
    await turnOnTwoStep(b)
    const r = admin('user:reset', '--email', email, '--clear-two-step')
    expect(r.code).toBe(0)
    const res = await signIn(client(), email)
    expect(res.status).toBe(401)
    expect(personByEmail({ ctx: t.deps, input: { email } })!.totpEnabledAt).toBeNull()
  })

  test(
    "an owner's reset link on the Team page: the member's password and sessions stop; " +
      "not for a person in another owner's store",
    async () => {
      const { b, store } = await ownerSignedIn()
      const staff = await makeMember(t.deps, store.id, 'staff')
      const staffClient = client()
      await signIn(staffClient, staff.email)
      const team = await b.get('/admin/team')
      const resetHref = /href="(\/admin\/team\/[^"]+\/reset)" aria-label="Make a reset link for staff person"/.exec(
        team.text,
      )![1]!
      expect(team.text.match(/aria-label="Make a reset link for/g)).toHaveLength(1) // not for oneself
      const ask = await b.get(resetHref)
      expect(ask.text).toContain('Their password stops working at once')
      const made = await b.submit(resetHref)
      expect(made.status).toBe(200)
      const url = /id="reset-link" type="text" readonly value="([^"]+)"/.exec(made.text)![1]!.replace(/&amp;/g, '&')
      expect(url).toStartWith('http://localhost/admin/join?token=')
      expect((await staffClient.get('/admin')).status).toBe(303) // signed out
      expect((await signIn(client(), staff.email)).status).toBe(401)
      const path = url.slice('http://localhost'.length)
      const person = client()
      await person.get(path)
      expect((await person.submit(path, { password: 'a fresh long passphrase' })).status).toBe(303)

      // Someone who also works in a store this owner does not own: refused, nothing changes.
      const elsewhere = createStore({ ctx: t.deps, input: { name: 'Elsewhere', slug: `elsewhere-${clock.now()}` } })
      const shared = await makeMember(t.deps, store.id, 'viewer')
      t.deps.db
        .insert(memberships)
        .values({ storeId: elsewhere.id, userId: shared.user.id, role: 'owner', createdAt: 1, updatedAt: 1 })
        .run()
      const row = t.deps.db
        .select()
        .from(memberships)
        .where(and(eq(memberships.storeId, store.id), eq(memberships.userId, shared.user.id)))
        .get()!
      await b.get('/admin/team')
      const refused = await b.submit(`/admin/team/${row.id}/reset`)
      expect(refused.status).toBe(403)
      expect(refused.text).toContain('the server operator makes their reset link')
      expect((await signIn(client(), shared.email)).status).toBe(303)
    },
  )
})

describe('names and ways forward', () => {
  test('the activity log keeps the name a person had when they acted', async () => {
    const { b } = await ownerSignedIn()
    await b.get('/admin/team')
    await b.submit('/admin/team/invite', { email: 'named@example.com', role: 'staff' })
    await b.get('/admin/account')
    await b.submit('/admin/account/profile', { name: 'Renamed Later', language: '' })
    const log = await b.get('/admin/activity')
    expect(log.text).toContain('<td>Olga Owner (')
    expect(log.text).not.toContain('<td>Renamed Later (')
  })

  test('"Can\'t sign in?" on the sign-in page; a spent link says so and links to the sign-in page', async () => {
    const page = await client().get('/admin/login')
    expect(page.text).toContain('<summary>Can&#39;t sign in?</summary>')
    expect(page.text).toContain('ask an owner of your store for a reset link')
    expect(page.text).toContain('bun run admin user:reset --email &lt;e-mail&gt;')
    const { store } = await ownerSignedIn()
    const o = await storeOwner(store.id)
    const r = admin('user:reset', '--email', o.email)
    const path = new URL(r.json.url).pathname + new URL(r.json.url).search
    const first = client()
    await first.get(path)
    await first.submit(path, { password: 'a fresh long passphrase' })
    const spent = await client().get(path)
    expect(spent.status).toBe(410)
    expect(spent.text).toContain('This link was already used.')
    expect(spent.text).toContain('<a href="/admin/login">Go to the sign-in page</a>')
  })
})

async function ownerSignedIn() {
  const shop = await makeOwnerShop(t.deps)
  const b = client()
  expect((await signIn(b, shop.email)).status).toBe(303)
  return { ...shop, b }
}

async function storeOwner(storeId: string) {
  const m = t.deps.db
    .select({ email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.storeId, storeId), eq(memberships.role, 'owner')))
    .get()!
  return m
}
