/**
 * A passkey sign-in in Chromium (its virtual authenticator) while a flood of anonymous options
 * requests runs: the person's browser asks for its challenge, then — before the browser signs it —
 * 10,250 more options requests come from one address, and the person still signs in. The options
 * answer is held by the test (page.route) until the flood is over, so the order is certain.
 * Run: `bun test ./e2e/panel-passkey-flood.e2e.ts`.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createOwner, hashPassword } from '../src/modules/people'
import { createStore } from '../src/modules/platform-stores/service'
import {
  addPasskeyAuthenticator,
  check,
  close,
  navLink,
  open,
  signInAs,
  startHarness,
  type Harness,
} from './panel-harness'

const TIMEOUT = 180_000
const PASSWORD = 'a long and quiet passphrase'
const EMAIL = 'passkey-flood@example.com'
const FLOOD = 10_250
let h: Harness

beforeAll(async () => {
  h = await startHarness()
  const deps = h.server.running.deps
  const store = createStore({ ctx: deps, input: { name: 'Flood Coffee', slug: 'flood-coffee', plan: 'pro' } })
  createOwner({
    ctx: deps,
    input: { storeId: store.id, email: EMAIL, name: 'Pat', passwordHash: await hashPassword(PASSWORD) },
  })
})
afterAll(async () => {
  await h?.close()
})

/** FLOOD options requests from this process (one address), 50 at a time; their statuses counted. */
async function flood(): Promise<Map<number, number>> {
  const counts = new Map<number, number>()
  for (let i = 0; i < FLOOD; i += 50) {
    const statuses = await Promise.all(
      Array.from({ length: Math.min(50, FLOOD - i) }, () =>
        h.server
          .fetch('/admin/login/passkey/options', {
            method: 'POST',
            headers: { origin: new URL(h.server.running.url).origin, 'content-type': 'application/json' },
            body: '{}',
          })
          .then(async (r) => {
            await r.arrayBuffer()
            return r.status
          }),
      ),
    )
    for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1)
  }
  return counts
}

test(
  'a flood of options requests from one address beside a real passkey sign-in: the person signs in',
  async () => {
    const w = await open(h)
    await addPasskeyAuthenticator(w)
    await signInAs(h, w.page, EMAIL, PASSWORD)
    await (await navLink(w.page, 'Account')).click()
    await w.page.getByLabel('Passkey name').fill('This laptop')
    await w.page.getByRole('button', { name: 'Add a passkey' }).click()
    await w.page.getByText('Passkey added.').waitFor()
    // On a phone, signing out is on the More page.
    if ((await w.page.getByRole('button', { name: 'Sign out' }).count()) === 0)
      await (await navLink(w.page, 'More pages')).click()
    await w.page.getByRole('button', { name: 'Sign out' }).first().click()
    await w.page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor()
    await check(w.page)

    // The browser's options answer is held until the flood is over.
    let counts: Map<number, number> | undefined
    await w.page.route('**/admin/login/passkey/options', async (route) => {
      const response = await route.fetch()
      counts = await flood()
      await route.fulfill({ response })
    })
    await w.page.getByRole('button', { name: 'Sign in with a passkey' }).click()
    await w.page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor({ timeout: 120_000 })
    await check(w.page)
    // The flood was limited: 29 more options after the browser's own, then 429s.
    expect([...counts!.keys()].sort()).toEqual([200, 429])
    expect(counts!.get(200)).toBe(29)
    expect(counts!.get(429)).toBe(FLOOD - 29)
    await close(w)
  },
  TIMEOUT,
)
