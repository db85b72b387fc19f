/**
 * "Confirm it's you" in Chromium: an owner whose sign-in is older than 10 minutes invites a person
 * on the Team page, is asked for the password on the confirm page, and the same invitation goes
 * ahead once it is given; then makes a member's reset link (confirmation page, link ready). Every
 * page is checked (panel-harness.ts). Run: `bun test ./e2e/panel-confirm.e2e.ts`.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { memberships, sessions, users } from '../src/db/schema'
import { createOwner, hashPassword } from '../src/modules/people'
import { check, close, goTo, open, ownerStore, signInAs, startHarness, type Harness } from './panel-harness'

const TIMEOUT = 120_000
const PASSWORD = 'a long and quiet passphrase'
let h: Harness

beforeAll(async () => {
  h = await startHarness()
})
afterAll(async () => {
  await h?.close()
})

/** Makes every session of the person look signed in 11 minutes ago (the server's clock is real). */
function ageProofs(email: string) {
  const db = h.server.running.deps.db
  const user = db.select().from(users).where(eq(users.email, email)).get()!
  db.update(sessions)
    .set({ provedAt: Date.now() - 11 * 60_000 })
    .where(eq(sessions.userId, user.id))
    .run()
}

test(
  "an old sign-in: inviting asks to confirm it's you, then the same invitation goes ahead; a member's reset link",
  async () => {
    const { store } = await ownerStore(h, {
      name: 'Proof Tea',
      slug: 'proof-tea',
      email: 'proof@example.com',
      password: PASSWORD,
    })
    const mel = createOwner({
      ctx: h.server.running.deps,
      input: {
        storeId: store.id,
        email: 'member@example.com',
        name: 'Mel',
        passwordHash: await hashPassword(PASSWORD),
      },
    })
    h.server.running.deps.db.update(memberships).set({ role: 'staff' }).where(eq(memberships.userId, mel.id)).run()

    const w = await open(h)
    await signInAs(h, w.page, 'proof@example.com', PASSWORD)
    await goTo(w.page, 'Team')
    ageProofs('proof@example.com')
    await w.page.getByLabel('Email').fill('new.person@example.com')
    await w.page.getByLabel('Role', { exact: true }).selectOption('viewer')
    await w.page.getByRole('button', { name: 'Invite', exact: true }).click()
    await w.page.getByRole('heading', { level: 1, name: "Confirm it's you" }).waitFor()
    await check(w.page)
    await w.page.getByLabel('Password').fill('not the password')
    await w.page.getByRole('button', { name: 'Confirm' }).click()
    await w.page.getByText('The current password is not right.').waitFor()
    await check(w.page)
    await w.page.getByLabel('Password').fill(PASSWORD)
    await w.page.getByRole('button', { name: 'Confirm' }).click()
    await w.page.getByRole('heading', { level: 1, name: 'Invitation ready' }).waitFor()
    expect(await w.page.getByText('Send this one-time link to new.person@example.com.').count()).toBe(1)
    await check(w.page)
    // Chromium reports each 4xx document as a console error: the confirm
    // page (403) and the wrong password (401) are the ones asked for.
    expect(w.problems.map((p) => /status of (\d+)/.exec(p)?.[1])).toEqual(['403', '401'])
    w.problems.splice(0, w.problems.length)

    // A member's reset link: asked first, then the link, ready to copy.
    await goTo(w.page, 'Team')
    await w.page.getByRole('link', { name: 'Make a reset link for Mel' }).click()
    await w.page.getByRole('heading', { level: 1, name: 'Make a reset link for Mel?' }).waitFor()
    await check(w.page)
    await w.page.getByRole('button', { name: 'Yes, make the link' }).click()
    await w.page.getByRole('heading', { level: 1, name: 'Reset link ready' }).waitFor()
    await check(w.page)
    expect(await w.page.getByLabel('Reset link').inputValue()).toStartWith(`${h.origin}/admin/join?token=`)
    await close(w)
  },
  TIMEOUT,
)
