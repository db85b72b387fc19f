/**
 * An invitation never sets or replaces an existing account's credentials, over HTTP against a real
 * SQLite file: a passwordless account (the demo's kind) joins only from a session signed in as it;
 * an account with a password joins with it and then its two-step; a new e-mail still gets its own
 * account. Also: "Set a password" for a person who has none, and where `next` may lead.
 */
import { describe, expect, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { appForFile } from '../helpers/app'
import { makeOwnerShop, PanelClient, PASSWORD, signIn } from '../helpers/panel'
import { uniq } from '../helpers/factories'
import { SoftAuthenticator } from '../helpers/webauthn'
import { fixedClock } from '../../src/lib/time'
import { activity, invitations, memberships } from '../../src/db/schema'
import { ctxFor } from '../../src/kernel/context'
import {
  createOwner,
  inviteToStore,
  issueSignInLink,
  startTotp,
  confirmTotp,
  totpCodeAt,
  personByEmail,
} from '../../src/modules/people'
import { createStore, getStore } from '../../src/modules/platform-stores/service'

const clock = fixedClock(Date.UTC(2026, 5, 1, 9, 0, 0))
const t = appForFile({}, { clock })
const client = () => new PanelClient((r) => t.app.handle(r))

/** A store whose owner has no password and no passkey, as the demo and the setup link make them. */
function linkOnlyOwner() {
  const store = createStore({ ctx: t.deps, input: { name: uniq('Link Shop'), slug: uniq('link').toLowerCase() } })
  const email = `${uniq('linkonly')}@example.com`
  const user = createOwner({ ctx: t.deps, input: { storeId: store.id, email, name: 'Link Only', passwordHash: null } })
  return { store, user, email }
}

/** An invitation to `storeId` for `email`, made by that store's owner (as the Team page would). */
function invitePath(storeId: string, email: string, role: 'owner' | 'staff' | 'viewer' = 'owner'): string {
  const store = getStore({ ctx: t.deps, input: { id: storeId } })!
  const issued = inviteToStore({ ctx: ctxFor(t.deps, store, { kind: 'cli' }), input: { email, role } })
  return `/admin/join?token=${issued.token}`
}

/** Signs `b` in as `userId` through a one-time sign-in link (the only way a link-only account signs in). */
async function signInByLink(b: PanelClient, userId: string) {
  const link = issueSignInLink({ ctx: t.deps, input: { userId, createdBy: 'cli' } })
  const path = `/admin/join?token=${link.token}`
  await b.get(path)
  expect((await b.submit(path)).status).toBe(303)
}

const member = (userId: string, storeId: string) =>
  t.deps.db
    .select()
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.storeId, storeId)))
    .get()

describe('an invitation for an account that has no password', () => {
  test("a stranger with the link gets no form setting the account's password; a forged post sets nothing", async () => {
    const victim = linkOnlyOwner()
    const other = await makeOwnerShop(t.deps)
    const path = invitePath(other.store.id, victim.email)
    const stranger = client()
    const page = await stranger.get(path)
    expect(page.status).toBe(200)
    expect(page.text).toContain('which has no password or passkey')
    expect(page.text).not.toContain('name="password"')
    expect(page.text).not.toContain('New password')
    // What the old page's form would have posted: refused, nothing written, no session.
    const forged = await stranger.submit(path, { name: 'Mallory', password: 'a chosen long passphrase' })
    expect(forged.status).toBe(403)
    expect(stranger.sid).toBeUndefined()
    const after = personByEmail({ ctx: t.deps, input: { email: victim.email } })!
    expect(after.passwordHash).toBeNull()
    expect(after.name).toBe('Link Only')
    expect(member(victim.user.id, other.store.id)).toBeUndefined()
    expect((await signIn(client(), victim.email, 'a chosen long passphrase')).status).toBe(401)
    // The link is not spent by the refusal: the right person can still use it.
    const row = t.deps.db.select().from(invitations).where(eq(invitations.storeId, other.store.id)).all()
    expect(row.every((r) => r.usedAt === null)).toBe(true)
  })

  test(
    'signed in as that account, the page offers "Accept and join"; ' +
      'accepting adds the membership and sets no password',
    async () => {
      const person = linkOnlyOwner()
      const other = await makeOwnerShop(t.deps)
      const path = invitePath(other.store.id, person.email, 'staff')
      const b = client()
      await signInByLink(b, person.user.id)
      const page = await b.get(path)
      expect(page.text).toContain('Accept and join')
      expect(page.text).not.toContain('name="password"')
      const before = b.sid
      const res = await b.submit(path, { accept: '1' })
      expect(res.status).toBe(303)
      expect(res.location).toBe('/admin')
      expect(b.sid).not.toBe(before) // a privilege change: a new session id
      expect(member(person.user.id, other.store.id)?.role).toBe('staff')
      expect(personByEmail({ ctx: t.deps, input: { email: person.email } })!.passwordHash).toBeNull()
      const joined = t.deps.db
        .select()
        .from(activity)
        .where(and(eq(activity.storeId, other.store.id), eq(activity.verb, 'join')))
        .all()
      expect(joined.map((a) => a.actor)).toEqual([`user:${person.user.id}`])
      expect((await b.get(path)).status).toBe(410)
    },
  )

  test('signed in as someone else: the page says so, and accepting from that session is refused', async () => {
    const person = linkOnlyOwner()
    const other = await makeOwnerShop(t.deps)
    const path = invitePath(other.store.id, person.email)
    const b = client()
    await signIn(b, other.email)
    const page = await b.get(path)
    expect(page.text).toContain(`You are signed in as ${other.email}, but this invitation is for ${person.email}.`)
    expect((await b.submit(path, { accept: '1' })).status).toBe(403)
    expect(member(person.user.id, other.store.id)).toBeUndefined()
  })
})

