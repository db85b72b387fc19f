/**
 * Passkey sign-in options over HTTP (a real SQLite file, client addresses from X-Forwarded-For
 * behind a trusted proxy): at most 30 a minute per address, then 429 with Retry-After; a
 * challenge belongs to the browser that asked (its `__Host-passkey` cookie), so another browser
 * cannot use it and a flood of options requests voids no one's challenge.
 */
import { describe, expect, test } from 'bun:test'
import { appForFile } from '../helpers/app'
import { makeOwnerShop, PanelClient, signIn } from '../helpers/panel'
import { SoftAuthenticator } from '../helpers/webauthn'
import { fixedClock } from '../../src/lib/time'
import { PASSKEY_OPTIONS_PER_MINUTE } from '../../src/modules/people'

// A minute's beginning, standing still unless a test moves it.
const clock = fixedClock(Date.UTC(2026, 2, 2, 10, 0, 0) + 1000)
const ORIGIN = 'https://panel.example'
const t = appForFile({ trustProxy: true, publicUrl: ORIGIN }, { clock })

/** A browser at `ip` (behind the proxy). */
const browser = (ip: string) =>
  new PanelClient((r) => t.app.handle(r), ORIGIN, { 'x-forwarded-for': ip, 'x-forwarded-proto': 'https' })

/** An owner with a registered passkey (a software authenticator for this origin). */
async function ownerWithPasskey(ip: string) {
  const { email } = await makeOwnerShop(t.deps)
  const b = browser(ip)
  expect((await signIn(b, email)).status).toBe(303)
  await b.get('/admin/account')
  const token = b.formToken()
  const opts = await b.postJson('/admin/account/passkeys/options', {}, { token })
  const auth = new SoftAuthenticator('panel.example', ORIGIN)
  const done = await b.postJson(
    '/admin/account/passkeys',
    { name: 'Laptop', response: auth.register(opts.json.options) },
    { token },
  )
  expect(done.status).toBe(200)
  return auth
}

describe('the options limit', () => {
  test(
    '30 a minute per address, then 429 with Retry-After; another address is not affected; ' +
      'the next minute opens again',
    async () => {
      const flood = browser('203.0.113.50')
      for (let i = 0; i < PASSKEY_OPTIONS_PER_MINUTE; i++) {
        const res = await flood.postJson('/admin/login/passkey/options', {})
        expect(res.status).toBe(200)
        expect(typeof res.json.options.challenge).toBe('string')
      }
      const refused = await flood.postJson('/admin/login/passkey/options', {})
      expect(refused.status).toBe(429)
      const wait = Number(refused.res.headers.get('retry-after'))
      expect(wait).toBeGreaterThan(0)
      expect(wait).toBeLessThanOrEqual(60)
      expect(refused.res.headers.getSetCookie().join()).not.toContain('__Host-passkey')
      expect((await browser('203.0.113.51').postJson('/admin/login/passkey/options', {})).status).toBe(200)
      clock.advance(wait * 1000)
      expect((await flood.postJson('/admin/login/passkey/options', {})).status).toBe(200)
    },
  )
})

describe('a challenge belongs to the browser that asked', () => {
  test('the ticket cookie: Secure, HttpOnly, SameSite=Strict, 5 minutes', async () => {
    const b = browser('198.51.100.1')
    const res = await b.postJson('/admin/login/passkey/options', {})
    const set = res.res.headers.getSetCookie().find((c) => c.startsWith('__Host-passkey='))!
    const [pair, ...attrs] = set.split(';').map((s) => s.trim())
    expect(pair).toMatch(/^__Host-passkey=[A-Za-z0-9_-]{22}\.\d{13}$/)
    expect(attrs.sort()).toEqual(['HttpOnly', 'Max-Age=300', 'Path=/', 'SameSite=Strict', 'Secure'])
  })

  test(
    "another browser cannot use it: the assertion without the asking browser's cookie is refused; with it, " +
      'it signs in',
    async () => {
      const auth = await ownerWithPasskey('198.51.100.2')
      const asking = browser('198.51.100.3')
      const opts = await asking.postJson('/admin/login/passkey/options', {})
      const assertion = auth.assert(opts.json.options)
      const other = browser('198.51.100.4')
      await other.postJson('/admin/login/passkey/options', {})
      expect((await other.postJson('/admin/login/passkey', { response: assertion })).status).toBe(401)
      // The other browser's failure spent nothing of the asking browser's ticket.
      const res = await asking.postJson('/admin/login/passkey', { response: assertion })
      expect(res.status).toBe(200)
      expect((await asking.get('/admin')).status).toBe(200)
      expect(asking.cookies.has('__Host-passkey')).toBe(false)
    },
  )

  test('an expired ticket is refused', async () => {
    const auth = await ownerWithPasskey('198.51.100.5')
    const b = browser('198.51.100.6')
    const opts = await b.postJson('/admin/login/passkey/options', {})
    clock.advance(5 * 60_000 + 1000)
    expect((await b.postJson('/admin/login/passkey', { response: auth.assert(opts.json.options) })).status).toBe(401)
  })

  test('a flood of 10,800 options requests from 400 addresses voids no challenge asked for before it', async () => {
    const auth = await ownerWithPasskey('198.51.100.7')
    const person = browser('198.51.100.8')
    const opts = await person.postJson('/admin/login/passkey/options', {})
    const statuses = new Map<number, number>()
    for (let a = 0; a < 400; a++) {
      const flooder = browser(`10.9.${a >> 8}.${a & 255}`)
      const burst = await Promise.all(
        Array.from({ length: 27 }, () =>
          t.app.handle(
            new Request(`${ORIGIN}/admin/login/passkey/options`, {
              method: 'POST',
              headers: { origin: ORIGIN, 'content-type': 'application/json', ...flooder.headers },
              body: '{}',
            }),
          ),
        ),
      )
      for (const r of burst) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1)
    }
    expect(statuses.get(200)).toBe(10_800)
    const res = await person.postJson('/admin/login/passkey', { response: auth.assert(opts.json.options) })
    expect(res.status).toBe(200)
  }, 120_000)
})
