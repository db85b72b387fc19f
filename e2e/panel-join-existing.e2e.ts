/**
 * An invitation for an existing account, in Chromium through the real pages: the owner of one
 * store invites the e-mail of another store's owner who signs in by one-time links only (as the
 * demo's owner does). Opening that link gives the holder no way to set the account's password;
 * the account's own person, signed in, accepts with one button, then sets a first password on the
 * Account page and signs in with it. Every page is checked (panel-harness.ts).
 * Run: `bun test ./e2e/panel-join-existing.e2e.ts`.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createOwner, hashPassword, issueSignInLink, personByEmail } from '../src/modules/people'
import { createStore } from '../src/modules/platform-stores/service'
import { check, close, goTo, navLink, open, startHarness, type Harness } from './panel-harness'

const TIMEOUT = 120_000
const PASSWORD = 'a long and quiet passphrase'
const VICTIM = 'link-only-owner@example.com'
let h: Harness
let victimId = ''

beforeAll(async () => {
  h = await startHarness()
  const deps = h.server.running.deps
  const theirs = createStore({ ctx: deps, input: { name: 'Quiet Tea', slug: 'quiet-tea', plan: 'pro' } })
  victimId = createOwner({
    ctx: deps,
    input: { storeId: theirs.id, email: VICTIM, name: 'Quinn', passwordHash: null },
  }).id
  const other = createStore({ ctx: deps, input: { name: 'Loud Coffee', slug: 'loud-coffee', plan: 'pro' } })
  createOwner({
    ctx: deps,
    input: { storeId: other.id, email: 'loud@example.com', name: 'Lou', passwordHash: await hashPassword(PASSWORD) },
  })
})
afterAll(async () => {
  await h?.close()
})

test(
  "an invitation to a link-only account: its holder can't set the password; " +
    "the account's person accepts, then sets one",
  async () => {
    // The other store's owner invites the e-mail on the Team page and opens the link themselves.
    const loud = await open(h)
    await loud.page.goto(`${h.origin}/admin/login`)
    await loud.page.getByLabel('Email').fill('loud@example.com')
    await loud.page.getByLabel('Password').fill(PASSWORD)
    await loud.page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await loud.page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()
    await goTo(loud.page, 'Team')
    await loud.page.getByLabel('Email').fill(VICTIM)
    await loud.page.getByLabel('Role', { exact: true }).selectOption('owner')
    await loud.page.getByRole('button', { name: 'Invite', exact: true }).click()
    await loud.page.getByRole('heading', { level: 1, name: 'Invitation ready' }).waitFor()
    await check(loud.page)
    const link = await loud.page.getByLabel('Invitation link').inputValue()
    expect(link).toStartWith(`${h.origin}/admin/join?token=`)

    await loud.page.goto(link)
    await loud.page.getByRole('heading', { level: 1, name: 'Join Loud Coffee' }).waitFor()
    await check(loud.page)
    await loud.page.getByText(`${VICTIM}, which has no password or passkey`).waitFor()
    expect(await loud.page.getByLabel('New password').count()).toBe(0)
    expect(await loud.page.getByLabel('Your name').count()).toBe(0)
    expect(await loud.page.getByLabel('Password', { exact: true }).count()).toBe(0)
    expect(await loud.page.getByRole('button', { name: 'Accept and join' }).count()).toBe(0)
    expect(personByEmail({ ctx: h.server.running.deps, input: { email: VICTIM } })!.passwordHash).toBeNull()
    expect(loud.problems).toEqual([])
    expect(loud.outside).toEqual([])
    await close(loud)

    // The account's own person, signed in by their one-time link, accepts with one button.
    const quinn = await open(h)
    const signInLink = issueSignInLink({ ctx: h.server.running.deps, input: { userId: victimId, createdBy: 'cli' } })
    await quinn.page.goto(`${h.origin}/admin/join?token=${signInLink.token}`)
    await quinn.page.getByRole('button', { name: 'Continue' }).click()
    await quinn.page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()
    await quinn.page.goto(link)
    await check(quinn.page)
    await quinn.page.getByText(`You are signed in as ${VICTIM}`).waitFor()
    await quinn.page.getByRole('button', { name: 'Accept and join' }).click()
    await quinn.page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()
    // Two stores now: the store switcher is on the page (on a phone it sits in the menu).
    await quinn.page.getByLabel('Store', { exact: true }).waitFor({ state: 'attached' })
    await check(quinn.page)

    // A first password: no current one asked, the new one twice.
    await (await navLink(quinn.page, 'Account')).click()
    await quinn.page.getByRole('heading', { level: 2, name: 'Set a password' }).waitFor()
    await check(quinn.page)
    expect(await quinn.page.getByLabel('Current password').count()).toBe(0)
    await quinn.page.getByLabel('New password', { exact: true }).fill(PASSWORD)
    await quinn.page.getByLabel('New password again').fill(PASSWORD)
    await quinn.page.getByRole('button', { name: 'Set a password' }).click()
    await quinn.page.getByText('Password set.').waitFor()
    await check(quinn.page)
    // On a phone, signing out is on the More page.
    await (await navLink(quinn.page, 'More pages')).click()
    await quinn.page.getByRole('button', { name: 'Sign out' }).first().click()
    await quinn.page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor()
    await quinn.page.getByLabel('Email').fill(VICTIM)
    await quinn.page.getByLabel('Password').fill(PASSWORD)
    await quinn.page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await quinn.page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()
    expect(quinn.problems).toEqual([])
    expect(quinn.outside).toEqual([])
    await close(quinn)
  },
  TIMEOUT,
)