describe('an invitation for an account that has a passkey', () => {
  test('the page offers signing in with the passkey, which comes back to the link to accept', async () => {
    const person = linkOnlyOwner()
    const b = client()
    await signInByLink(b, person.user.id)
    await b.get('/admin/account')
    const token = b.formToken()
    const opts = await b.postJson('/admin/account/passkeys/options', {}, { token })
    const auth = new SoftAuthenticator('localhost', 'http://localhost')
    await b.postJson('/admin/account/passkeys', { name: 'Key', response: auth.register(opts.json.options) }, { token })
    const other = await makeOwnerShop(t.deps)
    const path = invitePath(other.store.id, person.email, 'viewer')
    const c = client()
    const page = await c.get(path)
    const via = `/admin/login?next=${encodeURIComponent(path)}`
    expect(page.text).toContain(`<a href="${via.replace(/&/g, '&amp;')}">Sign in with a passkey instead</a>`)
    expect(page.text).not.toContain('name="password"')
    const login = await c.get(via)
    expect(login.text).toContain(`<input type="hidden" name="next" value="${path}">`)
    const po = await c.postJson('/admin/login/passkey/options', {})
    const signedIn = await c.postJson('/admin/login/passkey', { response: auth.assert(po.json.options), next: path })
    expect(signedIn.json.next).toBe(path)
    expect((await c.get(path)).text).toContain('Accept and join')
    expect((await c.submit(path, { accept: '1' })).status).toBe(303)
    expect(member(person.user.id, other.store.id)?.role).toBe('viewer')
  })
})

describe('an invitation for an account that has a password', () => {
  test('the password, then the two-step code, then "Accept and join"; the password is never replaced', async () => {
    const a = await makeOwnerShop(t.deps)
    const b = await makeOwnerShop(t.deps)
    const user = personByEmail({ ctx: t.deps, input: { email: a.email } })!
    const setup = startTotp({ ctx: t.deps, input: { user, issuer: 'x' } })
    confirmTotp({
      ctx: t.deps,
      input: {
        user: personByEmail({ ctx: t.deps, input: { email: a.email } })!,
        code: totpCodeAt(setup.secret, clock.now()),
      },
    })
    clock.advance(31_000)
    const hashBefore = personByEmail({ ctx: t.deps, input: { email: a.email } })!.passwordHash
    const path = invitePath(b.store.id, a.email, 'viewer')
    const person = client()
    await person.get(path)
    const res = await person.submit(path, { password: PASSWORD, name: 'Renamed' })
    expect(res.status).toBe(303)
    expect(res.location).toBe(`/admin/login/two-step?next=${encodeURIComponent(path)}`)
    expect(member(a.user.id, b.store.id)).toBeUndefined() // not before the second step
    const step = await person.get(res.location!)
    expect(step.text).toContain(`<input type="hidden" name="next" value="${path}">`)
    const done = await person.submit('/admin/login/two-step', {
      next: path,
      code: totpCodeAt(setup.secret, clock.now()),
    })
    expect(done.status).toBe(303)
    expect(done.location).toBe(path)
    expect((await person.get(path)).text).toContain('Accept and join')
    expect((await person.submit(path, { accept: '1' })).status).toBe(303)
    expect(member(a.user.id, b.store.id)?.role).toBe('viewer')
    const after = personByEmail({ ctx: t.deps, input: { email: a.email } })!
    expect(after.passwordHash).toBe(hashBefore)
    expect(after.name).toBe('Olga Owner')
  })

  test('an account made after the page was opened is not given the posted password', async () => {
    const owner = await makeOwnerShop(t.deps)
    const address = `${uniq('late')}@example.com`
    const path = invitePath(owner.store.id, address)
    const person = client()
    expect((await person.get(path)).text).toContain('New password')
    // Meanwhile the e-mail gets an account elsewhere (a link-only one).
    const elsewhere = createStore({ ctx: t.deps, input: { name: uniq('Else'), slug: uniq('else').toLowerCase() } })
    createOwner({ ctx: t.deps, input: { storeId: elsewhere.id, email: address, name: 'Late', passwordHash: null } })
    const res = await person.submit(path, { name: 'Mallory', password: 'a chosen long passphrase' })
    expect(res.status).toBe(403)
    expect(personByEmail({ ctx: t.deps, input: { email: address } })!.passwordHash).toBeNull()
    expect(person.sid).toBeUndefined()
  })
})

