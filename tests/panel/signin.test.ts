/**
 * Sign-in to the panel over HTTP against a real SQLite file: password (same answer for an
 * unknown e-mail), the throttle, the session cookie and its rotation, devices, two-step
 * sign-in with TOTP and recovery codes, passkeys (a software authenticator), and the rule that
 * a key never opens /admin and a session never opens /api/v1.
 */
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { appForFile } from '../helpers/app'
import { makeKey } from '../helpers/factories'
import { makeOwnerShop, PanelClient, PASSWORD, signIn } from '../helpers/panel'
import { SoftAuthenticator } from '../helpers/webauthn'
import { fixedClock } from '../../src/lib/time'
import { passwordWork } from '../../src/modules/people'
import { sessions, users } from '../../src/db/schema'
import { hashToken, totpCodeAt, PER_EMAIL_TIERS } from '../../src/modules/people'
import { qrSvgOf } from '../../src/panel/views/qr'

const clock = fixedClock(Date.UTC(2026, 2, 2, 10, 0, 0))
const client = () => new PanelClient((r) => t.app.handle(r))

const t = appForFile({}, { clock })

describe('password sign-in', () => {
  test(
    'the login page has labelled Email and Password fields and a Sign in button; ' +
      'a good password opens the dashboard',
    async () => {
      const { email } = await makeOwnerShop(t.deps)
      const b = client()
      const login = await b.get('/admin/login')
      expect(login.status).toBe(200)
      expect(login.text).toContain('<label for="email">Email</label>')
      expect(login.text).toContain('<label for="password">Password</label>')
      expect(login.text).toContain('<button type="submit">Sign in</button>')
      const res = await b.submit('/admin/login', { email: email.toUpperCase(), password: PASSWORD })
      expect(res.status).toBe(303)
      expect(res.location).toBe('/admin')
      const dash = await b.get('/admin')
      expect(dash.status).toBe(200)
      expect(dash.text).toContain('<h1>Dashboard</h1>')
    },
  )

  test('an unknown e-mail and a wrong password get the same answer, after the same argon2id work', async () => {
    const { email } = await makeOwnerShop(t.deps)
    // The work is counted, not timed (no wall-clock assertion in bun test): each answer runs one
    // argon2id verification — against the person's hash or, for an unknown e-mail, a dummy of
    // the same cost (passwords.ts) — so neither returns early.
    const attempt = async (e: string) => {
      const b = client()
      await b.get('/admin/login')
      const before = passwordWork.verifications
      const page = await b.submit('/admin/login', { email: e, password: 'wrong password here' })
      return {
        verifications: passwordWork.verifications - before,
        status: page.status,
        text: page.text.replace(/value="[^"]*@[^"]*"/, ''),
      }
    }
    const wrong = await attempt(email)
    const unknown = await attempt('nobody-here@example.com')
    expect(wrong.status).toBe(401)
    expect(unknown.status).toBe(401)
    expect(unknown.text).toBe(wrong.text)
    expect(wrong.text).toContain('Wrong e-mail or password.')
    expect([wrong.verifications, unknown.verifications]).toEqual([1, 1])
  })

  test(
    '10 wrong passwords: then 429 with Retry-After, even for the right one; ' +
      'after the delay the right password works',
    async () => {
      const { email } = await makeOwnerShop(t.deps)
      // Start at a window's beginning so the 15-minute window doesn't end mid-test.
      clock.set(Math.ceil(clock.now() / 900_000) * 900_000 + 1000)
      const b = client()
      await b.get('/admin/login')
      for (let i = 0; i < PER_EMAIL_TIERS[0].limit; i++)
        expect((await b.submit('/admin/login', { email, password: `wrong-${i}-password` })).status).toBe(401)
      const blocked = await b.submit('/admin/login', { email, password: PASSWORD })
      expect(blocked.status).toBe(429)
      expect(Number(blocked.res.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(blocked.text).toContain('Too many attempts')
      // Another e-mail from the same address is not locked by these failures.
      const other = await makeOwnerShop(t.deps)
      expect((await client().submit('/admin/login', { email: other.email, password: PASSWORD })).status).toBe(303)
      clock.advance(Number(blocked.res.headers.get('retry-after')) * 1000)
      const ok = await b.submit('/admin/login', { email, password: PASSWORD })
      expect(ok.status).toBe(303)
    },
  )

  test('the session cookie has just the documented attributes, its id stored hashed; sign-in rotates it', async () => {
    const { email, user } = await makeOwnerShop(t.deps)
    const b = client()
    await signIn(b, email)
    const set = b.setCookies.at(-1)!
    const [pair, ...attrs] = set.split(';').map((s) => s.trim())
    expect(pair).toMatch(/^__Host-sid=[A-Za-z0-9_-]{43}$/)
    expect(attrs.filter((a) => !a.startsWith('Max-Age=')).sort()).toEqual([
      'HttpOnly',
      'Path=/',
      'SameSite=Lax',
      'Secure',
    ])
    expect(set.toLowerCase()).not.toContain('domain')
    const first = b.sid!
    const rows = t.deps.db.select().from(sessions).where(eq(sessions.userId, user.id)).all()
    expect(rows.map((r) => r.tokenHash)).toEqual([hashToken(first)])
    expect(JSON.stringify(rows)).not.toContain(first)
    // Signing in again from the same browser (a form of the signed-in page): a new id, and the old one opens nothing.
    await b.get('/admin')
    const again = await b.submit('/admin/login', { email, password: PASSWORD })
    expect(again.status).toBe(303)
    expect(b.sid).not.toBe(first)
    const stale = new PanelClient((r) => t.app.handle(r))
    stale.cookies.set('__Host-sid', first)
    expect((await stale.get('/admin')).status).toBe(303)
  })

  test('idle sessions end after 14 days, any session after 60', async () => {
    const { email } = await makeOwnerShop(t.deps)
    const b = client()
    await signIn(b, email)
    clock.advance(13 * 86_400_000)
    expect((await b.get('/admin')).status).toBe(200)
    clock.advance(13 * 86_400_000)
    expect((await b.get('/admin')).status).toBe(200)
    clock.advance(15 * 86_400_000)
    expect((await b.get('/admin')).status).toBe(303)
    const c = client()
    await signIn(c, email)
    for (let i = 0; i < 4; i++) {
      clock.advance(13 * 86_400_000)
      expect((await c.get('/admin')).status).toBe(200)
    }
    clock.advance(9 * 86_400_000)
    expect((await c.get('/admin')).status).toBe(303)
  })

  test('sign out ends the session', async () => {
    const { email } = await makeOwnerShop(t.deps)
    const b = client()
    await signIn(b, email)
    const sid = b.sid!
    await b.get('/admin')
    const out = await b.submit('/admin/logout')
    expect(out.status).toBe(303)
    expect(out.location).toBe('/admin/login')
    expect(b.sid).toBeUndefined()
    const replay = client()
    replay.cookies.set('__Host-sid', sid)
    expect((await replay.get('/admin')).status).toBe(303)
  })
})

describe('a key never opens the panel; a session never opens the API', () => {
  test('Bearer key on /admin → sign-in redirect; session cookie on /api/v1 → 401', async () => {
    const { email, store } = await makeOwnerShop(t.deps)
    const key = makeKey(t.deps, store.id)
    const viaKey = await client().get('/admin', { authorization: `Bearer ${key}` })
    expect(viaKey.status).toBe(303)
    expect(viaKey.location).toStartWith('/admin/login')
    const b = client()
    await signIn(b, email)
    const api = await b.get('/api/v1/products')
    expect(api.status).toBe(401)
  })
})

describe('devices and password change', () => {
  test('"Your devices" lists sessions; end one; end all others; a password change ends the others', async () => {
    const { email } = await makeOwnerShop(t.deps)
    const phone = new PanelClient((r) => t.app.handle(r), undefined, {
      'user-agent': 'Mozilla/5.0 (Linux; Android 14) Chrome/130.0 Mobile',
    })
    const laptop = new PanelClient((r) => t.app.handle(r), undefined, {
      'user-agent': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) Firefox/130.0',
    })
    const tablet = client()
    for (const b of [phone, laptop, tablet]) await signIn(b, email)
    const acct = await phone.get('/admin/account')
    expect(acct.text).toContain('Chrome · Android')
    expect(acct.text).toContain('Firefox · macOS')
    const laptopEnd = new RegExp(
      'action="/admin/account/sessions/([^/]+)/end"><input type="hidden" name="_csrf" value="[^"]+">' +
        '<button type="submit" class="secondary" aria-label="Sign out Firefox',
    )
    const laptopId = laptopEnd.exec(acct.text)?.[1]
    expect(laptopId).toBeDefined()
    expect((await phone.submit(`/admin/account/sessions/${laptopId}/end`)).status).toBe(303)
    expect((await laptop.get('/admin')).status).toBe(303)
    expect((await tablet.get('/admin')).status).toBe(200)
    await phone.get('/admin/account')
    expect((await phone.submit('/admin/account/sessions/end-others')).status).toBe(303)
    expect((await tablet.get('/admin')).status).toBe(303)
    expect((await phone.get('/admin')).status).toBe(200)

    // Password change: current password checked, the new one must pass the rules, other sessions end.
    await signIn(tablet, email)
    await phone.get('/admin/account')
    const weak = await phone.submit('/admin/account/password', { current: PASSWORD, password: 'short one' })
    expect(weak.status).toBe(400)
    expect(weak.text).toContain('Use at least 10 characters.')
    await phone.get('/admin/account')
    const common = await phone.submit('/admin/account/password', { current: PASSWORD, password: 'qwertyuiop' })
    expect(common.text).toContain('This password is too common.')
    await phone.get('/admin/account')
    const before = phone.sid
    const changed = await phone.submit('/admin/account/password', {
      current: PASSWORD,
      password: 'a brand new passphrase',
    })
    expect(changed.status).toBe(303)
    expect(phone.sid).not.toBe(before)
    expect((await tablet.get('/admin')).status).toBe(303)
    expect((await phone.get('/admin/account?done=password')).text).toContain('Password changed.')
    expect((await signIn(client(), email, 'a brand new passphrase')).status).toBe(303)
  })
})

/** The setup page draws the otpauth: URI of exactly this secret as an SVG QR code, above the key. */
function expectTotpQr(text: string, secret: string) {
  const uri = /<a href="(otpauth:[^"]+)"/.exec(text)![1]!.replaceAll('&amp;', '&')
  expect(uri).toContain(`secret=${secret}`)
  const svg = /<svg [^>]*class="qr"[\s\S]*?<\/svg>/.exec(text)?.[0]
  expect(svg).toContain(
    'role="img" aria-labelledby="totp-qr-title"><title id="totp-qr-title">QR code for your authenticator app',
  )
  const expected = qrSvgOf(uri)
  expect(svg).toContain(expected.slice(expected.indexOf('><rect') + 1))
  expect(text.indexOf('class="qr"')).toBeLessThan(text.indexOf('id="totp-secret"'))
}

