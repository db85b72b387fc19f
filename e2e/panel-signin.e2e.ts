/**
 * The seller panel in Chromium, driven by roles and labels: accept an
 * invitation and set a password, sign out and in, a passkey through Chromium's virtual
 * authenticator, TOTP with a code and a recovery code, what a staff member sees, a cross-origin
 * form post, and `user:reset` ending an open session. Every page is checked (panel-harness.ts).
 * Run: `bun test ./e2e/panel-signin.e2e.ts`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { ctxFor } from '../src/kernel/context'
import { runAdmin } from '../src/cli/admin'
import { createOwner, hashPassword, inviteToStore, totpCodeAt } from '../src/modules/people'
import { createStore, getStore } from '../src/modules/platform-stores/service'
import { addPasskeyAuthenticator, check, close, open, startHarness, type Harness, navLink } from './panel-harness'

const TIMEOUT = 90_000
const PASSWORD = 'a long and quiet passphrase'
let h: Harness
let storeId = ''
let n = 0
const email = (p: string) => `${p}-${Date.now().toString(36)}-${++n}@example.com`

beforeAll(async () => {
  h = await startHarness()
  const deps = h.server.running.deps
  const store = createStore({ ctx: deps, input: { name: 'Panel Coffee', slug: 'panel-coffee', plan: 'pro' } })
  storeId = store.id
  createOwner({
    ctx: deps,
    input: { storeId, email: 'boss@example.com', name: 'Boss', passwordHash: await hashPassword(PASSWORD) },
  })
})
afterAll(async () => {
  await h?.close()
})

/** An invitation link, as the Team page or the CLI would hand it out. */
function invitation(address: string, role: 'owner' | 'staff' | 'viewer'): string {
  const deps = h.server.running.deps
  const store = getStore({ ctx: { db: deps.db }, input: { id: storeId } })!
  const issued = inviteToStore({ ctx: ctxFor(deps, store, { kind: 'cli' }), input: { email: address, role } })
  return `${h.origin}/admin/join?token=${issued.token}`
}

async function acceptInvitation(page: Page, link: string, name: string) {
  await page.goto(link)
  await check(page)
  await page.getByLabel('Your name').fill(name)
  await page.getByLabel('New password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Continue' }).click()
  await page
    .getByRole('heading', { level: 1, name: 'Dashboard' })
    .waitFor({ timeout: 15_000 })
    .catch(async () => {
      throw new Error(`not on the dashboard: ${page.url()}\n${(await page.content()).slice(0, 3000)}`)
    })
}

async function signIn(page: Page, address: string) {
  await page.goto(`${h.origin}/admin/login`)
  await page.getByLabel('Email').fill(address)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
}

async function signOut(page: Page) {
  // On a phone, signing out is on the More page.
  if ((await page.getByRole('button', { name: 'Sign out' }).count()) === 0)
    await (await navLink(page, 'More pages')).click()
  await page.getByRole('button', { name: 'Sign out' }).first().click()
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor()
}

