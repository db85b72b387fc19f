/**
 * Webhooks, the store pages and the team in Chromium on a phone, by roles and labels:
 * add a webhook to a local receiver, copy its secret (shown once), "Send test event" arrives
 * signed (verified with `standardwebhooks`), a failing delivery shows in the log and "Retry"
 * sends it again; categories (reorder), discounts (150 % refused at the field) and shipping;
 * invite a staff member, accept as them, and see their role's limits. Every page is checked
 * (panel-harness.ts: no off-origin request, console error or dialog, no serious or critical axe
 * violation, no sideways scroll at 390 × 844). (Creating, copying, using and revoking an API key
 * is in panel-catalog.e2e.ts.)
 * Run: `bun test ./e2e/panel-settings-team.e2e.ts`.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Page } from 'playwright-core'
import { Webhook } from 'standardwebhooks'
import { createOwner, hashPassword } from '../src/modules/people'
import { createStore } from '../src/modules/platform-stores/service'
import { startReceiver, type Receiver } from '../tests/helpers/webhook-receiver'
import {
  check,
  clipboardText,
  close,
  open,
  startHarness,
  type Harness,
  type Watched,
  goTo,
  navLink,
} from './panel-harness'

const TIMEOUT = 120_000
const PASSWORD = 'a long and quiet passphrase'
const OWNER = 'team-owner@example.com'
let h: Harness
let rx: Receiver

beforeAll(async () => {
  // The receiver listens on loopback, which only WEBHOOK_ALLOW_PRIVATE=1 lets an endpoint name.
  h = await startHarness({ webhookAllowPrivate: true })
  rx = startReceiver()
  const deps = h.server.running.deps
  const store = createStore({ ctx: deps, input: { name: 'Team Tea', slug: 'team-tea', plan: 'pro' } })
  createOwner({
    ctx: deps,
    input: { storeId: store.id, email: OWNER, name: 'Owner', passwordHash: await hashPassword(PASSWORD) },
  })
})
afterAll(async () => {
  rx?.stop()
  await h?.close()
})

async function signIn(page: Page) {
  await page.goto(`${h.origin}/admin/login`)
  await page.getByLabel('Email').fill(OWNER)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()
}

/** Reloads the page until `text` shows `times` times (the log is a server-rendered page; it updates on reload). */
async function reloadUntil(page: Page, text: string, times = 1) {
  for (let i = 0; i < 100; i++) {
    if ((await page.getByText(text).count()) === times) return
    await page.waitForTimeout(100)
    await page.reload()
  }
  throw new Error(`never showed ${text}`)
}

/** Refused forms answer 4xx, which Chromium reports as console errors: those were asked for. */
function expectRefusals(w: Watched, status: number, n: number) {
  expect(w.problems.filter((p) => p.includes(`status of ${status}`))).toHaveLength(n)
  w.problems.splice(0, w.problems.length, ...w.problems.filter((p) => !p.includes(`status of ${status}`)))
}