describe('a first password', () => {
  test('"Set a password" asks for the new password twice and no current one; then it signs in', async () => {
    const person = linkOnlyOwner()
    const b = client()
    await signInByLink(b, person.user.id)
    const other = client()
    await signInByLink(other, person.user.id)
    const page = await b.get('/admin/account')
    expect(page.text).toContain('Set a password')
    expect(page.text).not.toContain('Current password')
    const differ = await b.submit('/admin/account/password', {
      password: 'a brand new passphrase',
      password2: 'another new passphrase',
    })
    expect(differ.status).toBe(400)
    expect(differ.text).toContain('The two passwords are not the same.')
    await b.get('/admin/account')
    const short = await b.submit('/admin/account/password', { password: 'short', password2: 'short' })
    expect(short.status).toBe(400)
    expect(short.text).toContain('Use at least 10 characters.')
    await b.get('/admin/account')
    const ok = await b.submit('/admin/account/password', {
      password: 'a brand new passphrase',
      password2: 'a brand new passphrase',
    })
    expect(ok.status).toBe(303)
    expect(ok.location).toBe('/admin/account?done=password-set')
    expect((await b.get('/admin/account?done=password-set')).text).toContain('Password set.')
    expect((await other.get('/admin')).status).toBe(303) // the other session ended
    expect((await signIn(client(), person.email, 'a brand new passphrase')).status).toBe(303)
  })

  test('a too-short password typed differently twice: both messages, each at its field, nothing set', async () => {
    const person = linkOnlyOwner()
    const b = client()
    await signInByLink(b, person.user.id)
    await b.get('/admin/account')
    const res = await b.submit('/admin/account/password', { password: 'short', password2: 'shorter' })
    expect(res.status).toBe(400)
    expect(res.text).toContain('<p id="new-password-error" class="error">Use at least 10 characters.</p>')
    expect(res.text).toContain('<p id="new-password-2-error" class="error">The two passwords are not the same.</p>')
    expect(res.text).toContain('<li><a href="#new-password-2">The two passwords are not the same.</a></li>')
    expect(/<input[^>]* id="new-password-2"[^>]*>/.exec(res.text)?.[0]).toContain('aria-invalid="true"')
    expect(personByEmail({ ctx: t.deps, input: { email: person.email } })!.passwordHash).toBeNull()
  })

  test('only while the sign-in is recent: later the page asks to confirm; a link-only account learns how', async () => {
    const person = linkOnlyOwner()
    const b = client()
    await signInByLink(b, person.user.id)
    clock.advance(11 * 60_000)
    await b.get('/admin/account')
    const late = await b.submit('/admin/account/password', {
      password: 'a brand new passphrase',
      password2: 'a brand new passphrase',
    })
    expect(late.status).toBe(403)
    expect(late.text).toContain('<h1>Confirm it&#39;s you</h1>')
    expect(late.text).toContain('Sign in again with a new one-time link')
    expect(late.text).not.toContain('a brand new passphrase') // never written back into a page
    expect(personByEmail({ ctx: t.deps, input: { email: person.email } })!.passwordHash).toBeNull()
  })
})

describe('next', () => {
  test('only a same-origin path under /admin or /oauth/authorize; anything else → /admin, never a 500', async () => {
    const { email } = await makeOwnerShop(t.deps)
    const cases: [string, string][] = [
      ['/admin/orders?status=new', '/admin/orders?status=new'],
      ['/oauth/authorize?client_id=x&state=y', '/oauth/authorize?client_id=x&state=y'],
      ['/admin/é', '/admin'],
      ['/admin/\u{1F600}', '/admin'],
      ['https://evil.example/admin', '/admin'],
      ['//evil.example/admin', '/admin'],
      ['/admin\\..\\x', '/admin'],
      ['/administrator', '/admin'],
      ['/oauth/token', '/admin'],
      ['/admin/ x', '/admin'],
    ]
    for (const [next, where] of cases) {
      const b = client()
      await b.get('/admin/login')
      const res = await b.submit('/admin/login', { email, password: PASSWORD, next })
      expect([next, res.status]).toEqual([next, 303])
      expect([next, res.location]).toEqual([next, where])
    }
    // The sign-in page's own GET: a signed-in person is sent on, an unsafe next ignored.
    const b = client()
    await signIn(b, email)
    expect((await b.get(`/admin/login?next=${encodeURIComponent('/admin/é')}`)).location).toBe('/admin')
  })
})