describe('the panel in Chromium', () => {
  test(
    'accept an invitation → set a password → Dashboard; sign out; sign in again',
    async () => {
      const w = await open(h)
      const address = email('owner')
      await acceptInvitation(w.page, invitation(address, 'owner'), 'Olive Owner')
      await check(w.page)
      await signOut(w.page)
      await check(w.page)
      await signIn(w.page, address)
      await w.page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()
      for (const name of ['Team', 'API keys', 'Webhooks', 'Activity']) await (await navLink(w.page, name)).waitFor()
      await (await navLink(w.page, 'Team')).click()
      await check(w.page)
      await (await navLink(w.page, 'Account')).click()
      await check(w.page)
      await close(w)
    },
    TIMEOUT,
  )

  test(
    'register a passkey with a virtual authenticator, then sign in with it',
    async () => {
      const w = await open(h)
      await addPasskeyAuthenticator(w)
      const address = email('passkey')
      await acceptInvitation(w.page, invitation(address, 'owner'), 'Pat Passkey')
      await (await navLink(w.page, 'Account')).click()
      await w.page.getByLabel('Passkey name').fill('This laptop')
      await w.page.getByRole('button', { name: 'Add a passkey' }).click()
      await w.page.getByText('Passkey added.').waitFor()
      await w.page.getByText('This laptop').waitFor()
      await check(w.page)
      await signOut(w.page)
      await w.page.getByRole('button', { name: 'Sign in with a passkey' }).click()
      await w.page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()
      await check(w.page)
      await close(w)
    },
    TIMEOUT,
  )

  test(
    'turn on TOTP; sign in with a code, then with a recovery code',
    async () => {
      const w = await open(h)
      const { page } = w
      const address = email('totp')
      await acceptInvitation(page, invitation(address, 'staff'), 'Tom Totp')
      await (await navLink(page, 'Account')).click()
      await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click()
      await check(page)
      const secret = (await page.locator('#totp-secret').textContent())!.trim()
      await page.getByLabel('Code', { exact: true }).fill(totpCodeAt(secret, Date.now()))
      await page.getByRole('button', { name: 'Verify' }).click()
      await page.getByRole('heading', { level: 1, name: 'Your recovery codes' }).waitFor()
      await check(page)
      const codes = (await page.getByRole('listitem').allTextContents()).filter((c) =>
        /^[a-z0-9]{5}-[a-z0-9]{5}$/.test(c.trim()),
      )
      expect(codes).toHaveLength(10)
      await page.getByRole('link', { name: 'Done' }).click()
      await signOut(page)

      await signIn(page, address)
      await page.getByRole('heading', { level: 1, name: 'Two-step sign-in' }).waitFor()
      await check(page)
      // The next 30-second step: the one used to confirm the set-up is spent.
      await page.getByLabel('Code', { exact: true }).fill(totpCodeAt(secret, Date.now() + 30_000))
      await page.getByRole('button', { name: 'Verify' }).click()
      await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()
      await signOut(page)

      await signIn(page, address)
      await page.getByLabel('Code', { exact: true }).fill(codes[0]!)
      await page.getByRole('button', { name: 'Verify' }).click()
      await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()
      await close(w)
    },
    TIMEOUT,
  )

  test(
    'a staff member sees no Team, API keys or Webhooks links and gets 403 on their URLs',
    async () => {
      const w = await open(h)
      const { page } = w
      await acceptInvitation(page, invitation(email('staff'), 'staff'), 'Sally Staff')
      await check(page)
      // On a phone the links beyond the tabs are on the More page.
      await page.getByRole('link', { name: 'More pages', exact: true }).click()
      await page.getByRole('heading', { level: 1, name: 'More' }).waitFor()
      for (const name of ['Team', 'API keys', 'Webhooks', 'Activity'])
        expect(await page.getByRole('link', { name, exact: true }).count()).toBe(0)
      await page.getByRole('main').getByRole('link', { name: 'Orders', exact: true }).waitFor()
      for (const url of ['/admin/team', '/admin/keys', '/admin/webhooks']) {
        const res = await page.goto(h.origin + url)
        expect(res!.status()).toBe(403)
        await page.getByRole('heading', { level: 1, name: 'Not allowed' }).waitFor()
        await check(page)
      }
      // Chromium reports each 403 document as a console error: those three are the ones asked for.
      w.problems.splice(0, w.problems.length, ...w.problems.filter((p) => !p.includes('403')))
      await close(w)
    },
    TIMEOUT,
  )

  test(
    'a form posted from another origin on this host (same site, another port) changes nothing',
    async () => {
      const address = email('csrf')
      const w = await open(h)
      await acceptInvitation(w.page, invitation(address, 'owner'), 'Carla Careful')
      const other = await h.otherOrigin(
        '<!doctype html><html lang="en"><title>Win a prize</title>' +
          `<form method="post" action="${h.origin}/admin/account/profile">` +
          '<input type="hidden" name="name" value="Hacked"><button>Claim</button></form></html>',
      )
      const attacker = await w.context.newPage()
      const errors: string[] = []
      attacker.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
      await attacker.goto(other.origin)
      await attacker.getByRole('button', { name: 'Claim' }).click()
      await attacker.getByRole('heading', { level: 1, name: 'Not allowed' }).waitFor()
      await attacker.close()
      await (await navLink(w.page, 'Account')).click()
      expect(await w.page.getByLabel('Name', { exact: true }).inputValue()).toBe('Carla Careful')
      await close(w)
    },
    TIMEOUT,
  )

  test(
    'user:reset ends an open session',
    async () => {
      const address = email('reset')
      const w = await open(h)
      await acceptInvitation(w.page, invitation(address, 'viewer'), 'Rita Reset')
      const out: string[] = []
      const code = runAdmin(
        ['user:reset', '--email', address, '--json'],
        (s) => out.push(s),
        { DATA_DIR: h.server.config.dataDir },
        () => {},
      )
      expect(code).toBe(0)
      await w.page.reload()
      await w.page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor()
      await check(w.page)
      await close(w)
    },
    TIMEOUT,
  )
})