describe('webhooks, store pages and the team on a phone', () => {
  test(
    'add a webhook, copy its secret; the test event arrives signed; a failed delivery is retried from the log',
    async () => {
      const w = await open(h)
      const { page, context } = w
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.origin })
      await signIn(page)
      await goTo(page, 'Webhooks')
      await page.getByLabel('URL').fill(rx.url)
      await page.getByRole('button', { name: 'Add webhook' }).click()
      await page.getByRole('heading', { level: 1, name: 'Webhook added' }).waitFor()
      await check(page)
      await page.getByRole('button', { name: 'Copy' }).click()
      await page.getByText('Copied.').waitFor()
      const secret = await clipboardText(page)
      expect(secret).toStartWith('whsec_')
      await page.getByRole('link', { name: 'Done' }).click()
      await page.getByRole('link', { name: `Delivery log of ${rx.url}` }).click()
      await page.getByRole('heading', { level: 1, name: `Deliveries to ${rx.url}` }).waitFor()
      await check(page)

      await page.getByRole('button', { name: 'Send test event' }).click()
      await page.getByText('A test event is on its way.').waitFor()
      await rx.waitFor(() => rx.received.length === 1)
      const got = rx.received[0]!
      const payload = new Webhook(secret).verify(got.body, {
        'webhook-id': got.id,
        'webhook-timestamp': got.timestamp,
        'webhook-signature': got.signature,
      }) as { type: string }
      expect(payload.type).toBe('webhook.test')
      await reloadUntil(page, 'Delivered')
      await check(page)

      // The receiver fails: the log shows the answer; Retry sends the same delivery again.
      rx.respond = () => new Response('receiver is down', { status: 500 })
      await page.getByRole('button', { name: 'Send test event' }).click()
      await rx.waitFor(() => rx.received.length === 2)
      const failed = rx.received[1]!.id
      await reloadUntil(page, 'HTTP 500: receiver is down')
      await check(page)
      rx.respond = () => new Response(null, { status: 204 })
      await page.getByRole('button', { name: `Retry delivery ${failed}` }).click()
      await page.getByText('The delivery will be sent again now.').waitFor()
      await rx.waitFor(() => rx.received.length === 3)
      expect(rx.received[2]!.id).toBe(failed)
      await reloadUntil(page, 'Delivered', 2)
      await check(page)

      // Edit and rotate: the new secret is shown once.
      await page.getByRole('link', { name: `Edit webhook ${rx.url}` }).click()
      await page.getByRole('heading', { level: 1, name: `Edit the webhook to ${rx.url}` }).waitFor()
      await check(page)
      await page.getByRole('button', { name: 'Rotate the secret' }).click()
      await page.getByRole('heading', { level: 1, name: 'Your new signing secret' }).waitFor()
      await check(page)
      await close(w)
    },
    TIMEOUT,
  )

  test(
    'categories in order, a discount (150 % refused at the field) and a shipping option',
    async () => {
      const w = await open(h)
      const { page } = w
      await signIn(page)
      await goTo(page, 'Categories')
      for (const name of ['Green tea', 'Black tea']) {
        await page.getByLabel('Category name').fill(name)
        await page.getByRole('button', { name: 'Add category' }).click()
        await page.getByText('Saved.').waitFor()
      }
      await page.getByRole('button', { name: 'Move up: Black tea' }).click()
      await page.getByText('Order saved.').waitFor()
      await check(page)
      expect(await page.getByRole('main').getByRole('listitem').allInnerTexts()).toEqual([
        expect.stringContaining('Black tea'),
        expect.stringContaining('Green tea'),
      ])

      await (await navLink(page, 'Discounts')).click()
      await page.getByRole('link', { name: 'New discount' }).click()
      await page.getByRole('heading', { level: 1, name: 'New discount' }).waitFor()
      await check(page)
      await page.getByLabel('Code').fill('TEA150')
      await page.getByLabel('Value').fill('150')
      await page.getByRole('button', { name: 'Create discount' }).click()
      await page.getByText('A percentage is more than 0 and at most 100.').first().waitFor()
      await check(page)
      expectRefusals(w, 400, 1)
      await page.getByLabel('Value').fill('15')
      await page.getByRole('button', { name: 'Create discount' }).click()
      await page.getByText('Saved.').waitFor()
      await check(page)
      await page.getByRole('link', { name: 'Back to discounts' }).click()
      await page.getByRole('link', { name: 'Edit TEA150' }).waitFor()
      await check(page)

      await (await navLink(page, 'Shipping')).click()
      await page.getByRole('link', { name: 'New shipping option' }).click()
      await page.getByLabel('Name').fill('Courier')
      await page.getByLabel('Price (USD)').fill('4.90')
      await page.getByLabel('Estimated delivery (days)').fill('2')
      await page.getByRole('button', { name: 'Create shipping option' }).click()
      await page.getByText('Saved.').waitFor()
      await check(page)
      await page.getByRole('link', { name: 'Back to shipping' }).click()
      await page.getByRole('link', { name: 'Edit Courier' }).waitFor()
      await check(page)
      await close(w)
    },
    TIMEOUT,
  )

  test(
    "invite a staff member, accept as them, and see their role's limits",
    async () => {
      const w = await open(h)
      const { page } = w
      await signIn(page)
      await goTo(page, 'Team')
      await page.getByLabel('Email').fill('new-staff@example.com')
      await page.getByLabel('Role', { exact: true }).selectOption({ label: 'Staff' })
      await page.getByRole('button', { name: 'Invite', exact: true }).click()
      await page.getByRole('heading', { level: 1, name: 'Invitation ready' }).waitFor()
      await check(page)
      const link = await page.getByLabel('Invitation link').inputValue()
      expect(link).toStartWith(`${h.origin}/admin/join?token=`)
      const share = await page.getByRole('link', { name: 'Share on WhatsApp' }).getAttribute('href')
      expect(decodeURIComponent(share!.slice('https://wa.me/?text='.length))).toContain(link)
      await page.getByRole('button', { name: 'Copy link' }).waitFor()
      await close(w)

      const s = await open(h)
      await s.page.goto(link)
      await check(s.page)
      await s.page.getByLabel('Your name').fill('Sam Staff')
      await s.page.getByLabel('New password').fill(PASSWORD)
      await s.page.getByRole('button', { name: 'Continue' }).click()
      await s.page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()
      await check(s.page)
      // On a phone the links beyond the tabs are on the More page: what the role allows, and no more.
      await s.page.getByRole('navigation', { name: 'Shortcuts' }).getByRole('link', { name: 'More' }).click()
      await s.page.getByRole('heading', { level: 1, name: 'More' }).waitFor()
      await check(s.page)
      const nav = s.page.getByRole('main')
      await nav.getByRole('link', { name: 'Orders', exact: true }).waitFor()
      await nav.getByRole('link', { name: 'Categories', exact: true }).waitFor()
      for (const name of ['Team', 'API keys', 'Webhooks', 'Settings', 'Activity'])
        expect(await s.page.getByRole('link', { name, exact: true }).count()).toBe(0)
      const refused = await s.page.goto(`${h.origin}/admin/keys`)
      expect(refused!.status()).toBe(403)
      await s.page.getByRole('heading', { level: 1, name: 'Not allowed' }).waitFor()
      await check(s.page)
      expectRefusals(s, 403, 1)
      await close(s)
    },
    TIMEOUT,
  )
})