describe('two-step sign-in (TOTP) and recovery codes', () => {
  async function enable(b: PanelClient) {
    await b.get('/admin/account')
    const setup = await b.submit('/admin/account/two-step')
    expect(setup.status).toBe(200)
    const secret = /<code id="totp-secret" class="secret">([A-Z2-7]+)<\/code>/.exec(setup.text)![1]!
    expectTotpQr(setup.text, secret)
    const done = await b.submit('/admin/account/two-step/confirm', { code: totpCodeAt(secret, clock.now()) })
    expect(done.status).toBe(200)
    const codes = [...done.text.matchAll(/<li>([a-z0-9]{5}-[a-z0-9]{5})<\/li>/g)].map((m) => m[1]!)
    expect(codes).toHaveLength(10)
    return { secret, codes }
  }

  test('with TOTP on, a password leads to a second step; a right code signs in, no wrong or reused one', async () => {
    const { email, user } = await makeOwnerShop(t.deps)
    const b = client()
    await signIn(b, email)
    const { secret } = await enable(b)
    const row = t.deps.db.select().from(users).where(eq(users.id, user.id)).get()!
    expect(row.totpSecret).toStartWith('v1.')
    expect(row.totpSecret).not.toContain(secret)

    clock.advance(60_000)
    const c = client()
    const step1 = await signIn(c, email)
    expect(step1.location).toBe('/admin/login/two-step')
    // The pending session opens nothing else.
    expect((await c.get('/admin')).status).toBe(303)
    const page = await c.get('/admin/login/two-step')
    expect(page.text).toContain('<label for="code">Code</label>')
    expect((await c.submit('/admin/login/two-step', { code: '000000' })).status).toBe(401)
    const code = totpCodeAt(secret, clock.now())
    await c.get('/admin/login/two-step')
    const ok = await c.submit('/admin/login/two-step', { code })
    expect(ok.status).toBe(303)
    expect((await c.get('/admin')).status).toBe(200)
    // The same code again (another browser, same 30 s): refused.
    const d = client()
    await signIn(d, email)
    await d.get('/admin/login/two-step')
    expect((await d.submit('/admin/login/two-step', { code })).status).toBe(401)
  })

  test('a recovery code signs in once', async () => {
    const { email } = await makeOwnerShop(t.deps)
    const b = client()
    await signIn(b, email)
    const { codes } = await enable(b)
    const c = client()
    await signIn(c, email)
    await c.get('/admin/login/two-step')
    expect((await c.submit('/admin/login/two-step', { code: codes[3]!.toUpperCase() })).status).toBe(303)
    const d = client()
    await signIn(d, email)
    await d.get('/admin/login/two-step')
    expect((await d.submit('/admin/login/two-step', { code: codes[3]! })).status).toBe(401)
    await d.get('/admin/login/two-step')
    expect((await d.submit('/admin/login/two-step', { code: codes[4]! })).status).toBe(303)
    expect((await d.get('/admin/account')).text).toContain('8 recovery codes left.')
  })
})

