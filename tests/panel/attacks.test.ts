/**
 * The panel's defences over HTTP: cross-origin and token-less posts change nothing, GET changes
 * nothing, and no session id, password, TOTP secret or link token appears in a log line, an
 * error body or a backup (its manifest, or the database copy) in clear.
 */
import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { appForFile, tempDir } from '../helpers/app'
import { makeOwnerShop, PanelClient, signIn } from '../helpers/panel'
import { users } from '../../src/db/schema'
import { createSnapshot } from '../../src/backup/snapshot'
import { totpCodeAt } from '../../src/modules/people'
import type { Logger } from '../../src/lib/log'

const lines: string[] = []
const capture = (level: string) => (msg: string, fields?: Record<string, unknown>) =>
  void lines.push(JSON.stringify({ level, msg, ...fields }))
const log: Logger = {
  debug: capture('debug'),
  info: capture('info'),
  warn: capture('warn'),
  error: capture('error'),
  enabled: () => true,
}

const client = () => new PanelClient((r) => t.app.handle(r))
const nameOf = (userId: string) => t.deps.db.select().from(users).where(eq(users.id, userId)).get()!.name

const t = appForFile({ logLevel: 'debug' }, { log })

describe('CSRF', () => {
  test('a form posted from another origin (same site, another port) changes nothing: 403', async () => {
    const { email, user } = await makeOwnerShop(t.deps)
    const b = client()
    await signIn(b, email)
    await b.get('/admin/account')
    for (const origin of ['http://localhost:8443', 'https://localhost', 'https://evil.example', 'null']) {
      const res = await b.submit('/admin/account/profile', { name: 'Changed' }, { origin })
      expect(res.status).toBe(403)
      expect(res.text).toContain('nothing was changed')
    }
    expect(nameOf(user.id)).toBe('Olga Owner')
  })

  test('without Origin, only Sec-Fetch-Site: same-origin passes; a post without the form token is 403', async () => {
    const { email, user } = await makeOwnerShop(t.deps)
    const b = client()
    await signIn(b, email)
    await b.get('/admin/account')
    const token = b.formToken()
    expect((await b.submit('/admin/account/profile', { name: 'No origin' }, { origin: null })).status).toBe(403)
    expect(
      (
        await b.submit(
          '/admin/account/profile',
          { name: 'Same site' },
          { origin: null, headers: { 'sec-fetch-site': 'same-site' } },
        )
      ).status,
    ).toBe(403)
    expect((await b.submit('/admin/account/profile', { name: 'No token' }, { token: null })).status).toBe(403)
    expect((await b.submit('/admin/account/profile', { name: 'Wrong token' }, { token: 'x'.repeat(43) })).status).toBe(
      403,
    )
    expect(nameOf(user.id)).toBe('Olga Owner')
    const ok = await b.submit(
      '/admin/account/profile',
      { name: 'Fetch same-origin' },
      { origin: null, token, headers: { 'sec-fetch-site': 'same-origin' } },
    )
    expect(ok.status).toBe(303)
    expect(nameOf(user.id)).toBe('Fetch same-origin')
  })

  test("another session's form token does not work; GET changes nothing", async () => {
    const { email, user } = await makeOwnerShop(t.deps)
    const mine = client()
    const theirs = client()
    await signIn(mine, email)
    await signIn(theirs, email)
    await theirs.get('/admin/account')
    await mine.get('/admin/account')
    expect(
      (await mine.submit('/admin/account/profile', { name: 'Borrowed' }, { token: theirs.formToken() })).status,
    ).toBe(403)
    expect(nameOf(user.id)).toBe('Olga Owner')
    // No GET route changes state: a link to sign out is a 404 page, and the session lives.
    expect((await mine.get('/admin/logout')).status).toBe(404)
    expect((await mine.get('/admin')).status).toBe(200)
  })

  test('sign-in itself refuses another origin (login CSRF)', async () => {
    const { email } = await makeOwnerShop(t.deps)
    const b = client()
    const res = await b.submit(
      '/admin/login',
      { email, password: 'correct horse battery staple' },
      { origin: 'https://evil.example' },
    )
    expect(res.status).toBe(403)
    expect(b.sid).toBeUndefined()
  })
})

describe('secrets stay secret', () => {
  test('no session id, password, TOTP secret or link token in log lines, error bodies or a backup', async () => {
    lines.length = 0
    const password = 'correct horse battery staple'
    const { email } = await makeOwnerShop(t.deps)
    const owner = client()
    await signIn(owner, email)
    await owner.get('/admin/team')
    const invited = await owner.submit('/admin/team/invite', { email: 'secret-keeper@example.com', role: 'staff' })
    const linkPath = /value="http:\/\/localhost(\/admin\/join\?token=[^"]+)"/
      .exec(invited.text)![1]!
      .replace(/&amp;/g, '&')
    const linkToken = new URL(`http://x${linkPath}`).searchParams.get('token')!
    const person = client()
    await person.get(linkPath)
    const newPassword = 'keeper of many secrets'
    await person.submit(linkPath, { name: 'Keeper', password: newPassword })
    await person.get('/admin/account')
    const setup = await person.submit('/admin/account/two-step')
    const secret = /<code id="totp-secret" class="secret">([A-Z2-7]+)<\/code>/.exec(setup.text)![1]!
    await person.submit('/admin/account/two-step/confirm', { code: totpCodeAt(secret, t.deps.clock.now()) })
    const sessionIds = [owner.sid!, person.sid!]
    // Errors on the way: a wrong password, a used link, a refused post.
    const errors = [
      (await client().submit('/admin/login', { email, password: 'not the password' })).text,
      (await client().submit(linkPath, { name: 'x', password: newPassword })).text,
      (await owner.submit('/admin/account/profile', { name: 'x' }, { origin: 'https://evil.example' })).text,
      (await t.api.get('/api/v1/products', { headers: { cookie: `__Host-sid=${owner.sid}` } }))[0].status.toString(),
    ]
    const secrets = [password, newPassword, secret, linkToken, ...sessionIds]
    await Bun.sleep(0)
    expect(lines.length).toBeGreaterThan(5)
    for (const s of secrets) {
      for (const line of lines) expect(line).not.toContain(s)
      for (const body of errors) expect(body).not.toContain(s)
    }

    const dest = tempDir('sf-backup-')
    const { path: snapshot, manifest } = createSnapshot(t.config.dataDir, dest, t.deps.clock.now())
    const manifestText = JSON.stringify(manifest)
    const files: string[] = []
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = path.join(dir, name)
        if (statSync(p).isDirectory()) walk(p)
        else files.push(p)
      }
    }
    walk(snapshot)
    for (const s of secrets) {
      expect(manifestText).not.toContain(s)
      for (const f of files) expect(readFileSync(f).includes(Buffer.from(s))).toBe(false)
    }
    rmSync(dest, { recursive: true, force: true })
  })
})