describe('passkeys', () => {
  async function register(b: PanelClient) {
    await b.get('/admin/account')
    const token = b.formToken()
    const opts = await b.postJson('/admin/account/passkeys/options', {}, { token })
    expect(opts.status).toBe(200)
    const auth = new SoftAuthenticator('localhost', 'http://localhost')
    const done = await b.postJson(
      '/admin/account/passkeys',
      { name: 'Laptop <b>', response: auth.register(opts.json.options) },
      { token },
    )
    expect(done.status).toBe(200)
    expect(done.json).toEqual({ ok: true, next: '/admin/account?done=passkey' })
    return auth
  }

  test('register after sign-in, then sign in with it; the login page offers it once passkeys exist', async () => {
    const { email } = await makeOwnerShop(t.deps)
    const b = client()
    await signIn(b, email)
    const auth = await register(b)
    expect((await b.get('/admin/account')).text).toContain('Laptop &lt;b&gt;')

    const c = client()
    const login = await c.get('/admin/login')
    expect(login.text).toContain('Sign in with a passkey')
    const opts = await c.postJson('/admin/login/passkey/options', {})
    const res = await c.postJson('/admin/login/passkey', { response: auth.assert(opts.json.options) })
    expect(res.status).toBe(200)
    expect(res.json.next).toBe('/admin')
    expect((await c.get('/admin')).status).toBe(200)
  })

  test('a replayed, tampered or wrong-origin assertion is refused', async () => {
    const { email } = await makeOwnerShop(t.deps)
    const b = client()
    await signIn(b, email)
    const auth = await register(b)

    const c = client()
    const opts = await c.postJson('/admin/login/passkey/options', {})
    const assertion = auth.assert(opts.json.options)
    const tampered = structuredClone(assertion)
    const sig = Buffer.from(tampered.response.signature, 'base64url')
    sig[sig.length - 1]! ^= 1
    tampered.response.signature = sig.toString('base64url')
    expect((await c.postJson('/admin/login/passkey', { response: tampered })).status).toBe(401)
    // The challenge was spent by the tampered try: even the genuine assertion is now a replay.
    expect((await c.postJson('/admin/login/passkey', { response: assertion })).status).toBe(401)

    const opts2 = await c.postJson('/admin/login/passkey/options', {})
    const good = auth.assert(opts2.json.options)
    expect((await c.postJson('/admin/login/passkey', { response: good })).status).toBe(200)
    const again = client()
    expect((await again.postJson('/admin/login/passkey', { response: good })).status).toBe(401)

    const d = client()
    const opts3 = await d.postJson('/admin/login/passkey/options', {})
    expect(
      (await d.postJson('/admin/login/passkey', { response: auth.assert(opts3.json.options, 'https://evil.example') }))
        .status,
    ).toBe(401)
  })
})
